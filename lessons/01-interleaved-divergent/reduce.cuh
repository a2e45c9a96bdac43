// Lesson 1: a block sums its elements in shared memory as a tree. In step s
// (stride 1, 2, 4, ...) every thread whose index is a multiple of 2*stride
// adds its neighbour `stride` away. Read README.md first.
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

    // TODO(1): for stride = 1, 2, 4, ... below blockDim.x, let every thread
    // whose tid is a multiple of 2 * stride add partial[tid + stride] to
    // partial[tid]. All threads must finish a step before any starts the next.

    // TODO(2): thread 0 writes the block's sum to block_sums[blockIdx.x].
}
