// `warpdrill bench`: on a GPU, the lessons' kernels against cub::DeviceReduce
// and a copy, or lesson 13's ring all-reduce against ncclAllReduce; the best
// bandwidth of each lesson goes into the progress.
#include <fmt/core.h>

#include <optional>

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

// The benchmark program: the solutions' (gpu_bench, or allreduce_bench for
// lesson 13), or one with lesson N's own files.
std::string bench_program(App& app, int number, bool solution) {
    if (number > 0 && !solution) return "gpu_bench_" + app.course.target(app.lesson(number));
    return number == kAllReduceLesson ? "allreduce_bench" : "gpu_bench";
}

}  // namespace

int run_bench(App& app, int number, bool solution) {
    if (app.course.backend != "gpu") {
        fmt::print(stderr, "{}\n", messages::text("bench.no_gpu", {{"reason", app.course.backend_reason}}));
        return 2;
    }
    const std::string bench = bench_program(app, number, solution);
    const ProcessResult build = build_target(app.course.build_dir, bench);
    if (build.exit_code != 0) {
        fmt::print("{}", build.output);
        return 1;
    }
    const fs::path out = app.course.root / ".progress" / "bench";
    fs::create_directories(out);
    const ProcessResult run =
        run_process({(app.course.build_dir / "bench" / bench).string(), "--csv", (out / "bench.csv").string(),
                     "--svg", (out / "bench.svg").string()},
                    std::chrono::seconds(900));
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
    fmt::print("{}\n", messages::text("bench.files", {{"table", app.course.relative(out / "bench.csv").string()},
                                                   {"plot", app.course.relative(out / "bench.svg").string()}}));
    return run.exit_code;
}

}  // namespace warpdrill::runner
