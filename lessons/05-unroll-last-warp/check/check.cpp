// Lesson 5's checks. Run them with `warpdrill check 5`.
#include "warpdrill/catch.h"
#include "warpdrill/course/lesson.h"
#include "warpdrill/course/references.h"

using namespace warpdrill::course;

TEST_CASE("lesson 5: reduce_unroll_last_warp sums every block", "[lesson05][reduce]") {
    BlockSumKernel kernel = block_sum_kernel();
    kernel.hint =
        "the first warp adds offsets 32, 16, ..., 1 with __syncwarp() after each read and after each write; "
        "thread 0 writes the result";
    kernel.idea = [](const warpdrill::LaunchStats& stats, int block_size) {
        return expect_fewer_barriers(stats, block_size);
    };
    check_block_sum_lesson(kernel);
}

TEST_CASE("lesson 5: shuffle_group_sum", "[lesson05][shuffle]") {
    check_shuffle_exercise({"shuffle_group_sum",
                            1,
                            {0},
                            launch_shuffle,
                            group_sum_reference,
                            "for (int lane_mask = width / 2; lane_mask > 0; lane_mask /= 2) sum += "
                            "__shfl_xor_sync(0xffffffff, sum, lane_mask, width);"});
}
