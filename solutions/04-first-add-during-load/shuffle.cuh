// Shuffle exercise 4, wrap-around shift: lane k of a group receives the value
// of lane (k + shift) % width of the same group, so values rotate around it.
#pragma once

#include "warpdrill/cuda.h"

__global__ void shuffle_rotate(const int* in, int* out, int shift, int width) {
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    const int lane = static_cast<int>(threadIdx.x % 32);
    out[t] = __shfl_sync(0xffffffffu, in[t], (lane + shift) % width, width);
}
