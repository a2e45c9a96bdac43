#include "instructor.h"

#include <tuple>

namespace warpdrill::runner {
namespace {

// Grading against a reference runs each submission's build and checks in a
// sandbox (sandbox.h), with these limits.
void add_sandbox_options(CLI::App& command, GradeRequest& request) {
    const std::string group = "Sandbox (grading against a reference)";
    command.add_flag("--no-sandbox", request.no_sandbox,
                     "run the submissions' code unconfined, with your rights (where bubblewrap cannot run; the "
                     "reports say so)")
        ->group(group);
    SandboxLimits& limits = request.sandbox_limits;
    const std::tuple<const char*, long*, const char*> options[] = {
        {"--cpu-limit", &limits.cpu_seconds, "seconds of CPU time for each process"},
        {"--memory-limit", &limits.memory_mib, "MiB of memory for each process"},
        {"--process-limit", &limits.processes, "processes and threads of one build or check run, together"},
        {"--open-file-limit", &limits.open_files, "open files for each process"},
        {"--file-size-limit", &limits.file_size_mib, "MiB for each file written"},
        {"--disk-limit", &limits.disk_mib, "MiB of disk for a submission's build and kernel files, together"}};
    for (const auto& [name, value, what] : options)
        command.add_option(name, *value, what)->check(CLI::PositiveNumber)->capture_default_str()->group(group);
}

// The options grade and grade-all share.
void add_grade_options(CLI::App& command, GradeRequest& request) {
    command.add_option("--reference", request.reference,
                       "grade against this copy of the course (a directory, or a git commit, tag or branch of "
                       "the repository here): only the learners' kernel files come from the submission");
    command.add_option("--reference-build", request.reference_build,
                       "a build directory of the reference to reuse (its target grading-kit)");
    command.add_option("--points", request.points_file, "points per test (default: the reference's grading.toml)");
    command.add_option("--seed", request.seed, "the base seed of every input (default: a fresh one)");
    command.add_option("--lesson", request.lessons, "grade only these lessons (repeat the option)");
    command.add_option("--submission-limit", request.submission_limit, "seconds for all of one submission")
        ->capture_default_str();
    add_sandbox_options(command, request);
}

}  // namespace

InstructorCommands::InstructorCommands(CLI::App& cli) {
    grade_request_.out = "grade";
    grade_ = cli.add_subcommand(
        "grade", "check every lesson; write JUnit XML, Gradescope's results.json and JSON (for instructors)");
    grade_->add_option("--out", grade_request_.out, "directory for the reports")->capture_default_str();
    add_grade_options(*grade_, grade_request_);

    grade_all_request_.out = "grades";
    grade_all_ = cli.add_subcommand(
        "grade-all", "grade every learner's checkout in a directory against a reference, in parallel: a roster "
                     "(CSV) and the failures most share");
    grade_all_->add_option("submissions", submissions_, "a directory with one checkout per learner")->required();
    grade_all_->add_option("--out", grade_all_request_.out, "directory for the roster and reports")
        ->capture_default_str();
    grade_all_->add_option("--jobs,-j", grade_all_request_.jobs, "submissions graded at once (default: one a core)");
    grade_all_->add_flag("--keep-builds", grade_all_request_.keep_builds, "keep each submission's build directory");
    add_grade_options(*grade_all_, grade_all_request_);
    grade_all_->get_option("--reference")->required();

    handout_ = cli.add_subcommand("handout", "copy the course for learners: no solutions, a classroom workflow");
    handout_->add_option("directory", destination_, "a new directory")->required();
    new_ = cli.add_subcommand("new", "scaffold a lesson: kernel, solution, checks, hints, book chapter");
    new_->add_option("lesson", lesson_name_, "NN-name, as lessons/NN-name")->required();
    verify_ = cli.add_subcommand(
        "verify", "prove every lesson compiles, fails as shipped and passes with its solution, on this backend");
    verify_->add_option("lessons", verify_lessons_, "only these lessons");
}

bool InstructorCommands::chosen() const {
    return *grade_ || *grade_all_ || *handout_ || *new_ || *verify_;
}

int InstructorCommands::run(const CourseSettings& settings) const {
    if (*grade_) return run_grade(settings, grade_request_);
    if (*grade_all_) return run_grade_all(settings, submissions_, grade_all_request_);
    if (*handout_) return run_handout(settings, destination_);
    if (*new_) return run_new(settings, lesson_name_);
    return run_verify(settings, verify_lessons_);
}

}  // namespace warpdrill::runner
