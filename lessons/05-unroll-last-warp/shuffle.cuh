// Shuffle exercise 5, the xor butterfly: every lane of a group of `width`
// ends with the sum of the group's values. In step k each lane adds the value
// of the lane whose index differs in bit k; after log2(width) steps all agree.
#pragma once

#include "warpdrill/cuda.h"

__global__ void shuffle_group_sum(const int* in, int* out, int /*unused*/, int width) {
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    // TODO: for lane_mask = width / 2, width / 4, ..., 1, add the value of
    // the partner lane (__shfl_xor_sync) to this lane's running sum.
    out[t] = in[t];
}
