// Lesson 13's shuffle exercise: the ring inside a warp. Each lane holds 32
// values; the lanes of each group of `width` all-reduce them as the GPUs do,
// with shuffles for links: the 32 values are `width` chunks of 32 / width, and
// in each of the width - 1 reduce-scatter steps every lane takes one chunk
// from the lane before it (__shfl_sync from (lane - 1) mod width) and adds it
// to its own; in each of the width - 1 all-gather steps it takes a finished
// chunk and keeps it. Each lane moves 2(width - 1) chunks, 2(width - 1)/width
// of its values, where lesson 5's xor butterfly moves all 32 values log2(width)
// times.
#pragma once

#include "warpdrill/course/ring.h"
#include "warpdrill/cuda.h"

__device__ void warp_ring_allreduce(int (&values)[warpdrill::course::kWarpRingValues], int width) {
    // TODO(5): lane = threadIdx.x % width, from = (lane - 1) mod width, chunk
    // = 32 / width values. Reduce-scatter, for step = 0 .. width - 2: for each
    // of the chunk's values v, values[received * chunk + v] += __shfl_sync(
    // 0xffffffffu, values[sent * chunk + v], from, width), with sent = (lane -
    // step) mod width and received = (lane - step - 1) mod width. All-gather,
    // width - 1 steps more: the same with = instead of +=, sent = (lane + 1 -
    // step) mod width and received = (lane - step) mod width.
    (void)values;
    (void)width;
}

// Thread t's 32 values are in[32 t, 32 t + 32), and so are its sums in out.
__global__ void warp_ring_sums(const int* in, int* out, int width) {
    constexpr int kValues = warpdrill::course::kWarpRingValues;
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    int values[kValues];
    for (int v = 0; v < kValues; ++v) values[v] = in[t * kValues + v];
    warp_ring_allreduce(values, width);
    for (int v = 0; v < kValues; ++v) out[t * kValues + v] = values[v];
}
