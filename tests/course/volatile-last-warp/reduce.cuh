// The classic pre-Volta last-warp unroll, submitted as lesson 5's answer:
// `volatile` and no __syncwarp(). Lesson 5's checks must reject it.
#pragma once

#include "warpdrill/cuda.h"
#include "warpdrill/reduce.cuh"

__global__ void reduce_unroll_last_warp(const float* in, float* block_sums, int n) {
    WARPDRILL_DYNAMIC_SHARED(float, partial);
    const unsigned tid = threadIdx.x;
    partial[tid] = warpdrill::load_sum_of_two(in, n);  // lesson 4
    __syncthreads();

    for (unsigned stride = blockDim.x / 2; stride > 32; stride /= 2) {
        if (tid < stride) partial[tid] += partial[tid + stride];
        __syncthreads();
    }
    if (tid < 32) {
        volatile float* v = partial;
        v[tid] = v[tid] + v[tid + 32];
        v[tid] = v[tid] + v[tid + 16];
        v[tid] = v[tid] + v[tid + 8];
        v[tid] = v[tid] + v[tid + 4];
        v[tid] = v[tid] + v[tid + 2];
        v[tid] = v[tid] + v[tid + 1];
    }
    if (tid == 0) block_sums[blockIdx.x] = partial[0];
}
