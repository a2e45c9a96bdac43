// The given launch code of the reduction and shuffle lessons, shared: each
// lesson's check/launch.cu names its kernel and calls these.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "warpdrill/course/lesson.h"
#include "warpdrill/cuda.h"

namespace warpdrill::course {

// A kernel(in, block_sums, n) that keeps one float per thread in dynamic
// shared memory, launched with one block per block_size * elements_per_thread
// elements. With n == 0 there is nothing to launch.
template <class Kernel>
BlockSumKernel dynamic_shared_block_sums(Kernel kernel, std::string name, int elements_per_thread,
                                         std::vector<int> block_sizes) {
    BlockSumKernel described{std::move(name), elements_per_thread, std::move(block_sizes), {}, {}};
    described.launch = [kernel, elements_per_thread](const float* in, float* block_sums, int n,
                                                     int block_size) {
        const int span = block_size * elements_per_thread;
        const unsigned blocks = static_cast<unsigned>((n + span - 1) / span);
        if (blocks == 0) return;
        launch(kernel, {blocks, static_cast<unsigned>(block_size), block_size * sizeof(float)}, in,
               block_sums, n);
    };
    return described;
}

// A shuffle exercise kernel(in, out, param, width), one block of `threads`.
template <class Kernel>
void launch_shuffle_kernel(Kernel kernel, const int* in, int* out, int threads, int param, int width) {
    launch(kernel, {1, static_cast<unsigned>(threads)}, in, out, param, width);
}

}  // namespace warpdrill::course
