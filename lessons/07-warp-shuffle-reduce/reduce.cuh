// Lesson 7: the whole tree in registers. A warp sums its 32 values with five
// shuffles, no shared memory and no barrier; a block needs shared memory only
// to hand each warp's sum to the first warp (as PyTorch's block_reduce.cuh
// and CUB's BlockReduce do). Two flavours: __shfl_down_sync leaves the sum in
// lane 0; the __shfl_xor_sync butterfly leaves it in every lane.
#pragma once

#include "warpdrill/cuda.h"
#include "warpdrill/reduce.cuh"

constexpr unsigned kFullMask = 0xffffffffu;
constexpr int kWarpSize = 32;

// Lane 0 gets the sum of the warp's 32 values; the other lanes get partial sums.
__device__ __forceinline__ float warp_reduce_sum(float value) {
    // TODO(1): five steps, offsets 16, 8, 4, 2, 1: add the value of the lane
    // `offset` above (__shfl_down_sync with the full mask).
    return value;
}

// Every lane gets the sum of the warp's 32 values.
__device__ __forceinline__ float warp_all_reduce_sum(float value) {
    // TODO(2): the same five steps with __shfl_xor_sync and lane masks
    // 16, 8, 4, 2, 1, so that every lane ends with the sum.
    return value;
}

// The first warp gets the block's sum: lane 0 with WarpReduce = warp_reduce_sum,
// every lane with warp_all_reduce_sum. blockDim.x is a multiple of 32.
template <float (*WarpReduce)(float)>
__device__ float block_reduce_sum(float value) {
    __shared__ float warp_sums[kWarpSize];
    const unsigned lane = threadIdx.x % kWarpSize;
    const unsigned warp = threadIdx.x / kWarpSize;

    // TODO(3): reduce within each warp; lane 0 of each warp stores the warp's
    // sum in warp_sums[warp]; wait for all warps; then the first warp reduces
    // warp_sums (lanes past the number of warps contribute 0).
    (void)lane;
    (void)warp;
    (void)warp_sums;
    return value;
}

// Block b writes the sum of in[b * 2 * blockDim.x, (b + 1) * 2 * blockDim.x).
__global__ void reduce_warp_shuffle(const float* in, float* block_sums, int n) {
    const float sum = block_reduce_sum<warp_reduce_sum>(warpdrill::load_sum_of_two(in, n));
    if (threadIdx.x == 0) block_sums[blockIdx.x] = sum;
}

// The same, but thread 31 writes: after the butterfly every lane holds the sum.
__global__ void reduce_warp_shuffle_xor(const float* in, float* block_sums, int n) {
    const float sum = block_reduce_sum<warp_all_reduce_sum>(warpdrill::load_sum_of_two(in, n));
    if (threadIdx.x == kWarpSize - 1) block_sums[blockIdx.x] = sum;
}
