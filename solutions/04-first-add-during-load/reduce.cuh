// Lesson 4: each thread loads two elements, blockDim.x apart, and adds them
// before the tree starts: a block covers 2 * blockDim.x elements, so the grid
// has half the blocks of lesson 3 and no thread idles after the load.
#pragma once

#include "warpdrill/cuda.h"

// Block b writes the sum of its 2 * blockDim.x elements of in[0, n) to
// block_sums[b]. blockDim.x is a power of two; the dynamic shared memory
// holds blockDim.x floats.
__global__ void reduce_first_add(const float* in, float* block_sums, int n) {
    WARPDRILL_DYNAMIC_SHARED(float, partial);
    const unsigned tid = threadIdx.x;
    // begin:load
    const unsigned i = blockIdx.x * (2 * blockDim.x) + tid;
    const unsigned count = static_cast<unsigned>(n);
    float sum = i < count ? in[i] : 0.0f;
    if (i + blockDim.x < count) sum += in[i + blockDim.x];
    partial[tid] = sum;
    // end:load
    __syncthreads();

    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (tid < stride) partial[tid] += partial[tid + stride];
        __syncthreads();
    }

    if (tid == 0) block_sums[blockIdx.x] = partial[0];
}
