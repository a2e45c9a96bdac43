// One lesson's workload (warpdrill/course/workload.h) timed on the GPU, for
// gpu_bench: each of its parts at each of its benchmark sizes, checked
// against a double-precision reference first, then timed both ways
// (gpu_measure.cuh). Linked per lesson with its launch code and workload
// (bench/CMakeLists.txt): bench-solution-NN runs the solution's kernel
// files, bench-lesson-NN the learner's.
//   bench-solution-NN [--quick]
// Its rows go to standard output, in gpu_bench's CSV columns, without the
// header; what it has to say goes to standard error. Exit status: 0 when
// every result was right, 1 when one was not, kSkippedExitCode when this
// GPU cannot run the lesson, 2 on an error.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include "gpu_measure.cuh"
#include "warpdrill/check_record.h"
#include "warpdrill/course/workload.h"

namespace {

using namespace warpdrill::bench;
using warpdrill::course::Workload;

// Room on the GPU for the rotating inputs of n floats, a copy's target and some.
bool room_for(std::int64_t n) {
    std::size_t free_bytes = 0, total_bytes = 0;
    check_cuda(cudaMemGetInfo(&free_bytes, &total_bytes));
    return free_bytes > 3 * static_cast<std::size_t>(n) * sizeof(float) + (std::size_t{1} << 30);
}

// What a part moves per run: the input read, and for ReduceScale its output written.
double bytes_moved(const Workload& workload, std::int64_t n) {
    const double read = static_cast<double>(n) * sizeof(float);
    return std::strcmp(workload.computes(), "reduce_scale") == 0 ? 2 * read : read;
}

// The lesson's idea, or for ReduceScale the matrix: "ReduceScale (442368, 128)".
std::string idea(const Workload& workload, std::int64_t n) {
    if (std::strcmp(workload.computes(), "reduce_scale") != 0) return warpdrill::course::lesson_title();
    return "ReduceScale (" + std::to_string(n / warpdrill::course::kReduceScaleCols) + ", " +
           std::to_string(warpdrill::course::kReduceScaleCols) + ")";
}

// Each part of the workload at n floats: one CSV row each; false if a result was wrong.
bool measure(std::int64_t n, Timer& timer) {
    const RotatingInputs inputs(static_cast<std::size_t>(n), warpdrill::fresh_seed());
    const std::vector<float> values = inputs.values();
    const warpdrill::course::WorkloadInput input{values, inputs.sum, inputs.sum_abs};
    const auto workload = warpdrill::course::make_workload(n);
    bool all_right = true;
    for (std::size_t part = 0; part < workload->parts().size(); ++part) {
        workload->reset();
        workload->launch(part, inputs.at(0));
        check_launch();
        const std::string wrong = workload->wrong(part, input);
        if (!wrong.empty())
            std::fprintf(stderr, "lesson %d: %s\n", warpdrill::course::lesson_number(), wrong.c_str());
        all_right = all_right && wrong.empty();
        const Timing time = timer.median([&](int run) { workload->launch(part, inputs.at(run)); });
        const Workload::Part& what = workload->parts()[part];
        std::printf("\"lesson %d%s\",\"%s\",%lld,%g,%g,%g,%s,\"%s\",%s\n", warpdrill::course::lesson_number(),
                    what.name.c_str(), idea(*workload, n).c_str(), static_cast<long long>(n), time.ms * 1e3,
                    time.gpu_ms * 1e3, bytes_moved(*workload, n) / time.ms / 1e6,
                    wrong.empty() ? "yes" : "no", what.grid.c_str(), workload->computes());
    }
    return all_right;
}

}  // namespace

int main(int argc, char** argv) {
    const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
    try {
        Timer timer;
        bool all_right = true;
        for (std::int64_t n : warpdrill::course::benchmark_sizes(quick)) {
            if (!room_for(n)) {
                std::fprintf(stderr, "lesson %d at %lld floats: skipped, the GPU has no room for them\n",
                             warpdrill::course::lesson_number(), static_cast<long long>(n));
                continue;
            }
            all_right = measure(n, timer) && all_right;
        }
        return all_right ? 0 : 1;
    } catch (const warpdrill::course::NotOnThisGpu& reason) {
        std::fprintf(stderr, "%s\n", reason.what());
        return warpdrill::check_record::kSkippedExitCode;
    } catch (const std::exception& error) {
        std::fprintf(stderr, "lesson %d's benchmark: %s\n", warpdrill::course::lesson_number(), error.what());
        return 2;
    }
}
