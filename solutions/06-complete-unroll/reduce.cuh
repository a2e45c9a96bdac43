// Lesson 6: the block size is a template parameter, so every loop bound is a
// compile-time constant: the tree unrolls completely, the steps a block size
// does not need vanish, and the shared array is sized statically.
#pragma once

#include "warpdrill/cuda.h"
#include "warpdrill/reduce.cuh"

// Block b writes the sum of in[b * 2 * kBlockSize, (b + 1) * 2 * kBlockSize)
// to block_sums[b]. Launch with kBlockSize threads, a power of two >= 64.
template <unsigned kBlockSize>
__global__ void reduce_complete_unroll(const float* in, float* block_sums, int n) {
    static_assert(kBlockSize >= 64 && (kBlockSize & (kBlockSize - 1)) == 0, "a power of two, at least 64");
    __shared__ float partial[kBlockSize];
    const unsigned tid = threadIdx.x;
    partial[tid] = warpdrill::load_sum_of_two(in, n);  // lesson 4
    __syncthreads();

    // begin:unrolled_tree
#pragma unroll
    for (unsigned stride = kBlockSize / 2; stride > 32; stride /= 2) {
        if (tid < stride) partial[tid] += partial[tid + stride];
        __syncthreads();
    }
    if (tid < 32) {
        const float sum = warpdrill::last_warp_sum(partial, tid);
        if (tid == 0) block_sums[blockIdx.x] = sum;
    }
    // end:unrolled_tree
}
