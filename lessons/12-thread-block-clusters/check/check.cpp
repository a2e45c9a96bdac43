// Lesson 12's checks. Run them with `warpdrill check 12`. A GPU older than
// Hopper (compute capability 9.0) has no clusters: there the lesson is
// skipped, not failed.
#include "warpdrill/catch.h"
#include "warpdrill/course/device_sum.h"
#include "warpdrill/messages.h"

using namespace warpdrill;
using namespace warpdrill::course;

namespace {

// Every block meets its cluster twice (before block rank 0 reads the others'
// sums, and after) and the grid once.
std::string cluster_idea(const DeviceSumRun& run) {
    const LaunchStats& stats = run.stats;
    if (stats.cluster_syncs != 2 * stats.blocks) {
        return messages::text("lesson12.cluster_syncs",
                              {{"blocks", stats.blocks}, {"syncs", stats.cluster_syncs}});
    }
    if (stats.grid_syncs != stats.blocks)
        return messages::text("lesson12.grid_syncs", {{"blocks", stats.blocks}, {"syncs", stats.grid_syncs}});
    return "";
}

}  // namespace

TEST_CASE("lesson 12: reduce_cluster adds each cluster's block sums in distributed shared memory",
          "[lesson12][reduce]") {
    if (skip_before_compute_capability(9, 0, messages::text("lesson12.needs_clusters"))) return;
    DeviceSum kernel = device_sum_kernel();
    kernel.idea = cluster_idea;
    check_device_sum_lesson(kernel);
}
