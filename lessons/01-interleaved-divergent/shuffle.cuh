// Shuffle exercise 1, broadcast: every lane receives the value of one source
// lane of its group of `width` lanes.
#pragma once

#include "warpdrill/cuda.h"

// Lanes form groups of `width` (a power of two up to 32). Each thread writes
// to out[t] the in[] value of lane `src_lane` of its own group. As on the
// hardware, a src_lane outside [0, width) counts modulo width.
__global__ void shuffle_broadcast(const int* in, int* out, int src_lane, int width) {
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    // TODO: one __shfl_sync call. Every lane of the warp takes part, so the
    // mask is 0xffffffff; the width argument makes the groups.
    out[t] = in[t];
}
