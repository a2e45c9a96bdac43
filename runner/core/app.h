// What every command shares: the course, the progress, and the checks.
#pragma once

#include <string>

#include "checker.h"
#include "course.h"
#include "progress.h"

namespace warpdrill::runner {

// The learner's answer to a question before a command changes or shows something.
enum class Answer { yes, no, no_terminal };

struct App {
    Course course;
    Progress progress;
    CheckOptions check_options;
    bool assume_yes = false;  // --yes: no confirmation prompts

    // Builds and runs a lesson's checks and records the outcome.
    CheckResult check(const Lesson& lesson);
    // The lesson with this number; a command-line error when there is none.
    const Lesson& lesson(int number) const;
    // The first lesson whose checks have not passed, or null when all pass.
    const Lesson* first_unfinished() const;
    int passed_count() const;
    // "not tried", "done" or "failing", from the progress.
    std::string status(const Lesson& lesson) const;  // not tried, done or failing, in the chosen language
    // The next hint, as "Hint k of n:\n...", and records that it was shown;
    // the last hint again once all were shown; "" for a lesson without hints.
    std::string next_hint(const Lesson& lesson);
    // Loads the progress; a damaged file is rebuilt by running every lesson's checks.
    void load_progress();
    std::string backend_label() const;
    // Yes with --yes or "y" on the terminal. Without a terminal it says, in
    // one line, that --yes is needed.
    Answer confirm(const std::string& question) const;
};

// "lesson 3 (...): failed  [backend, 1.2 s]", then what failed, what to edit
// and where the hints are.
void print_result(const App& app, const Lesson& lesson, const CheckResult& result);

std::string progress_bar(int done, int total, int width);
// "Edit: " and the files of `lesson` a learner edits.
std::string edit_line(const App& app, const Lesson& lesson);

// The text with JSON's escapes, to go between quotes.
std::string json_escape(const std::string& text);

}  // namespace warpdrill::runner
