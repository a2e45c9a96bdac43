// Shuffle exercise 2, shift up: lane k of a group receives the value of lane
// k - delta of the same group; the first `delta` lanes keep their own value.
#pragma once

#include "warpdrill/cuda.h"

__global__ void shuffle_shift_up(const int* in, int* out, unsigned delta, int width) {
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    // TODO: one __shfl_up_sync call with the full mask and `width`.
    out[t] = in[t];
}
