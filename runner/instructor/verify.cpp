// `warpdrill verify [N...]`: what CI proves of the course, on the backend at
// hand, as one command an instructor runs on their fork: every lesson
// compiles, fails as shipped (readably: cmake/ExpectCheckFailure.cmake's
// rules, the same as the lesson.NN.fails-as-shipped tests) and passes with
// its solution.
#include <fmt/core.h>

#include <algorithm>
#include <sstream>
#include <stdexcept>

#include "build.h"
#include "checker.h"
#include "commands.h"
#include "process.h"
#include "text.h"
#include "warpdrill/messages.h"

namespace warpdrill::runner {
namespace {

using Clock = std::chrono::steady_clock;

std::string indented(const std::string& text, std::size_t max_lines = 20) {
    std::istringstream in(text);
    std::string out;
    std::size_t count = 0;
    for (std::string line; std::getline(in, line) && count < max_lines; ++count) out += "    " + line + "\n";
    return out;
}

// "" when the lesson is sound; else what is wrong with it.
std::string verify_lesson(const Course& course, const Lesson& lesson, std::chrono::seconds limit) {
    const std::string number = lesson.name.substr(0, 2);
    if (!lesson.has_solution) return messages::text("verify.no_solution", {{"lesson", lesson.name}});
    if (const auto not_built = build_checks(course, lesson, std::chrono::seconds(900)))
        return messages::text("verify.shipped_does_not_compile") + "\n" + indented(not_built->message);
    const fs::path shipped = course.build_dir / course.target(lesson);
    const ProcessResult as_shipped = run_process(
        {"cmake", "-DCHECK=" + shipped.string(), "-DLESSON=" + std::to_string(lesson.number), "-P",
         (course.root / "cmake" / "ExpectCheckFailure.cmake").string()},
        limit, {"WARPDRILL_KERNEL_TIMEOUT_S=" + std::to_string(std::max<long long>(1, limit.count() / 2))});
    if (as_shipped.timed_out) return messages::text("verify.shipped_timed_out", {{"seconds", limit.count()}});
    if (as_shipped.exit_code != 0) return messages::text("verify.as_shipped", {{"problem", indented(cmake_error(as_shipped.output))}});

    const std::string solution = "solution-" + number;
    const ProcessResult build = build_target(course.build_dir, solution);
    if (build.exit_code != 0)
        return messages::text("verify.solution_does_not_compile") + "\n" +
               indented(trim_compiler_output(build.output, course, lesson));
    const CheckResult solved = run_check_program(course, course.build_dir / solution, CheckOptions{limit});
    if (solved.outcome != Outcome::passed) return messages::text("verify.solution_fails") + "\n" + indented(solved.message);
    return "";
}

}  // namespace

int run_verify(const CourseSettings& settings, const std::vector<int>& only) {
    if (!fs::exists(settings.build_dir / "CMakeCache.txt"))
        throw std::runtime_error(
            messages::text("verify.no_build_dir", {{"dir", settings.build_dir.string()}}));
    // Configure again, so that lessons added since (warpdrill new) have targets.
    const ProcessResult configure = run_process({"cmake", settings.build_dir.string()}, std::chrono::seconds(600));
    if (configure.exit_code != 0)
        throw std::runtime_error(messages::text("verify.configure_failed", {{"output", configure.output}}));
    const Course course = load_course(settings.root, settings.build_dir, WARPDRILL_ACTIVE_BACKEND, "");
    for (int number : only)
        if (!course.find(number))
            throw std::runtime_error(messages::text("grade.no_lesson", {{"lesson", number}}));

    fmt::print("{}\n", messages::text("verify.start", {{"backend", course.backend}}));
    int unsound = 0;
    int verified = 0;
    for (const Lesson& lesson : course.lessons) {
        if (!only.empty() && std::ranges::find(only, lesson.number) == only.end()) continue;
        fmt::print("{} ", messages::text("verify.lesson", {{"lesson", fmt::format("{:>2}", lesson.number)},
                                                         {"title", fmt::format("{:<40}", lesson.title)}}));
        std::fflush(stdout);
        const auto start = Clock::now();
        const std::string problem = verify_lesson(course, lesson, settings.time_limit);
        const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
        ++verified;
        if (problem.empty()) {
            fmt::print("{}\n", messages::text("verify.ok", {{"seconds", fmt::format("{:.0f}", seconds)}}));
        } else {
            ++unsound;
            fmt::print("{}\n", messages::text("verify.not_ok", {{"seconds", fmt::format("{:.0f}", seconds)}, {"problem", problem}}));
        }
    }
    fmt::print("\n{}\n", messages::text("verify.total", {{"sound", verified - unsound}, {"count", verified}, {"backend", course.backend}}));
    return unsound == 0 ? 0 : 1;
}

}  // namespace warpdrill::runner
