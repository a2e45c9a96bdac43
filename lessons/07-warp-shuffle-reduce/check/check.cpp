// Lesson 7's checks. Run them with `warpdrill check 7`.
#include "warpdrill/catch.h"
#include "warpdrill/course/lesson.h"
#include "warpdrill/course/references.h"

using namespace warpdrill::course;

namespace {

// One __syncthreads() between the warps' sums and the first warp, and the
// rest done by shuffles: no shared-memory tree.
std::string shuffle_idea(const warpdrill::LaunchStats& stats, int) {
    std::string problem = expect_block_barriers(stats, 1);
    if (problem.empty() && stats.shuffles == 0) problem = "no warp shuffles were counted";
    if (!problem.empty()) problem += ": the warps reduce with shuffles and meet once in shared memory";
    return problem;
}

}  // namespace

TEST_CASE("lesson 7: reduce_warp_shuffle (__shfl_down_sync) sums every block", "[lesson07][reduce]") {
    BlockSumKernel kernel = block_sum_kernel();
    kernel.hint =
        "warp_reduce_sum adds __shfl_down_sync(mask, value, offset) for offsets 16..1, leaving the sum in "
        "lane 0; block_reduce_sum stores lane 0's sum per warp, syncs once, and warp 0 reduces those";
    kernel.idea = shuffle_idea;
    check_block_sum_lesson(kernel);
}

TEST_CASE("lesson 7: reduce_warp_shuffle_xor (__shfl_xor_sync) leaves the sum in every lane",
          "[lesson07][reduce]") {
    BlockSumKernel kernel = block_sum_kernel_xor();
    kernel.hint =
        "thread 31 writes the result, so every lane of warp 0 needs the sum: warp_all_reduce_sum adds "
        "__shfl_xor_sync(mask, value, lane_mask) for lane masks 16..1";
    kernel.idea = shuffle_idea;
    check_block_sum_lesson(kernel);
}
