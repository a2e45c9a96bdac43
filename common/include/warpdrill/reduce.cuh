// Generic warp and block reductions for the later lessons, in the shape of
// CUB's WarpReduce/BlockReduce and PyTorch's block_reduce.cuh: a warp reduces
// with shuffles, each warp's result goes through shared memory, and the first
// warp reduces those. The operator is a functor, so one code path serves sum,
// max and abs-max. Lesson 7 builds the sum-only version of this by hand.
#pragma once

#include "warpdrill/cuda.h"

namespace warpdrill {

constexpr unsigned kFullWarpMask = 0xffffffffu;
constexpr int kWarpSize = 32;

struct Sum {
    static constexpr float identity = 0.0f;
    __device__ __forceinline__ float operator()(float a, float b) const { return a + b; }
};

// fmaxf returns the other operand when one is NaN, so a NaN never wins.
struct Max {
    static constexpr float identity = -__builtin_huge_valf();
    __device__ __forceinline__ float operator()(float a, float b) const { return fmaxf(a, b); }
};

// Every lane of the warp gets op over all 32 lanes' values (xor butterfly).
template <class Op>
__device__ __forceinline__ float warp_all_reduce(float value, Op op) {
#pragma unroll
    for (int lane_mask = kWarpSize / 2; lane_mask > 0; lane_mask /= 2) {
        value = op(value, __shfl_xor_sync(kFullWarpMask, value, lane_mask));
    }
    return value;
}

// Every thread of the block gets op over all the block's values.
// blockDim.x must be a multiple of 32; every thread of the block must call it.
template <class Op>
__device__ float block_all_reduce(float value, Op op) {
    __shared__ float warp_results[kWarpSize];
    const unsigned lane = threadIdx.x % kWarpSize;
    const unsigned warp = threadIdx.x / kWarpSize;
    const unsigned warps = blockDim.x / kWarpSize;

    value = warp_all_reduce(value, op);
    if (lane == 0) warp_results[warp] = value;
    __syncthreads();
    value = warp_all_reduce(lane < warps ? warp_results[lane] : Op::identity, op);
    __syncthreads();  // warp_results may be reused by the caller's next call
    return value;
}

// Lesson 4's load: block b covers 2 * blockDim.x elements from
// b * 2 * blockDim.x; each thread adds the two it owns, blockDim.x apart
// (either may lie past n and count as 0).
__device__ __forceinline__ float load_sum_of_two(const float* in, int n) {
    const unsigned i = blockIdx.x * (2 * blockDim.x) + threadIdx.x;
    const unsigned count = static_cast<unsigned>(n);
    float sum = i < count ? in[i] : 0.0f;
    if (i + blockDim.x < count) sum += in[i + blockDim.x];
    return sum;
}

// The last six steps of a shared-memory tree, done by the first warp alone
// (lesson 5): call with tid < 32 and 64 partial sums in partial[0, 64).
// Returns the sum in every lane.
__device__ __forceinline__ float last_warp_sum(float* partial, unsigned tid) {
    float sum = partial[tid];
#pragma unroll
    for (unsigned offset = 32; offset > 0; offset /= 2) {
        sum += partial[tid + offset];
        __syncwarp();  // every lane has read before any lane writes
        partial[tid] = sum;
        __syncwarp();  // every lane has written before any lane reads
    }
    return partial[0];
}

}  // namespace warpdrill
