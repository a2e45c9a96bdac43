// Lesson 11's checks. Run them with `warpdrill check 11`.
#include <algorithm>
#include <numeric>
#include <sstream>
#include <tuple>
#include <vector>

#include "warpdrill/catch.h"
#include "warpdrill/course/device_sum.h"
#include "warpdrill/course/lesson.h"
#include "warpdrill/course/references.h"
#include "warpdrill/data.h"
#include "warpdrill/host.h"

using namespace warpdrill;
using namespace warpdrill::course;

namespace {

// Every block waits once at the grid's barrier, and no atomic is needed.
std::string grid_barrier_idea(const DeviceSumRun& run) {
    const LaunchStats& stats = run.stats;
    std::ostringstream text;
    if (stats.grid_syncs != stats.blocks) {
        text << "the " << stats.blocks << " blocks passed " << stats.grid_syncs
             << " grid barriers in all, one each expected: block 0 must not read block_sums before "
                "every block has written its own";
    } else if (stats.atomics != 0) {
        text << "the backend counted " << stats.atomics
             << " atomic operations: the grid's barrier orders the blocks, no ticket is needed";
    } else if (stats.shuffles == 0) {
        text << "no warp shuffle was counted: block_sum did not reduce the warps";
    }
    return text.str();
}

}  // namespace

TEST_CASE("lesson 11: reduce_cooperative sums the array in one cooperative launch", "[lesson11][reduce]") {
    DeviceSum kernel = device_sum_kernel();
    kernel.idea = grid_barrier_idea;
    check_device_sum_lesson(kernel);
}

TEST_CASE("lesson 11: tile_sums, the tile's size as a type", "[lesson11][shuffle]") {
    check_shuffle_exercise({"tile_sums<width>", "", 1, {0}, launch_shuffle, group_sum_reference});
}

TEST_CASE("lesson 11: warp_sum_and_max with __reduce_add_sync and __reduce_max_sync", "[lesson11][shuffle]") {
    if (skip_before_compute_capability(8, 0, "the exercise warp_sum_and_max needs __reduce_add_sync")) return;
    constexpr int kThreads = 128;
    const std::uint64_t seed = fresh_seed();
    const std::vector<int> in = random_ints(kThreads, seed, -1000000, 1000000);
    DeviceBuffer<int> d_in{std::span<const int>(in)};
    DeviceBuffer<int> sums(kThreads), maxima(kThreads);
    sums.poison();
    maxima.poison();
    launch_warp_sum_and_max(d_in.data(), sums.data(), maxima.data(), kThreads);
    check_launch();
    std::vector<int> want_sums(kThreads), want_maxima(kThreads);
    for (int t = 0; t < kThreads; ++t) {
        const auto warp = in.begin() + t / 32 * 32;
        want_sums[t] = std::accumulate(warp, warp + 32, 0);
        want_maxima[t] = *std::max_element(warp, warp + 32);
    }
    for (const auto& [name, got, want] : {std::tuple{"sums", sums.download(), want_sums},
                                          std::tuple{"maxima", maxima.download(), want_maxima}}) {
        if (const auto mismatch = first_mismatch(got, want)) {
            const std::size_t t = mismatch->index;
            const char* what = got[t] == -1 ? "the poison written before the launch" : "a wrong value";
            FAIL("warp_sum_and_max: " << describe(*mismatch, name) << ": thread " << t << " (warp " << t / 32
                                      << ") holds " << what << "; input seed " << seed
                                      << " (WARPDRILL_SEED=" << seed << " replays it)");
        }
    }
    if (const auto stats = last_launch_stats(); stats && stats->warp_reductions == 0) {
        FAIL(
            "warp_sum_and_max: the right values, but the backend counted no __reduce_*_sync: the "
            "exercise is the integer reductions, one instruction each on a GPU");
    }
    SUCCEED();
}
