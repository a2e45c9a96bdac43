// `warpdrill bench`: on a GPU, the lessons' kernels against cub::DeviceReduce
// and a copy, or lesson 13's ring all-reduce against ncclAllReduce; the best
// bandwidth of each lesson goes into the progress.
#include <fmt/core.h>

#include <optional>
#include <string>
#include <vector>

#include "bench_csv.h"
#include "build.h"
#include "commands.h"
#include "process.h"
#include "warpdrill/messages.h"

namespace warpdrill::runner {
namespace {

// The best GB/s the benchmark's CSV reports for "lesson N".
std::optional<double> best_gbps(const fs::path& csv, int number) {
    std::optional<double> best;
    for (const BenchRow& row : read_bench_csv(csv)) {
        if (row.correct && row.kernel == fmt::format("lesson {}", number) && (!best || row.gbps > *best))
            best = row.gbps;
    }
    return best;
}

// Lesson 13 is an all-reduce over several GPUs: its benchmark (bench/allreduce_bench.cu)
// times the ring beside ncclAllReduce, not a sum beside CUB.
constexpr int kAllReduceLesson = 13;

// The benchmark to build and its command line: gpu_bench times every
// lesson's solution, and with a lesson N (not --solution) the learner's
// files of lesson N in its place, which bench-lesson-NN runs; lesson 13's,
// an all-reduce, is allreduce_bench (the solution's ring) or
// allreduce_bench_lesson (the learner's).
struct BenchProgram {
    std::vector<std::string> targets;
    std::vector<std::string> arguments;
};

BenchProgram bench_program(App& app, int number, bool solution) {
    if (number == kAllReduceLesson) return {{solution ? "allreduce_bench" : "allreduce_bench_lesson"}, {}};
    if (number == 0 || solution) return {{"gpu_bench"}, {}};
    return {{"gpu_bench", fmt::format("bench-{}", app.course.target(app.lesson(number)))},
            {"--learner", std::to_string(number)}};
}

}  // namespace

int run_bench(App& app, int number, bool solution) {
    if (app.course.backend != "gpu") {
        fmt::print(stderr, "{}\n", messages::text("bench.no_gpu", {{"reason", app.course.backend_reason}}));
        return 2;
    }
    const BenchProgram bench = bench_program(app, number, solution);
    for (const std::string& target : bench.targets) {
        const ProcessResult build = build_target(app.course.build_dir, target);
        if (build.exit_code != 0) {
            fmt::print("{}", build.output);
            return 1;
        }
    }
    const fs::path out = app.course.root / ".progress" / "bench";
    fs::create_directories(out);
    std::vector<std::string> command = {(app.course.build_dir / "bench" / bench.targets.front()).string(),
                                        "--csv", (out / "bench.csv").string(), "--svg",
                                        (out / "bench.svg").string()};
    command.insert(command.end(), bench.arguments.begin(), bench.arguments.end());
    const ProcessResult run = run_process(command, std::chrono::seconds(900));
    fmt::print("{}", run.output);
    for (const Lesson& lesson : app.course.lessons) {
        if (solution) break;  // the solution's figures are not the learner's
        if (const auto gbps = best_gbps(out / "bench.csv", lesson.number);
            gbps && (number == 0 || number == lesson.number)) {
            LessonProgress& entry = app.progress.of(lesson.name);
            entry.best_gbps = std::max(entry.best_gbps.value_or(0.0), *gbps);
        }
    }
    app.progress.save();
    fmt::print("{}\n",
               messages::text("bench.files", {{"table", app.course.relative(out / "bench.csv").string()},
                                              {"plot", app.course.relative(out / "bench.svg").string()}}));
    return run.exit_code;
}

}  // namespace warpdrill::runner
