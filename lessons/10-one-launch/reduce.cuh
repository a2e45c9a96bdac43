// Lesson 10: one launch. Lesson 8's grid-stride block sum, then the grid
// finishes inside the same kernel: every block writes its partial sum and
// takes a ticket, and the block that takes the last ticket, which knows that
// every partial is written, adds them up in a fixed order.
#pragma once

#include <cstdint>

#include "warpdrill/cuda.h"
#include "warpdrill/pack.cuh"
#include "warpdrill/reduce.cuh"

constexpr int kFloatsPerLoad = 4;  // one 16-byte load
using Float4Pack = warpdrill::Pack<float, kFloatsPerLoad>;

// This thread's share of in[0, n): lesson 8's grid-stride loops, with 64-bit
// indices, since n may exceed 2^31. `in` must be 16-byte aligned.
__device__ float grid_stride_sum(const float* in, std::int64_t n) {
    const std::int64_t thread = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x;
    const std::int64_t threads = std::int64_t{gridDim.x} * blockDim.x;
    const std::int64_t packs = n / kFloatsPerLoad;
    float sum = 0.0f;

    // TODO(1): lesson 8's two loops, every index a std::int64_t: over the
    // packs (warpdrill::load_pack<float, kFloatsPerLoad>), then over the last
    // n % 4 elements one by one.
    (void)in;
    (void)thread;
    (void)threads;
    (void)packs;
    return sum;
}

// Writes the sum of in[0, n) to *sum. `partials` holds one float per block;
// *tickets must be 0 before the first launch, and each launch leaves it 0
// again. blockDim.x is a multiple of 32. Launches that share `partials` and
// `tickets` must not run at the same time.
__global__ void reduce_one_launch(const float* in, std::int64_t n, float* partials, unsigned* tickets,
                                  float* sum) {
    const float block_sum = warpdrill::block_all_reduce(grid_stride_sum(in, n), warpdrill::Sum{});

    // TODO(2): thread 0 writes block_sum to partials[blockIdx.x], then
    // __threadfence(), then takes a ticket: atomicInc(tickets, gridDim.x - 1)
    // hands out 0, 1, ..., gridDim.x - 1 in the order the blocks arrive and
    // wraps the counter back to 0 after the last. The block with ticket
    // gridDim.x - 1 goes on; the others return. Every thread of the block
    // must learn which it is.
    (void)block_sum;
    (void)partials;
    (void)tickets;

    // TODO(3): the last block adds partials[0, gridDim.x) in a fixed order
    // (each thread a strided share, then warpdrill::block_all_reduce), and
    // thread 0 writes the total to *sum.
    (void)sum;
}
