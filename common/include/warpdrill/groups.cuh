// The parts of lessons 8 and 11 that lessons 11 and 12 take ready-made: the
// grid-stride loop with 16-byte loads over a 64-bit element count, a
// block's sum with cooperative groups, and the fixed-order sum of a short
// array of partial sums by one block.
#pragma once

#include <cstdint>

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include "warpdrill/cuda.h"
#include "warpdrill/pack.cuh"

namespace warpdrill {

// This thread's share of the sum of in[0, n): packs of four floats `thread`,
// `thread + threads`, ... (one 16-byte load each), then the last n % 4
// elements one by one. `in` must be 16-byte aligned.
__device__ __forceinline__ float grid_stride_sum(const float* in, std::int64_t n, std::int64_t thread,
                                                 std::int64_t threads) {
    constexpr int kFloats = 4;
    const std::int64_t packs = n / kFloats;
    float sum = 0.0f;
    for (std::int64_t p = thread; p < packs; p += threads) {
        const Pack<float, kFloats> pack = load_pack<float, kFloats>(in + p * kFloats);
#pragma unroll
        for (int k = 0; k < kFloats; ++k) sum += pack.values[k];
    }
    for (std::int64_t i = packs * kFloats + thread; i < n; i += threads) sum += in[i];
    return sum;
}

// Thread 0 gets the sum of the block's values: each warp, a tile of 32
// threads, reduces with cg::reduce, and warp 0 reduces the warps' sums
// (lesson 11). Every thread of the block calls it; the block's size is a
// multiple of 32.
__device__ inline float block_sum(const cooperative_groups::thread_block& block, float value) {
    namespace cg = cooperative_groups;
    __shared__ float warp_sums[32];
    const cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    value = cg::reduce(warp, value, cg::plus<float>());
    if (warp.thread_rank() == 0) warp_sums[warp.meta_group_rank()] = value;
    block.sync();
    if (warp.meta_group_rank() == 0) {
        const float warp_sum =
            warp.thread_rank() < warp.meta_group_size() ? warp_sums[warp.thread_rank()] : 0.0f;
        value = cg::reduce(warp, warp_sum, cg::plus<float>());
    }
    block.sync();  // warp_sums is free for the next call
    return value;
}

// Thread 0 of the calling block gets values[0] + ... + values[count - 1],
// added in the same order on every run.
__device__ inline float sum_in_order(const cooperative_groups::thread_block& block, const float* values,
                                     unsigned count) {
    float sum = 0.0f;
    for (unsigned i = block.thread_rank(); i < count; i += block.num_threads()) sum += values[i];
    return block_sum(block, sum);
}

}  // namespace warpdrill
