// Lesson 2's checks. Run them with `warpdrill check 2`.
#include "warpdrill/catch.h"
#include "warpdrill/course/lesson.h"
#include "warpdrill/course/references.h"

using namespace warpdrill::course;

TEST_CASE("lesson 2: reduce_interleaved_strided sums every block", "[lesson02][reduce]") {
    BlockSumKernel kernel = block_sum_kernel();
    kernel.hint =
        "index = 2 * stride * tid; only threads with index < blockDim.x add; __syncthreads() after every "
        "step, outside the if";
    kernel.idea = [](const warpdrill::LaunchStats& stats, int block_size) {
        return expect_tree_barriers(stats, block_size);
    };
    check_block_sum_lesson(kernel);
}

TEST_CASE("lesson 2: shuffle_shift_up", "[lesson02][shuffle]") {
    check_shuffle_exercise({"shuffle_shift_up",
                            1,
                            {0, 1, 2, 3, 7, 16},
                            launch_shuffle,
                            shift_up_reference,
                            "__shfl_up_sync(0xffffffff, value, delta, width); lanes below delta in their "
                            "group keep their own value"});
}
