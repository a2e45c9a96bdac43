// Lesson 1's checks. Run them with `warpdrill check 1`.
#include "warpdrill/catch.h"
#include "warpdrill/course/lesson.h"
#include "warpdrill/course/references.h"

using namespace warpdrill::course;

TEST_CASE("lesson 1: reduce_interleaved_divergent sums every block", "[lesson01][reduce]") {
    BlockSumKernel kernel = block_sum_kernel();
    kernel.idea = [](const warpdrill::LaunchStats& stats, int block_size) {
        return expect_tree_barriers(stats, block_size);
    };
    check_block_sum_lesson(kernel);
}

TEST_CASE("lesson 1: shuffle_broadcast sends one lane's value to its group", "[lesson01][shuffle]") {
    check_shuffle_exercise(
        {"shuffle_broadcast", "src_lane", 1, {0, 1, 3, 5, 31, 33, -1}, launch_shuffle, broadcast_reference});
}
