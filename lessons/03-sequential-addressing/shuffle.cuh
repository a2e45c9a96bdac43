// Shuffle exercise 3, shift down: lane k of a group receives the value of lane
// k + delta of the same group; the last `delta` lanes keep their own value.
#pragma once

#include "warpdrill/cuda.h"

__global__ void shuffle_shift_down(const int* in, int* out, unsigned delta, int width) {
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    // TODO: one __shfl_down_sync call with the full mask and `width`.
    out[t] = in[t];
}
