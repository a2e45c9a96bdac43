// Lesson @N@'s checks. Run them with `warpdrill check @N@`.
#include "warpdrill/catch.h"
#include "warpdrill/course/lesson.h"
#include "warpdrill/course/references.h"

using namespace warpdrill::course;

TEST_CASE("lesson @N@: @SYMBOL@ sums every block", "[lesson@NN@][reduce]") {
    BlockSumKernel kernel = block_sum_kernel();
    kernel.idea = [](const warpdrill::LaunchStats& stats, int block_size) {
        return expect_tree_barriers(stats, block_size);
    };
    check_block_sum_lesson(kernel);
}
