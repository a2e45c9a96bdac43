// Lesson 11: cooperative groups. The same sum as lesson 10, one launch, but
// the grid finishes with a barrier instead of a ticket: in a cooperative
// launch every block of the grid is resident at once, so all of them can
// wait for each other at cg::this_grid().sync(), and block 0 then adds the
// block sums. Inside the block, a warp is a tile of 32 threads, and
// cg::reduce does lesson 7's shuffles.
#pragma once

#include <cstdint>

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include "warpdrill/cuda.h"
#include "warpdrill/groups.cuh"

namespace cg = cooperative_groups;

// begin:block_sum
// Thread 0 gets the sum of the block's values. Each warp, a tile of 32
// threads, adds its values with cg::reduce; lane 0 of each keeps the warp's
// sum in shared memory, and warp 0 adds those. blockDim.x is a multiple of 32.
__device__ float block_sum(const cg::thread_block& block, float value) {
    __shared__ float warp_sums[32];
    const cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    value = cg::reduce(warp, value, cg::plus<float>());
    if (warp.thread_rank() == 0) warp_sums[warp.meta_group_rank()] = value;
    block.sync();
    if (warp.meta_group_rank() == 0) {
        const float warp_sum =
            warp.thread_rank() < warp.meta_group_size() ? warp_sums[warp.thread_rank()] : 0.0f;
        value = cg::reduce(warp, warp_sum, cg::plus<float>());
    }
    block.sync();  // warp_sums is free for the next call
    return value;
}
// end:block_sum

// Sums in[0, n) into *out in one launch. Each block adds its share (lesson
// 8's grid-stride loop) and writes its sum to block_sums[blockIdx.x]; when
// the whole grid has done so, block 0 adds the block sums, always in the
// same order. Launched cooperatively, with no more blocks than the GPU holds
// at once; `in` is 16-byte aligned.
__global__ void reduce_cooperative(const float* in, float* block_sums, float* out, std::int64_t n) {
    const cg::grid_group grid = cg::this_grid();
    const cg::thread_block block = cg::this_thread_block();
    const float sum =
        block_sum(block, warpdrill::grid_stride_sum(in, n, grid.thread_rank(), grid.num_threads()));
    if (block.thread_rank() == 0) block_sums[blockIdx.x] = sum;

    // begin:grid_finish
    // Every block's sum is written, and visible to every block, once the
    // whole grid has passed this barrier.
    grid.sync();
    if (blockIdx.x != 0) return;
    float total = 0.0f;
    for (unsigned b = block.thread_rank(); b < gridDim.x; b += block.num_threads()) total += block_sums[b];
    total = block_sum(block, total);
    if (block.thread_rank() == 0) *out = total;
    // end:grid_finish
}
