#include "instructor.h"

#include <tuple>

#include "warpdrill/messages.h"

namespace warpdrill::runner {
namespace {

// Grading against a reference runs each submission's build and checks in a
// sandbox (sandbox.h), with these limits.
void add_sandbox_options(CLI::App& command, GradeRequest& request) {
    const std::string group = messages::text("help.sandbox");
    command.add_flag("--no-sandbox", request.no_sandbox,
                     messages::text("help.sandbox.none"))
        ->group(group);
    SandboxLimits& limits = request.sandbox_limits;
    const std::tuple<const char*, long*, std::string> options[] = {
        {"--cpu-limit", &limits.cpu_seconds, messages::text("help.sandbox.cpu")},
        {"--memory-limit", &limits.memory_mib, messages::text("help.sandbox.memory")},
        {"--process-limit", &limits.processes, messages::text("help.sandbox.processes")},
        {"--open-file-limit", &limits.open_files, messages::text("help.sandbox.open_files")},
        {"--file-size-limit", &limits.file_size_mib, messages::text("help.sandbox.file_size")},
        {"--disk-limit", &limits.disk_mib, messages::text("help.sandbox.disk")}};
    for (const auto& [name, value, what] : options)
        command.add_option(name, *value, what)->check(CLI::PositiveNumber)->capture_default_str()->group(group);
}

// The options grade and grade-all share.
void add_grade_options(CLI::App& command, GradeRequest& request) {
    command.add_option("--reference", request.reference,
                       messages::text("help.grade.reference"));
    command.add_option("--reference-build", request.reference_build,
                       messages::text("help.grade.reference_build"));
    command.add_option("--points", request.points_file, messages::text("help.grade.points"));
    command.add_option("--seed", request.seed, messages::text("help.grade.seed"));
    command.add_option("--lesson", request.lessons, messages::text("help.grade.lesson"));
    command.add_option("--submission-limit", request.submission_limit, messages::text("help.grade.submission_limit"))
        ->capture_default_str();
    add_sandbox_options(command, request);
}

}  // namespace

InstructorCommands::InstructorCommands(CLI::App& cli) {
    grade_request_.out = "grade";
    grade_ = cli.add_subcommand(
        "grade", messages::text("help.grade"));
    grade_->add_option("--out", grade_request_.out, messages::text("help.grade.out"))->capture_default_str();
    add_grade_options(*grade_, grade_request_);

    grade_all_request_.out = "grades";
    grade_all_ = cli.add_subcommand(
        "grade-all", messages::text("help.grade_all"));
    grade_all_->add_option("submissions", submissions_, messages::text("help.grade_all.submissions"))->required();
    grade_all_->add_option("--out", grade_all_request_.out, messages::text("help.grade_all.out"))
        ->capture_default_str();
    grade_all_->add_option("--jobs,-j", grade_all_request_.jobs, messages::text("help.grade_all.jobs"));
    grade_all_->add_flag("--keep-builds", grade_all_request_.keep_builds, messages::text("help.grade_all.keep_builds"));
    add_grade_options(*grade_all_, grade_all_request_);
    grade_all_->get_option("--reference")->required();

    handout_ = cli.add_subcommand("handout", messages::text("help.handout"));
    handout_->add_option("directory", destination_, messages::text("help.handout.directory"))->required();
    new_ = cli.add_subcommand("new", messages::text("help.new"));
    new_->add_option("lesson", lesson_name_, messages::text("help.new.lesson"))->required();
    verify_ = cli.add_subcommand(
        "verify", messages::text("help.verify"));
    verify_->add_option("lessons", verify_lessons_, messages::text("help.verify.lessons"));
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
