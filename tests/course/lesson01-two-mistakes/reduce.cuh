// A learner's mistake for the tests: lesson 1's tree with its barrier inside
// the branch, so that only the adding threads reach it (on a GPU, a hang or
// garbage; on the CPU backend, a fault that names the barrier).
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

    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        if (tid % (2 * stride) == 0) {
            partial[tid] += partial[tid + stride];
            __syncthreads();
        }
    }

    if (tid == 0) block_sums[blockIdx.x] = partial[0];
}
