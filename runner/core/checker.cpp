#include "checker.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <future>
#include <vector>

#include "build.h"
#include "check_record.h"
#include "process.h"
#include "sanitizer.h"
#include "text.h"
#include "warpdrill/check_record.h"
#include "warpdrill/messages.h"

namespace warpdrill::runner {
namespace {

// The text of the files nvcc compiles for a lesson's check: the learner's
// and the given launch.cu.
std::string kernel_text(const Lesson& lesson) {
    std::string text;
    for (const fs::path& file : lesson.edit_files) text += read_text(file);
    return text + read_text(lesson.dir / "check" / "launch.cu");
}

// On the CPU backend where nvcc is installed (but no GPU is seen): the
// learner's kernels compiled by nvcc for an H100, beside the CPU build and
// checks. Code that only the CPU backend accepts is named before it meets a
// GPU. -cubin runs nvcc's device compile (its front end over the whole
// translation unit, host code included, then cicc and ptxas on the
// kernels); of the host compile, which the CPU build does already, GCC's
// errors are the CPU build's and the execution spaces' are cudacc's (host
// code calling a __device__ function). 0.5 s over lesson 7's kernels where
// -cuda, host compile included, took 1.25 (results/README.md). Kernels nvcc
// took as they are now are not compiled again. Nothing to wait for when
// there is no nvcc, or when WARPDRILL_NVCC_CHECK=0 asks for the CPU checks
// alone.
struct NvccCheck {
    std::future<ProcessResult> compiled;
    fs::path stamp;  // holds the hash of the kernels nvcc last took
    std::string hash;
};

NvccCheck start_nvcc_check(const Course& course, const Lesson& lesson) {
    const fs::path nvcc = WARPDRILL_NVCC;
    const char* wanted = std::getenv("WARPDRILL_NVCC_CHECK");  // "0": the CPU checks alone
    if (course.backend != "cpu" || nvcc.empty() || !fs::exists(nvcc) || (wanted && std::string(wanted) == "0"))
        return {};
    const fs::path dir = course.build_dir / "nvcc-check";
    NvccCheck check{{}, dir / (lesson.name + ".passed"), std::to_string(std::hash<std::string>{}(kernel_text(lesson)))};
    if (fs::exists(check.stamp) && read_text(check.stamp) == check.hash) return {};
    fs::create_directories(dir);
    const std::vector<std::string> command{nvcc.string(),
                                           "-std=c++20",
                                           "-arch=sm_90",
                                           "-I" + lesson.dir.string(),
                                           "-I" + (course.root / "common" / "include").string(),
                                           "-x",
                                           "cu",
                                           "-cubin",
                                           (lesson.dir / "check" / "launch.cu").string(),
                                           "-o",
                                           "/dev/null"};  // its verdict is all that is wanted
    check.compiled =
        std::async(std::launch::async, [command] { return run_process(command, std::chrono::seconds(300)); });
    return check;
}

// The CPU's verdict becomes nvcc's compile error when nvcc rejects the kernels.
void add_nvcc_verdict(CheckResult& result, NvccCheck& nvcc, const Course& course, const Lesson& lesson) {
    if (!nvcc.compiled.valid()) return;
    const ProcessResult compiled = nvcc.compiled.get();
    if (compiled.exit_code == 0) {
        std::ofstream(nvcc.stamp) << nvcc.hash;
        return;
    }
    if (compiled.timed_out || result.outcome == Outcome::compile_error) return;
    result.outcome = Outcome::compile_error;
    result.message = messages::text("check.nvcc_rejects") + "\n" + trim_compiler_output(compiled.output, course, lesson);
    result.output += "\n" + compiled.output;
}

// When a limit of the grading sandbox stopped the program, the message names
// it first, and it is the headline.
void name_sandbox_limit(CheckResult& result, const Sandbox* sandbox, const ProcessResult& run) {
    const std::optional<LimitReached> limit = sandbox ? sandbox->limit_reached(run) : std::nullopt;
    if (!limit) return;
    if (limit->kind == LimitReached::Kind::time)
        result.outcome = Outcome::timed_out;
    else if (result.outcome != Outcome::compile_error)
        result.outcome = Outcome::crashed;
    result.message = limit->sentence + "\n\n" + result.message;
    result.headline = limit->sentence;
}

}  // namespace

const char* to_string(Outcome outcome) {
    switch (outcome) {
        case Outcome::passed: return "passed";
        case Outcome::failed: return "failed";
        case Outcome::compile_error: return "compile error";
        case Outcome::crashed: return "crashed";
        case Outcome::timed_out: return "timed out";
    }
    return "?";
}

std::string outcome_text(Outcome outcome) {
    switch (outcome) {
        case Outcome::passed: return messages::text("check.outcome.passed");
        case Outcome::failed: return messages::text("check.outcome.failed");
        case Outcome::compile_error: return messages::text("check.outcome.compile_error");
        case Outcome::crashed: return messages::text("check.outcome.crashed");
        case Outcome::timed_out: return messages::text("check.outcome.timed_out");
    }
    return "?";
}

std::string trim_compiler_output(const std::string& output, const Course& course, const Lesson& lesson) {
    // Paths as the learner knows them: relative to the course.
    const std::string text = replace_all(output, course.root.string() + "/", "");
    const std::string mine = course.relative(lesson.dir).string() + "/";
    std::string trimmed;
    int context = 0;  // lines kept after a diagnostic: the source line and the caret
    int kept = 0;
    for (const std::string& line : lines_of(text)) {
        if (line.rfind(mine, 0) == 0 && line.find("check/") == std::string::npos &&
            (line.find("error") != std::string::npos || line.find("warning") != std::string::npos ||
             line.find("note") != std::string::npos)) {
            context = 3;
        }
        if (context > 0 && kept < 60) {
            trimmed += line + "\n";
            --context;
            ++kept;
        }
    }
    return trimmed.empty() ? last_lines(text, 40) : trimmed;
}

std::optional<CheckResult> build_checks(const Course& course, const Lesson& lesson, std::chrono::seconds limit,
                                        const Sandbox* sandbox) {
    const ProcessResult build = build_target(course.build_dir, course.target(lesson), limit, sandbox);
    if (build.exit_code == 0) return std::nullopt;
    CheckResult result;
    result.seconds = build.seconds;
    result.output = build.output;
    if (build.timed_out) {
        result.outcome = Outcome::timed_out;
        result.message = messages::text("check.compile_timeout", {{"seconds", limit.count()}});
    } else {
        result.outcome = Outcome::compile_error;
        result.message = trim_compiler_output(build.output, course, lesson);
    }
    name_sandbox_limit(result, sandbox, build);
    return result;
}

namespace {

// A file for the record of one run of a check program (check_record.h), in
// `dir`: a folder the program may write, in the grading sandbox too (whose
// programs may write only in the folders made for them).
fs::path new_record_file(const fs::path& dir) {
    static std::atomic<unsigned> runs{0};
    fs::create_directories(dir);  // a grading build folder that nothing was built in yet
    return dir / (".check-record-" + std::to_string(::getpid()) + "-" + std::to_string(runs++) + ".jsonl");
}

// The verdict, from what the grader saw: the record and how the program ended.
void judge(CheckResult& result, const ProcessResult& run, const CheckRecord& record, const std::string& root,
           std::chrono::seconds limit, long long backend_limit) {
    const CaseRecord* failed = record.first_failed();
    const std::string first_failure = failed && !failed->failures.empty()
                                          ? replace_all(failed->failures.front(), root + "/", "")
                                          : "";
    // The program's last lines (its output, the learner's to read) come
    // before the grader's sentence, which is the headline.
    const auto say = [&](Outcome outcome, const std::string& before, const std::string& sentence) {
        result.outcome = outcome;
        result.message = before + "\n" + sentence;
        result.headline = before_colon(sentence);
    };
    const std::string context = first_failure.empty() ? last_lines(result.output, 12) : first_failure;
    if (run.timed_out || run.exit_code == 124) {  // 124: the CPU backend's watchdog stopped a kernel
        say(Outcome::timed_out, last_lines(result.output, 12),
            messages::text("check.timed_out", {{"seconds", run.timed_out ? limit.count() : backend_limit}}));
    } else if (run.signal != 0) {
        say(Outcome::crashed, context,
            messages::text("check.crashed", {{"signal", run.signal}}));
    } else if (!record.finished) {
        // What did not run did not pass.
        say(Outcome::failed, context,
            messages::text("check.stopped_early", {{"code", run.exit_code}}));
    } else if (record.failed_cases > 0 || failed) {
        result.outcome = Outcome::failed;
        result.message = first_failure.empty() ? last_lines(result.output, 30) : first_failure;
        result.headline = first_nonblank_line(result.message);
    } else if (run.exit_code != 0 && run.exit_code != check_record::kSkippedExitCode) {
        say(Outcome::failed, last_lines(result.output, 12),
            messages::text("check.exit_code_after_pass", {{"code", run.exit_code}}));
    } else {
        result.outcome = Outcome::passed;
        result.message = messages::text("check.all_pass");
        result.notes = replace_all(record.warnings(), root + "/", "");
        result.skipped = record.skip_reasons();
    }
}

}  // namespace

CheckResult run_check_program(const Course& course, const fs::path& program, const CheckOptions& options,
                              const std::vector<std::string>& arguments, std::vector<std::string> environment) {
    CheckResult result;
    // The CPU backend's own watchdog names the running thread: let it speak first.
    const auto backend_limit = std::max<long long>(1, options.time_limit.count() / 2);
    environment.push_back("WARPDRILL_KERNEL_TIMEOUT_S=" + std::to_string(backend_limit));
    const fs::path record_file = new_record_file(options.record_dir.empty() ? course.build_dir : options.record_dir);
    environment.push_back(std::string(check_record::kFileVariable) + "=" + record_file.string());
    // The backend quotes source lines from the course's files, wherever it was built.
    environment.push_back("WARPDRILL_SOURCE_DIR=" + course.root.string());
    std::vector<std::string> argv{program.string()};
    argv.insert(argv.end(), arguments.begin(), arguments.end());
    const ProcessResult run = run_in(options.sandbox, argv, options.time_limit, environment);
    const CheckRecord record = read_check_record(record_file);
    std::error_code ignored;
    fs::remove(record_file, ignored);
    result.seconds = run.seconds;
    // Paths as the learner knows them: relative to the course.
    result.output = replace_all(run.output, course.root.string() + "/", "");
    result.matched_nothing = record.matched_nothing;
    judge(result, run, record, course.root.string(), options.time_limit, backend_limit);
    name_sandbox_limit(result, options.sandbox, run);
    return result;
}

CheckResult run_checks(const Course& course, const Lesson& lesson, const CheckOptions& options,
                       const std::vector<std::string>& arguments, std::vector<std::string> environment) {
    return run_check_program(course, course.build_dir / course.target(lesson), options, arguments,
                             std::move(environment));
}

CheckResult check_lesson(const Course& course, const Lesson& lesson, const CheckOptions& options) {
    using Clock = std::chrono::steady_clock;
    const auto since = [](Clock::time_point start) {
        return std::chrono::duration<double>(Clock::now() - start).count();
    };
    Clock::time_point start = Clock::now();
    NvccCheck nvcc = start_nvcc_check(course, lesson);
    const double nvcc_start = since(start);
    start = Clock::now();
    if (auto not_built = build_checks(course, lesson, std::chrono::seconds(900))) return *not_built;
    const double build = since(start);
    CheckResult result = run_checks(course, lesson, options);
    start = Clock::now();
    add_nvcc_verdict(result, nvcc, course, lesson);
    result.steps = {{messages::text("check.timings.nvcc_start"), nvcc_start},
                    {messages::text("check.timings.build"), build},
                    {messages::text("check.timings.checks"), result.seconds},
                    {messages::text("check.timings.nvcc_wait"), since(start)}};
    start = Clock::now();
    const bool failed = result.outcome == Outcome::failed || result.outcome == Outcome::crashed;
    if (course.backend == "gpu" && (failed || (options.sanitize && result.outcome == Outcome::passed))) {
        // The GPU says little of why: let compute-sanitizer look, and say what it found first.
        std::string found;
        for (const std::string& finding :
             explain_with_sanitizer(course.build_dir / course.target(lesson), options.time_limit / 2)) {
            found += finding + "\n";
        }
        if (!found.empty() && !failed) {
            // The checks passed, but the GPU got the right answer by luck: as the CPU backend
            // would have stopped the kernel, the lesson does not pass.
            result.outcome = Outcome::failed;
            result.message = found + "\n" + messages::text("check.sanitizer_found");
        } else if (!found.empty()) {
            result.message = found + "\n" + result.message;
        }
    }
    if (course.backend == "gpu") result.steps.push_back({"compute-sanitizer", since(start)});
    return result;
}

}  // namespace warpdrill::runner
