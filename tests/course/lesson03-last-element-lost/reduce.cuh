// A learner's mistake for the tests: an off-by-one bound in the load that
// loses the input's last element (n = 1 aside), a wrong sum that the checks
// can explain.
#pragma once

#include "warpdrill/cuda.h"

// Block b writes the sum of its blockDim.x elements of in[0, n) to
// block_sums[b]. blockDim.x is a power of two; the dynamic shared memory
// holds blockDim.x floats.
__global__ void reduce_sequential(const float* in, float* block_sums, int n) {
    WARPDRILL_DYNAMIC_SHARED(float, partial);
    const unsigned tid = threadIdx.x;
    const unsigned i = blockIdx.x * blockDim.x + tid;
    partial[tid] = i + 1 < static_cast<unsigned>(n) || (n == 1 && i == 0) ? in[i] : 0.0f;
    __syncthreads();

    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (tid < stride) partial[tid] += partial[tid + stride];
        __syncthreads();
    }

    if (tid == 0) block_sums[blockIdx.x] = partial[0];
}
