// Lesson 8: a grid just big enough to fill the GPU, each thread adding many
// elements (a grid-stride loop) through 16-byte loads, four floats at once.
// The same kernel then finishes the job: a second launch of one block sums
// the first launch's per-block results.
#pragma once

#include "warpdrill/cuda.h"
#include "warpdrill/pack.cuh"
#include "warpdrill/reduce.cuh"

constexpr int kPackSize = 4;  // floats per 16-byte load
using FloatPack = warpdrill::Pack<float, kPackSize>;

// Block b writes to partials[b] its share of the sum of in[0, n). `in` must
// be 16-byte aligned; blockDim.x is a multiple of 32.
__global__ void reduce_grid_stride(const float* in, float* partials, int n) {
    const int thread = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    const int threads = static_cast<int>(gridDim.x * blockDim.x);
    const int packs = n / kPackSize;
    float sum = 0.0f;

    // TODO(1): a grid-stride loop over the packs: thread `thread` starts at
    // pack `thread` and steps by `threads`; load each pack with
    // warpdrill::load_pack<float, kPackSize>(in + p * kPackSize) and add its
    // four values to sum.

    // TODO(2): the last n % 4 elements do not fill a pack: add them with a
    // grid-stride loop of plain loads starting at packs * kPackSize + thread.
    (void)thread;
    (void)threads;
    (void)packs;

    sum = warpdrill::block_all_reduce(sum, warpdrill::Sum{});
    if (threadIdx.x == 0) partials[blockIdx.x] = sum;
}
