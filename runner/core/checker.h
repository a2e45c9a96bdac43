// Builds a lesson's checks and runs them, and says in a few lines what
// happened: passed, failed (the first failing check's message), did not
// compile (the compiler's messages about the learner's files), crashed, or
// ran past the time limit.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "course.h"
#include "sandbox.h"

namespace warpdrill::runner {

enum class Outcome { passed, failed, compile_error, crashed, timed_out };

const char* to_string(Outcome outcome);  // as reports write it: "compile error"
std::string outcome_text(Outcome outcome);  // as the learner reads it, in the chosen language

struct CheckResult {
    Outcome outcome = Outcome::failed;
    std::string message;  // what the learner needs to see
    std::string headline;  // the cause in one line, made by the runner (grading's roster shows it)
    std::string notes;    // what the checks point out even when they pass (Catch2's WARN)
    std::string output;   // everything, for --verbose
    std::string skipped;  // why the checks passed without checking: this GPU cannot run them
    bool matched_nothing = false;  // the test filter given matched no check
    double seconds = 0;
    // Where the seconds went, step by step, from the save to the verdict (check --timings).
    struct Step {
        std::string what;
        double seconds = 0;
    };
    std::vector<Step> steps;
};

struct CheckOptions {
    std::chrono::seconds time_limit{120};
    // On a GPU: run compute-sanitizer over passing checks too; what it finds fails the lesson.
    bool sanitize = false;
    bool timings = false;  // print where the seconds went
    const Sandbox* sandbox = nullptr;  // grading: the checks run in it
    // Where the check program writes the record of its run (check_record.h);
    // the course's build folder when empty.
    std::filesystem::path record_dir{};
};

// Builds the lesson's checks and runs them (on a GPU, a failure again under
// compute-sanitizer, and with `sanitize` a pass too).
CheckResult check_lesson(const Course& course, const Lesson& lesson, const CheckOptions& options);

// The two halves of check_lesson. build_checks: nothing when the lesson's
// check program builds (in `sandbox`, when given), else why not (compile
// error, or timed out after `limit`).
std::optional<CheckResult> build_checks(const Course& course, const Lesson& lesson, std::chrono::seconds limit,
                                        const Sandbox* sandbox = nullptr);
// run_checks: the built program, with extra arguments (a Catch2 test filter)
// and environment entries ("NAME=value").
CheckResult run_checks(const Course& course, const Lesson& lesson, const CheckOptions& options,
                       const std::vector<std::string>& arguments = {}, std::vector<std::string> environment = {});

// The parts of compiler output that concern the learner's files; all of it
// when none does (a problem elsewhere), shortened either way.
std::string trim_compiler_output(const std::string& output, const Course& course, const Lesson& lesson);

// run_checks for any check program of the course (a solution's).
CheckResult run_check_program(const Course& course, const std::filesystem::path& program, const CheckOptions& options,
                              const std::vector<std::string>& arguments = {},
                              std::vector<std::string> environment = {});

}  // namespace warpdrill::runner
