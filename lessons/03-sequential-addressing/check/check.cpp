// Lesson 3's checks. Run them with `warpdrill check 3`.
#include "warpdrill/catch.h"
#include "warpdrill/course/lesson.h"
#include "warpdrill/course/references.h"

using namespace warpdrill::course;

TEST_CASE("lesson 3: reduce_sequential sums every block", "[lesson03][reduce]") {
    BlockSumKernel kernel = block_sum_kernel();
    kernel.idea = [](const warpdrill::LaunchStats& stats, int block_size) {
        return expect_tree_barriers(stats, block_size);
    };
    check_block_sum_lesson(kernel);
}

TEST_CASE("lesson 3: shuffle_shift_down", "[lesson03][shuffle]") {
    check_shuffle_exercise(
        {"shuffle_shift_down", "delta", 1, {0, 1, 2, 3, 7, 16}, launch_shuffle, shift_down_reference});
}
