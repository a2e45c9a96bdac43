// Lesson 5: once 32 threads or fewer still work, they are one warp, and a
// __syncwarp() among them replaces the block-wide __syncthreads(). The old
// "volatile, no sync, warps run in lock-step" version is a race since Volta.
#pragma once

#include "warpdrill/cuda.h"
#include "warpdrill/reduce.cuh"

// Block b writes the sum of its 2 * blockDim.x elements of in[0, n) to
// block_sums[b]. blockDim.x is a power of two, at least 64; the dynamic
// shared memory holds blockDim.x floats.
__global__ void reduce_unroll_last_warp(const float* in, float* block_sums, int n) {
    WARPDRILL_DYNAMIC_SHARED(float, partial);
    const unsigned tid = threadIdx.x;
    partial[tid] = warpdrill::load_sum_of_two(in, n);  // lesson 4
    __syncthreads();

    for (unsigned stride = blockDim.x / 2; stride > 32; stride /= 2) {
        if (tid < stride) partial[tid] += partial[tid + stride];
        __syncthreads();
    }

    // TODO: the first warp (tid < 32) finishes the last 64 partial sums with
    // offsets 32, 16, 8, 4, 2, 1: add partial[tid + offset] to a running sum,
    // store it to partial[tid], with __syncwarp() between every read and the
    // write after it and between every write and the read after it. No
    // __syncthreads() here. Thread 0 writes the block's sum to block_sums.
}
