// What every command shares: the course, the progress, and the checks.
#pragma once

#include <string>

#include "checker.h"
#include "course.h"
#include "progress.h"

namespace warpdrill::runner {

struct App {
    Course course;
    Progress progress;
    CheckOptions check_options;
    bool assume_yes = false;  // --yes: no confirmation prompts

    // Builds and runs a lesson's checks and records the outcome.
    CheckResult check(const Lesson& lesson);
    // The first lesson whose checks have not passed, or null when all pass.
    const Lesson* first_unfinished() const;
    int passed_count() const;
    // "not tried", "done" or "failing", from the progress.
    const char* status(const Lesson& lesson) const;
    // The next hint, as "Hint k of n:\n...", and records that it was shown;
    // the last hint again once all were shown; "" for a lesson without hints.
    std::string next_hint(const Lesson& lesson);
    // Loads the progress; a damaged file is rebuilt by running every lesson's checks.
    void load_progress();
    std::string backend_label() const;
};

// The lesson of that number; a CLI::ValidationError when there is none.
const Lesson& lesson_or_throw(const App& app, int number);

// What `warpdrill check` prints about a lesson's result.
void print_result(const App& app, const Lesson& lesson, const CheckResult& result);

std::string json_escape(const std::string& text);

// Asks on the terminal; true for y/yes. Without a terminal, false.
bool confirm(const std::string& question);

std::string progress_bar(int done, int total, int width);

int run_watch(App& app, const Lesson* start);
int run_grade(App& app, const std::string& out_dir);

}  // namespace warpdrill::runner
