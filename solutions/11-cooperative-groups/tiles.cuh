// Lesson 11's group exercises. A tile's size is part of its type,
// cg::thread_block_tile<kLanes>: its shuffles need no mask and no width,
// because the tile knows both. tile.shfl_xor(value, lane_mask) is lesson 5's
// __shfl_xor_sync(mask, value, lane_mask, width) with width = kLanes.
// Integers have more: since sm_80 one instruction adds (or takes the maximum
// of) a whole warp's values, __reduce_add_sync and __reduce_max_sync.
#pragma once

#include <cooperative_groups.h>

#include "warpdrill/cuda.h"

namespace cg = cooperative_groups;

// begin:tile_sum
// Every thread of the tile gets the sum of the tile's values: the xor
// butterfly, log2(kLanes) steps.
template <unsigned kLanes>
__device__ int tile_sum(const cg::thread_block_tile<kLanes>& tile, int value) {
#pragma unroll
    for (unsigned lane_mask = kLanes / 2; lane_mask > 0; lane_mask /= 2)
        value += tile.shfl_xor(value, lane_mask);
    return value;
}
// end:tile_sum

// out[t] is the sum over thread t's tile of kLanes threads.
template <unsigned kLanes>
__global__ void tile_sums(const int* in, int* out) {
    const cg::thread_block_tile<kLanes> tile = cg::tiled_partition<kLanes>(cg::this_thread_block());
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    out[t] = tile_sum(tile, in[t]);
}

// Every thread gets the sum and the maximum of its warp's 32 values. The
// instructions exist from sm_80 on; compiled for an older GPU the body is
// empty, and the check is skipped there.
__global__ void warp_sum_and_max(const int* in, int* sums, int* maxima) {
#if WARPDRILL_HAS_WARP_REDUCE
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    // begin:warp_reduce
    sums[t] = __reduce_add_sync(0xffffffffu, in[t]);
    maxima[t] = __reduce_max_sync(0xffffffffu, in[t]);
    // end:warp_reduce
#endif
}
