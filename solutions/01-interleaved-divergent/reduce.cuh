// Lesson 1: a block sums its elements in shared memory as a tree. In step s
// (stride 1, 2, 4, ...) every thread whose index is a multiple of 2*stride
// adds its neighbour `stride` away. Correct, but the `tid % (2 * stride)` test
// leaves most lanes of every warp idle and divergent from step 1 on.
#pragma once

#include "warpdrill/cuda.h"

// Block b writes the sum of in[b * blockDim.x, (b + 1) * blockDim.x) to
// block_sums[b]. blockDim.x is a power of two; the dynamic shared memory
// holds blockDim.x floats.
__global__ void reduce_interleaved_divergent(const float* in, float* block_sums, int n) {
    WARPDRILL_DYNAMIC_SHARED(float, partial);
    const unsigned tid = threadIdx.x;
    const unsigned i = blockIdx.x * blockDim.x + tid;

    partial[tid] = i < static_cast<unsigned>(n) ? in[i] : 0.0f;
    __syncthreads();

    // begin:tree
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        if (tid % (2 * stride) == 0) partial[tid] += partial[tid + stride];
        __syncthreads();  // this step's sums are the next step's inputs
    }
    // end:tree

    if (tid == 0) block_sums[blockIdx.x] = partial[0];
}
