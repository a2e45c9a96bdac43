// Shuffle exercise 6, array swap: each thread holds kSwapValues ints and
// swaps the whole array with its partner lane, lane ^ lane_mask. As on the
// hardware, a lane whose partner lies in a later group of `width` keeps its
// own array, and one whose partner lies in an earlier group reads that one.
#pragma once

#include "warpdrill/cuda.h"

constexpr int kSwapValues = 4;

__global__ void shuffle_swap_arrays(const int* in, int* out, int lane_mask, int width) {
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    int values[kSwapValues];
#pragma unroll
    for (int k = 0; k < kSwapValues; ++k) values[k] = in[t * kSwapValues + k];

        // TODO: replace every values[k] with the partner lane's values[k]
        // (__shfl_xor_sync with lane_mask and width), in a loop the compiler
        // unrolls, so that `values` stays in registers.

#pragma unroll
    for (int k = 0; k < kSwapValues; ++k) out[t * kSwapValues + k] = values[k];
}
