// Lesson @N@: @TITLE@. Each block sums its elements in shared memory with a
// tree: the stride starts at half the block and halves each step.
#pragma once

#include "warpdrill/cuda.h"

// Block b writes the sum of its blockDim.x elements of in[0, n) to
// block_sums[b]. blockDim.x is a power of two; the dynamic shared memory
// holds blockDim.x floats.
__global__ void @SYMBOL@(const float* in, float* block_sums, int n) {
    WARPDRILL_DYNAMIC_SHARED(float, partial);
    const unsigned tid = threadIdx.x;
    const unsigned i = blockIdx.x * blockDim.x + tid;
    partial[tid] = i < static_cast<unsigned>(n) ? in[i] : 0.0f;
    __syncthreads();

    // TODO(1): for stride = blockDim.x / 2, then half of that, down to 1:
    // the threads below stride add partial[tid + stride] to partial[tid].
    // A barrier after every step.

    // TODO(2): thread 0 writes the block's sum to block_sums[blockIdx.x].
}
