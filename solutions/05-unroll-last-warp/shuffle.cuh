// Shuffle exercise 5, the xor butterfly: every lane of a group of `width`
// ends with the sum of the group's values. In step k each lane adds the value
// of the lane whose index differs in bit k; after log2(width) steps all agree.
#pragma once

#include "warpdrill/cuda.h"

__global__ void shuffle_group_sum(const int* in, int* out, int /*unused*/, int width) {
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    int sum = in[t];
    for (int lane_mask = width / 2; lane_mask > 0; lane_mask /= 2) {
        sum += __shfl_xor_sync(0xffffffffu, sum, lane_mask, width);
    }
    out[t] = sum;
}
