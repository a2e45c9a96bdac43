// Shuffle exercise 1, broadcast: every lane receives the value of one source
// lane of its group of `width` lanes.
#pragma once

#include "warpdrill/cuda.h"

// Lanes form groups of `width` (a power of two up to 32). Each thread writes
// to out[t] the in[] value of lane `src_lane` of its own group. As on the
// hardware, a src_lane outside [0, width) counts modulo width.
__global__ void shuffle_broadcast(const int* in, int* out, int src_lane, int width) {
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    out[t] = __shfl_sync(0xffffffffu, in[t], src_lane, width);
}
