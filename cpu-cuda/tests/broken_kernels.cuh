// Broken kernels that both the CPU backend's diagnostic tests
// (cpu-cuda/tests/diagnostics.cu) and compute-sanitizer on a GPU
// (cpu-cuda/tests/gpu/sanitizer_probe.cu) are shown: the same mistake, two teachers.
#pragma once

#include "warpdrill/cuda.h"

// The pre-Volta last-warp unroll: lanes of one warp, no __syncwarp().
__global__ void volatile_last_warp(const float* in, float* out) {
    __shared__ float partial[64];
    const unsigned tid = threadIdx.x;
    partial[tid] = in[tid];
    partial[tid + 32] = in[tid + 32];
    __syncthreads();
    volatile float* v = partial;
    v[tid] += v[tid + 32];
    v[tid] += v[tid + 16];
    v[tid] += v[tid + 8];
    v[tid] += v[tid + 4];
    v[tid] += v[tid + 2];
    v[tid] += v[tid + 1];
    if (tid == 0) out[0] = v[0];
}

// A tree step without its barrier, across warps.
__global__ void tree_without_barrier(const float* in, float* out) {
    __shared__ float partial[256];
    const unsigned tid = threadIdx.x;
    partial[tid] = in[tid];
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (tid < stride) partial[tid] += partial[tid + stride];
    }
    if (tid == 0) out[0] = partial[0];
}

// The last thread reads one element past the input.
__global__ void past_global(const float* in, float* out) {
    out[threadIdx.x] = in[threadIdx.x + 1];  // the last thread reads in[n]
}
