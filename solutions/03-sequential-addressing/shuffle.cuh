// Shuffle exercise 3, shift down: lane k of a group receives the value of lane
// k + delta of the same group; the last `delta` lanes keep their own value.
#pragma once

#include "warpdrill/cuda.h"

__global__ void shuffle_shift_down(const int* in, int* out, unsigned delta, int width) {
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    out[t] = __shfl_down_sync(0xffffffffu, in[t], delta, width);
}
