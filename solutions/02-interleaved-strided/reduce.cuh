// Lesson 2: the same tree as lesson 1, but thread tid works on index
// 2 * stride * tid, so the working threads are contiguous and whole warps
// rest together: no divergence inside a warp until the last steps. The
// stride between the indices a warp touches causes shared-memory bank conflicts.
#pragma once

#include "warpdrill/cuda.h"

// Block b writes the sum of its blockDim.x elements of in[0, n) to
// block_sums[b]. blockDim.x is a power of two; the dynamic shared memory
// holds blockDim.x floats.
__global__ void reduce_interleaved_strided(const float* in, float* block_sums, int n) {
    WARPDRILL_DYNAMIC_SHARED(float, partial);
    const unsigned tid = threadIdx.x;
    const unsigned i = blockIdx.x * blockDim.x + tid;
    partial[tid] = i < static_cast<unsigned>(n) ? in[i] : 0.0f;
    __syncthreads();

    // begin:tree
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        const unsigned index = 2 * stride * tid;
        if (index < blockDim.x) partial[index] += partial[index + stride];
        __syncthreads();
    }
    // end:tree

    if (tid == 0) block_sums[blockIdx.x] = partial[0];
}
