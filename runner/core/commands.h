// The warpdrill program's commands, one function each; each returns the
// program's exit code.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "app.h"
#include "sandbox.h"

namespace warpdrill::runner {

// status.cpp: where the learner stands.
int run_list(App& app);
int run_setup(App& app);

// lesson.cpp: one lesson at a time.
int run_check(App& app, int number);
int run_hint(App& app, int number);

// files.cpp: the learner's files.
int run_reset(App& app, int number);
int run_solution(App& app, int number);
// Keeps the starting version of every learner file, for `reset` outside git.
void save_pristine_copies(const Course& course);
// A learner file as it was handed out: from git when the course is a git
// checkout (HEAD), else from the copy save_pristine_copies kept.
std::optional<std::string> starting_version(const Course& course, const fs::path& file);

int run_watch(App& app, const Lesson* start);        // watch.cpp
int run_bench(App& app, int number, bool solution);  // bench.cpp

// profile.cpp: what the hardware does with a lesson's kernel.
struct ProfileOptions {
    int lesson = 0;
    bool solution = false;  // the solution's kernel files, not the learner's
    int compare = 0;        // a second lesson to set beside the first
    std::string gpu = "h100";
    bool json = false;
    long long floats = 1LL << 20;  // the input's size
};
int run_profile(App& app, const ProfileOptions& options);

int run_test(App& app);                              // test.cpp

// cuda_program.cpp: a CUDA program of the learner's own, built as nvcc builds it.
int run_cc(App& app, const std::vector<std::string>& nvcc_args);
struct RunOptions {
    std::vector<std::string> sources;       // .cu and .cpp files, and nvcc options
    std::vector<std::string> program_args;  // after "--"
    bool sanitize = false;                  // on a GPU: under compute-sanitizer's tools
};
// `warpdrill run`'s arguments: --sanitize anywhere before "--", the
// program's own arguments after it.
RunOptions parse_run_options(std::vector<std::string> args);
int run_program(App& app, const RunOptions& options);

// The instructors' commands (instructor.cpp registers them). They need no
// progress, only where the course is.
struct CourseSettings {
    fs::path root;
    fs::path build_dir;
    std::chrono::seconds time_limit{120};  // for each run of a lesson's checks
};

struct GradeRequest {
    std::string out;                // the reports' directory
    std::string reference;          // a directory or git ref; "": the course's own checks
    std::string reference_build;    // the reference's build directory; "": found or made
    std::string points_file;        // "": the reference's (or the course's) grading.toml
    std::string seed;               // the base seed; "": a fresh one
    std::vector<int> lessons;       // only these; empty: all
    int submission_limit = 900;     // seconds for all of one submission
    int jobs = 0;                   // grade-all: submissions at once; 0: one a core
    bool keep_builds = false;       // grade-all: keep each submission's build directory
    bool no_sandbox = false;        // with a reference: run the submissions' code unconfined
    SandboxLimits sandbox_limits;   // with a reference: what the submissions' code may take
};

// grade.cpp: one course or submission, and a whole class.
int run_grade(const CourseSettings& settings, const GradeRequest& request);
int run_grade_all(const CourseSettings& settings, const std::string& submissions, const GradeRequest& request);
int run_handout(const CourseSettings& settings, const std::string& dest);  // handout.cpp
int run_new(const CourseSettings& settings, const std::string& name);      // scaffold.cpp
int run_verify(const CourseSettings& settings, const std::vector<int>& lessons);  // verify.cpp

}  // namespace warpdrill::runner
