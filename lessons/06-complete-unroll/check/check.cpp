// Lesson 6's checks. Run them with `warpdrill check 6`.
#include "warpdrill/catch.h"
#include "warpdrill/course/lesson.h"
#include "warpdrill/course/references.h"

using namespace warpdrill::course;

TEST_CASE("lesson 6: reduce_complete_unroll sums every block", "[lesson06][reduce]") {
    BlockSumKernel kernel = block_sum_kernel();
    kernel.idea = [](const warpdrill::LaunchStats& stats, int block_size) {
        return expect_fewer_barriers(stats, block_size);
    };
    check_block_sum_lesson(kernel);
}

TEST_CASE("lesson 6: shuffle_swap_arrays", "[lesson06][shuffle]") {
    check_shuffle_exercise({"shuffle_swap_arrays",
                            "lane_mask",
                            kSwapValues,
                            {1, 2, 3, 5, 16, 31},
                            launch_shuffle,
                            swap_arrays_reference});
}
