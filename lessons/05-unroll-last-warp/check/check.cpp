// Lesson 5's checks. Run them with `warpdrill check 5`.
#include "warpdrill/catch.h"
#include "warpdrill/course/lesson.h"
#include "warpdrill/course/references.h"

using namespace warpdrill::course;

TEST_CASE("lesson 5: reduce_unroll_last_warp sums every block", "[lesson05][reduce]") {
    BlockSumKernel kernel = block_sum_kernel();
    kernel.idea = [](const warpdrill::LaunchStats& stats, int block_size) {
        return expect_fewer_barriers(stats, block_size);
    };
    check_block_sum_lesson(kernel);
}

TEST_CASE("lesson 5: shuffle_group_sum", "[lesson05][shuffle]") {
    check_shuffle_exercise({"shuffle_group_sum", "", 1, {0}, launch_shuffle, group_sum_reference});
}
