// Shuffle exercise 4, wrap-around shift: lane k of a group receives the value
// of lane (k + shift) % width of the same group, so values rotate around it.
#pragma once

#include "warpdrill/cuda.h"

__global__ void shuffle_rotate(const int* in, int* out, int shift, int width) {
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    // TODO: __shfl_sync with a source lane computed from this lane, the
    // shift and the width. (__shfl_down_sync would not wrap around.)
    out[t] = in[t];
}
