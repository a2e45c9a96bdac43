// A learner's mistake for the tests: the broadcast without `width`, so every
// lane takes src_lane of the whole warp instead of its own group's.
#pragma once

#include "warpdrill/cuda.h"

// Lanes form groups of `width` (a power of two up to 32). Each thread writes
// to out[t] the in[] value of lane `src_lane` of its own group. As on the
// hardware, a src_lane outside [0, width) counts modulo width.
__global__ void shuffle_broadcast(const int* in, int* out, int src_lane, int width) {
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    out[t] = __shfl_sync(0xffffffffu, in[t], src_lane);
    (void)width;
}
