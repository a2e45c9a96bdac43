// How fast the CPU backend runs CUDA threads: a 2^20-element shared-memory
// tree reduction, 256 threads a block (4096 blocks, 9 barriers each), timed
// as the median of several launches. WARPDRILL_CPU_WORKERS=1 measures one core.
// Prints threads per second; with --max-seconds S exits 1 when the median
// launch takes longer than S (the test suite uses that). --breakdown also
// times kernels that do nothing but start and end, nine __syncthreads() or
// nine __shfl_xor_sync(), and prints what a thread's start and end and each
// sync point cost a thread: where a change to the scheduler gains or loses.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>

#include "tree_reduce.cuh"
#include "warpdrill/data.h"
#include "warpdrill/host.h"
#include "warpdrill/reference.h"

namespace {

constexpr int kN = 1 << 20;
constexpr unsigned kBlock = 256;
constexpr unsigned kBlocks = kN / kBlock;
constexpr int kSyncPoints = 9;  // in each of the kernels below, as in the tree

__global__ void start_and_end(float*) {}

__global__ void barriers_only(float*) {
    for (int i = 0; i < kSyncPoints; ++i) __syncthreads();
}

__global__ void shuffles_only(float* out) {
    float value = 1.0f;
    for (int i = 0; i < kSyncPoints; ++i) value += __shfl_xor_sync(0xffffffffu, value, 1);
    if (value == 0.0f) *out = value;  // never: keeps the shuffles
}

// The median of five runs of `launch`, in seconds.
double median_seconds(const std::function<void()>& launch) {
    std::vector<double> seconds;
    for (int run = 0; run < 5; ++run) {
        const auto start = std::chrono::steady_clock::now();
        launch();
        warpdrill::check_launch();
        seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    std::ranges::sort(seconds);
    return seconds[seconds.size() / 2];
}

void print_breakdown(float* scratch) {
    const auto time_kernel = [scratch](void (*kernel)(float*)) {
        return median_seconds([=] { warpdrill::launch(kernel, {kBlocks, kBlock}, scratch); });
    };
    const double start_end = time_kernel(start_and_end);
    const double barriers = time_kernel(barriers_only);
    const double shuffles = time_kernel(shuffles_only);
    const auto per_sync_point_ns = [&](double seconds) {
        return (seconds - start_end) / kN / kSyncPoints * 1e9;
    };
    std::printf(
        "per CUDA thread: start and end %.1f ns, each __syncthreads() %.1f ns, each __shfl_xor_sync() %.1f "
        "ns\n",
        start_end / kN * 1e9, per_sync_point_ns(barriers), per_sync_point_ns(shuffles));
}

}  // namespace

int main(int argc, char** argv) {
    double max_seconds = 0.0;
    bool breakdown = false;
    for (int a = 1; a < argc; ++a) {
        if (std::strcmp(argv[a], "--max-seconds") == 0 && a + 1 < argc) max_seconds = std::atof(argv[a + 1]);
        if (std::strcmp(argv[a], "--breakdown") == 0) breakdown = true;
    }

    const std::vector<float> input = warpdrill::random_floats(kN, warpdrill::fresh_seed());
    warpdrill::DeviceBuffer<float> d_in{std::span<const float>(input)};
    warpdrill::DeviceBuffer<float> d_sums(kBlocks);
    const double median = median_seconds([&] {
        d_sums.poison();
        warpdrill::launch(tree_reduce<kBlock>, {kBlocks, kBlock}, d_in.data(), d_sums.data(), kN);
    });

    const std::vector<float> sums = d_sums.download();
    double total = 0.0;
    for (float s : sums) total += s;
    const double want = warpdrill::reference_sum(input);
    if (std::abs(total - want) > warpdrill::sum_tolerance(kN, warpdrill::reference_sum_abs(input))) {
        std::printf("wrong sum: %.9g, reference %.9g\n", total, want);
        return 1;
    }
    const char* workers = std::getenv("WARPDRILL_CPU_WORKERS");
    std::printf(
        "tree reduction of 2^20 floats, 256 threads a block, %s worker thread(s): median %.3f s, "
        "%.3g CUDA threads a second\n",
        workers ? workers : "all", median, kN / median);
    if (breakdown) print_breakdown(d_sums.data());
    if (max_seconds > 0 && median > max_seconds) {
        std::printf("slower than the %.2f s allowed\n", max_seconds);
        return 1;
    }
    return 0;
}
