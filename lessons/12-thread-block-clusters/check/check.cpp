// Lesson 12's checks. Run them with `warpdrill check 12`. A GPU older than
// Hopper (compute capability 9.0) has no clusters: there the lesson is
// skipped, not failed.
#include <sstream>

#include "warpdrill/catch.h"
#include "warpdrill/course/device_sum.h"

using namespace warpdrill;
using namespace warpdrill::course;

namespace {

// Every block meets its cluster twice (before block rank 0 reads the others'
// sums, and after) and the grid once.
std::string cluster_idea(const DeviceSumRun& run) {
    const LaunchStats& stats = run.stats;
    std::ostringstream text;
    if (stats.cluster_syncs != 2 * stats.blocks) {
        text << "the " << stats.blocks << " blocks passed " << stats.cluster_syncs
             << " cluster barriers in all, two each expected: one before block rank 0 reads the others' "
                "block_total, one after it";
    } else if (stats.grid_syncs != stats.blocks) {
        text << "the " << stats.blocks << " blocks passed " << stats.grid_syncs
             << " grid barriers in all, one each expected";
    }
    return text.str();
}

}  // namespace

TEST_CASE("lesson 12: reduce_cluster adds each cluster's block sums in distributed shared memory",
          "[lesson12][reduce]") {
    if (skip_before_compute_capability(9, 0, "lesson 12 needs thread-block clusters")) return;
    DeviceSum kernel = device_sum_kernel();
    kernel.idea = cluster_idea;
    check_device_sum_lesson(kernel);
}
