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
    // TODO(1): this block covers in[blockIdx.x * 2 * blockDim.x, ...) : twice
    // the elements of lesson 3. Load the element at i and the one at
    // i + blockDim.x (each only if it is below n), add them, and store the
    // sum in partial[tid].
    partial[tid] = 0.0f;
    __syncthreads();

    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (tid < stride) partial[tid] += partial[tid + stride];
        __syncthreads();
    }

    if (tid == 0) block_sums[blockIdx.x] = partial[0];
}
