// Lesson 7's checks. Run them with `warpdrill check 7`.
#include "warpdrill/catch.h"
#include "warpdrill/course/lesson.h"
#include "warpdrill/course/references.h"
#include "warpdrill/messages.h"

using namespace warpdrill::course;
namespace messages = warpdrill::messages;

namespace {

// One __syncthreads() between the warps' sums and the first warp, and the
// rest done by shuffles: no shared-memory tree.
std::string shuffle_idea(const warpdrill::LaunchStats& stats, int) {
    std::string problem = expect_block_barriers(stats, 1);
    if (problem.empty() && stats.shuffles == 0) problem = messages::text("lesson07.no_shuffles");
    return problem.empty() ? "" : messages::text("lesson07.shuffle_idea", {{"problem", problem}});
}

}  // namespace

TEST_CASE("lesson 7: reduce_warp_shuffle (__shfl_down_sync) sums every block", "[lesson07][reduce]") {
    BlockSumKernel kernel = block_sum_kernel();
    kernel.idea = shuffle_idea;
    check_block_sum_lesson(kernel);
}

TEST_CASE("lesson 7: reduce_warp_shuffle_xor (__shfl_xor_sync) leaves the sum in every lane",
          "[lesson07][reduce]") {
    BlockSumKernel kernel = block_sum_kernel_xor();
    kernel.idea = shuffle_idea;
    check_block_sum_lesson(kernel);
}
