// Lesson 4's checks. Run them with `warpdrill check 4`.
#include "warpdrill/catch.h"
#include "warpdrill/course/lesson.h"
#include "warpdrill/course/references.h"

using namespace warpdrill::course;

TEST_CASE("lesson 4: reduce_first_add sums every block", "[lesson04][reduce]") {
    BlockSumKernel kernel = block_sum_kernel();
    kernel.idea = [](const warpdrill::LaunchStats& stats, int block_size) {
        return expect_tree_barriers(stats, block_size);
    };
    check_block_sum_lesson(kernel);
}

TEST_CASE("lesson 4: shuffle_rotate", "[lesson04][shuffle]") {
    check_shuffle_exercise(
        {"shuffle_rotate", "shift", 1, {0, 1, 3, 5, 17, 31}, launch_shuffle, rotate_reference});
}
