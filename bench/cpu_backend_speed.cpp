// How fast the CPU backend runs CUDA threads: a 2^20-element shared-memory
// tree reduction, 256 threads a block (4096 blocks, 9 barriers each), timed
// as the median of several launches. WARPDRILL_CPU_WORKERS=1 measures one core.
// Prints threads per second; with --max-seconds S exits 1 when the median
// launch takes longer than S (the test suite uses that).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "tree_reduce.cuh"
#include "warpdrill/data.h"
#include "warpdrill/host.h"
#include "warpdrill/reference.h"

int main(int argc, char** argv) {
    constexpr int kN = 1 << 20;
    constexpr unsigned kBlock = 256;
    constexpr unsigned kBlocks = kN / kBlock;
    double max_seconds = 0.0;
    for (int a = 1; a + 1 < argc; ++a) {
        if (std::strcmp(argv[a], "--max-seconds") == 0) max_seconds = std::atof(argv[a + 1]);
    }

    const std::vector<float> input = warpdrill::random_floats(kN, warpdrill::fresh_seed());
    warpdrill::DeviceBuffer<float> d_in{std::span<const float>(input)};
    warpdrill::DeviceBuffer<float> d_sums(kBlocks);
    std::vector<double> seconds;
    for (int run = 0; run < 5; ++run) {
        d_sums.poison();
        const auto start = std::chrono::steady_clock::now();
        warpdrill::launch(tree_reduce<kBlock>, {kBlocks, kBlock}, d_in.data(), d_sums.data(), kN);
        warpdrill::check_launch();
        seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    std::ranges::sort(seconds);
    const double median = seconds[seconds.size() / 2];

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
    if (max_seconds > 0 && median > max_seconds) {
        std::printf("slower than the %.2f s allowed\n", max_seconds);
        return 1;
    }
    return 0;
}
