// The kernel the CPU backend's speed is measured with: a 256-thread
// shared-memory tree reduction, lesson 3's, one partial sum per block.
#pragma once

#include "warpdrill/cuda.h"

template <unsigned kBlock>
__global__ void tree_reduce(const float* in, float* block_sums, int n) {
    __shared__ float partial[kBlock];
    const unsigned tid = threadIdx.x;
    const unsigned i = blockIdx.x * kBlock + tid;
    partial[tid] = i < static_cast<unsigned>(n) ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned stride = kBlock / 2; stride > 0; stride /= 2) {
        if (tid < stride) partial[tid] += partial[tid + stride];
        __syncthreads();
    }
    if (tid == 0) block_sums[blockIdx.x] = partial[0];
}
