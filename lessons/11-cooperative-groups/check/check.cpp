// Lesson 11's checks. Run them with `warpdrill check 11`.
#include <algorithm>
#include <numeric>
#include <tuple>
#include <vector>

#include "warpdrill/catch.h"
#include "warpdrill/course/device_sum.h"
#include "warpdrill/course/lesson.h"
#include "warpdrill/course/references.h"
#include "warpdrill/data.h"
#include "warpdrill/host.h"
#include "warpdrill/messages.h"

using namespace warpdrill;
using namespace warpdrill::course;

namespace {

// Every block waits once at the grid's barrier, and no atomic is needed.
std::string grid_barrier_idea(const DeviceSumRun& run) {
    const LaunchStats& stats = run.stats;
    if (stats.grid_syncs != stats.blocks)
        return messages::text("lesson11.grid_syncs", {{"blocks", stats.blocks}, {"syncs", stats.grid_syncs}});
    if (stats.atomics != 0) return messages::text("lesson11.atomics", {{"atomics", stats.atomics}});
    if (stats.shuffles == 0) return messages::text("lesson11.no_shuffles");
    return "";
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
    if (skip_before_compute_capability(8, 0, messages::text("lesson11.needs_reduce_sync"))) return;
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
            FAIL(messages::text(got[t] == -1 ? "lesson11.poisoned" : "lesson11.wrong_value",
                                {{"mismatch", describe(*mismatch, name)},
                                 {"thread", t},
                                 {"warp", t / 32},
                                 {"seed", describe_seed(seed)}}));
        }
    }
    if (const auto stats = last_launch_stats(); stats && stats->warp_reductions == 0) {
        FAIL(messages::text("lesson11.no_reduce_sync"));
    }
    SUCCEED();
}
