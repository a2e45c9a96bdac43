// A lesson's kernels at one fixed size, for `warpdrill profile`: runs the sum
// (or ReduceScale) the way bench/gpu_bench does, or lesson 13's add on one
// GPU, every launch of it, once, as the lesson's workload in the course's
// manifest (lessons/lessons.toml) says: one section below each.
// Built per lesson with its check/launch.cu and the learner's or the
// solution's kernel files (cmake/Lessons.cmake), for either backend:
//   - on the CPU backend it profiles every launch (warpdrill/cpu/backend.h)
//     and writes the counts, and each source line's memory counts, as the
//     record that warpdrill/profile_record.h describes, for the runner;
//   - on a GPU it only runs the launches, for Nsight Compute to measure
//     (scripts/ncu-table.sh, or `warpdrill profile` in a GPU build).
// A wrong result ends it with exit code 1 and no counts.
//   profile-NN [--floats N] [--multiprocessors M] [--register-limited-blocks B] [--record FILE]
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "warpdrill/course/device_sum.h"
#include "warpdrill/course/lesson.h"
#include "warpdrill/course/ring.h"
#include "warpdrill/data.h"
#include "warpdrill/host.h"
#include "warpdrill/reference.h"

#if defined(WARPDRILL_BACKEND_CPU)
#include "warpdrill/profile_record.h"
#endif

#if !defined(WARPDRILL_LESSON)
#error "WARPDRILL_LESSON must name the lesson (cmake/Lessons.cmake defines it)"
#endif

namespace {

using warpdrill::DeviceBuffer;

struct Options {
    std::int64_t floats = std::int64_t{1} << 20;
    // On the CPU backend, the GPU's to imitate (an H100's): lessons 8 and 10 size their grid from it.
    int multiprocessors = 132;
    // On the CPU backend, the most blocks an SM holds by the kernel's registers on that GPU (0: no limit).
    int register_limited_blocks = 0;
    // On the CPU backend, where the record of the counts goes (none without it).
    std::string record;
};

Options parse(int argc, char** argv) {
    Options options;
    for (int a = 1; a + 1 < argc; a += 2) {
        if (std::strcmp(argv[a], "--floats") == 0) options.floats = std::atoll(argv[a + 1]);
        if (std::strcmp(argv[a], "--multiprocessors") == 0) options.multiprocessors = std::atoi(argv[a + 1]);
        if (std::strcmp(argv[a], "--register-limited-blocks") == 0) {
            options.register_limited_blocks = std::atoi(argv[a + 1]);
        }
        if (std::strcmp(argv[a], "--record") == 0) options.record = argv[a + 1];
    }
    return options;
}

// Lesson 9 compares its output with its baseline's instead.
[[maybe_unused]] bool close_enough(double got, const std::vector<float>& input,
                                   std::size_t sequential_terms) {
    const double want = warpdrill::reference_sum(input);
    const double tolerance =
        warpdrill::sum_tolerance(input.size(), warpdrill::reference_sum_abs(input), sequential_terms);
    if (std::abs(got - want) <= tolerance) return true;
    std::fprintf(stderr, "the kernel's sum of %zu floats is %.9g; it should be %.9g (within %.3g)\n",
                 input.size(), got, want, tolerance);
    return false;
}

// What each workload runs, and what it computes (kWorkload: the runner
// compares the counts of lessons that compute the same); run_lesson() is
// true when its result is right.
#if defined(WARPDRILL_WORKLOAD_SUM_IN_PASSES)
// A block-sum kernel applied to its own output until one value is left, as
// the classic samples (and gpu_bench) do.
[[maybe_unused]] constexpr const char* kWorkload = "sum";
constexpr int kBlockSize = 256;  // as bench/gpu_bench

bool run_lesson(const std::vector<float>& input, const DeviceBuffer<float>& d_in) {
    const warpdrill::course::BlockSumKernel kernel = warpdrill::course::block_sum_kernel();
    const int n = static_cast<int>(input.size());
    DeviceBuffer<float> partials[2] = {DeviceBuffer<float>(input.size() / kBlockSize + 1),
                                       DeviceBuffer<float>(input.size() / kBlockSize + 1)};
    float* const scratch[2] = {partials[0].data(), partials[1].data()};
    DeviceBuffer<float> sum(1);
    const int span = kBlockSize * kernel.elements_per_thread;
    warpdrill::course::sum_in_passes(d_in.data(), sum.data(), n, span, scratch,
                                     [&](const float* from, float* to, int count) {
                                         kernel.launch(from, to, count, kBlockSize);
                                         warpdrill::check_launch();
                                     });
    return close_enough(sum.download()[0], input, static_cast<std::size_t>(kernel.elements_per_thread));
}
#elif defined(WARPDRILL_WORKLOAD_DEVICE_SUM)
// The lesson's whole sum as its checks call it (lesson 8: a grid-stride pass
// over the input, then one block over the partials).
[[maybe_unused]] constexpr const char* kWorkload = "sum";

bool run_lesson(const std::vector<float>& input, const DeviceBuffer<float>& d_in) {
    const int n = static_cast<int>(input.size());
    const float sum = warpdrill::course::device_sum(d_in.data(), n);
    return close_enough(sum, input, static_cast<std::size_t>(warpdrill::course::max_elements_per_thread(n)));
}
#elif defined(WARPDRILL_WORKLOAD_REDUCE_SCALE)
// ReduceScale of (floats / 128, 128), the given block-per-row baseline
// first, then the learner's warp per row.
[[maybe_unused]] constexpr const char* kWorkload = "reduce_scale";
constexpr int kReduceScaleCols = 128;

bool run_lesson(const std::vector<float>& input, const DeviceBuffer<float>& d_in) {
    const int rows = static_cast<int>(input.size() / kReduceScaleCols);
    DeviceBuffer<float> baseline(input.size());
    DeviceBuffer<float> scaled(input.size());
    warpdrill::course::reduce_scale_block_per_row(d_in.data(), baseline.data(), rows, kReduceScaleCols);
    warpdrill::check_launch();
    warpdrill::course::reduce_scale_warp_per_row(d_in.data(), scaled.data(), rows, kReduceScaleCols);
    warpdrill::check_launch();
    const std::vector<float> want = baseline.download();
    const std::vector<float> got = scaled.download();
    for (std::size_t i = 0; i < want.size(); ++i) {
        if (std::abs(got[i] - want[i]) > 1e-6f * std::abs(want[i])) {
            std::fprintf(stderr, "y[%zu] is %.9g; the block-per-row baseline gives %.9g\n", i, got[i],
                         want[i]);
            return false;
        }
    }
    return true;
}
#elif defined(WARPDRILL_WORKLOAD_ONE_LAUNCH_SUM)
// One launch, the last block finishes.
[[maybe_unused]] constexpr const char* kWorkload = "sum";

bool run_lesson(const std::vector<float>& input, const DeviceBuffer<float>& d_in) {
    const auto n = static_cast<std::int64_t>(input.size());
    const int blocks = warpdrill::course::one_launch_blocks(n);
    DeviceBuffer<float> partials(static_cast<std::size_t>(blocks));
    DeviceBuffer<unsigned> tickets(1);
    DeviceBuffer<float> sum(1);
    warpdrill::check_cuda(cudaMemset(tickets.data(), 0, sizeof(unsigned)));
    warpdrill::course::one_launch_sum(d_in.data(), n, partials.data(), tickets.data(), sum.data(), blocks);
    warpdrill::check_launch();
    const std::size_t per_thread =
        static_cast<std::size_t>((n + std::int64_t{blocks} * warpdrill::course::kOneLaunchBlockSize - 1) /
                                 (std::int64_t{blocks} * warpdrill::course::kOneLaunchBlockSize));
    return close_enough(sum.download()[0], input, per_thread + 4);
}
#elif defined(WARPDRILL_WORKLOAD_CO_RESIDENT_SUM) || defined(WARPDRILL_WORKLOAD_CLUSTER_SUM)
// One cooperative launch (in clusters, for cluster_sum) of kCoResidentBlocks
// blocks. A grid barrier keeps every block's threads alive at once, and the
// CPU backend holds at most 8 SMs' worth (64 blocks of 256 threads); the GPU
// runs the same grid, so that ncu counts the same launch.
[[maybe_unused]] constexpr const char* kWorkload = "sum";
constexpr unsigned kCoResidentBlocks = 64;
#if defined(WARPDRILL_WORKLOAD_CLUSTER_SUM)
constexpr bool kInClusters = true;
#else
constexpr bool kInClusters = false;
#endif

bool run_lesson(const std::vector<float>& input, const DeviceBuffer<float>& d_in) {
    if (kInClusters) {
        cudaDeviceProp prop{};
        warpdrill::check_cuda(cudaGetDeviceProperties(&prop, 0));
        if (prop.major < 9) {
            std::fprintf(stderr, "lesson %d needs thread-block clusters (compute capability 9.0); %s has %d.%d\n",
                         WARPDRILL_LESSON, prop.name, prop.major, prop.minor);
            return false;
        }
    }
    const auto n = static_cast<std::int64_t>(input.size());
    const warpdrill::course::DeviceSumRun run =
        warpdrill::course::device_sum_kernel().run(d_in.data(), n, kCoResidentBlocks);
    // Each thread adds its packs of 4 floats in a row, then a tree, then one thread its share of the partials.
    const std::int64_t threads = std::int64_t{run.blocks} * run.block_threads;
    const std::int64_t in_a_row = 4 * ((n / 4 + threads - 1) / threads) + 1 +
                                  (run.partials_written + run.block_threads - 1) / run.block_threads;
    return close_enough(run.sum, input, static_cast<std::size_t>(in_a_row));
}
#elif defined(WARPDRILL_WORKLOAD_RING_ADD)
// Lesson 13: the learner's add_into as the ring runs it on each GPU in each
// reduce-scatter step, dst (the GPU's own floats) += src (those that arrived),
// here over two whole vectors on one GPU: the ring's copies between GPUs run
// no kernel, and ncu measures one GPU. One launch on the default stream.
// A float add is exact per element, so the result must match the host's bit for bit.
[[maybe_unused]] constexpr const char* kWorkload = "ring_add";

bool run_lesson(const std::vector<float>& input, const DeviceBuffer<float>& d_in) {
    // + 1: another vector than the input even where WARPDRILL_SEED fixes every seed.
    const std::vector<float> own = warpdrill::random_floats(input.size(), warpdrill::fresh_seed() + 1);
    DeviceBuffer<float> d_own{std::span<const float>(own)};
    warpdrill::course::add_into_on_device(d_own.data(), d_in.data(), static_cast<std::int64_t>(input.size()));
    warpdrill::check_launch();
    const std::vector<float> got = d_own.download();
    for (std::size_t i = 0; i < got.size(); ++i) {
        const float want = own[i] + input[i];
        if (std::bit_cast<std::uint32_t>(got[i]) != std::bit_cast<std::uint32_t>(want)) {
            std::fprintf(stderr,
                         "add_into over %zu floats left dst[%zu] = %.9g; "
                         "dst[%zu] + src[%zu] is %.9g + %.9g = %.9g\n",
                         got.size(), i, got[i], i, i, own[i], input[i], want);
            return false;
        }
    }
    return true;
}
#else
#error "no WARPDRILL_WORKLOAD_*: cmake/Lessons.cmake defines the lesson's, from lessons/lessons.toml"
#endif


}  // namespace

int main(int argc, char** argv) {
    const Options options = parse(argc, argv);
    const std::vector<float> input =
        warpdrill::random_floats(static_cast<std::size_t>(options.floats), warpdrill::fresh_seed());
    const DeviceBuffer<float> d_in{std::span<const float>(input)};
    try {
#if defined(WARPDRILL_BACKEND_CPU)
        warpdrill::cpu::set_multiprocessor_count(options.multiprocessors);
        warpdrill::cpu::set_register_limited_blocks(options.register_limited_blocks);
        warpdrill::cpu::ProfileScope scope;
        if (!run_lesson(input, d_in)) return 1;
        if (!options.record.empty() &&
            !warpdrill::profile_record::write(options.record, WARPDRILL_LESSON, options.floats, kWorkload,
                                              scope.launches()))
            return 1;
#else
        if (!run_lesson(input, d_in)) return 1;
#endif
    } catch (const std::exception& error) {
        std::fprintf(stderr, "%s\n", error.what());
        return 1;
    }
    return 0;
}
