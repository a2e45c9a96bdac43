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

    // begin:grid_stride
    for (std::int64_t p = thread; p < packs; p += threads) {
        const Float4Pack pack = warpdrill::load_pack<float, kFloatsPerLoad>(in + p * kFloatsPerLoad);
#pragma unroll
        for (int k = 0; k < kFloatsPerLoad; ++k) sum += pack.values[k];
    }
    // The last n % 4 elements do not fill a pack.
    for (std::int64_t i = packs * kFloatsPerLoad + thread; i < n; i += threads) sum += in[i];
    // end:grid_stride
    return sum;
}

// Writes the sum of in[0, n) to *sum. `partials` holds one float per block;
// *tickets must be 0 before the first launch, and each launch leaves it 0
// again. blockDim.x is a multiple of 32. Launches that share `partials` and
// `tickets` must not run at the same time.
__global__ void reduce_one_launch(const float* in, std::int64_t n, float* partials, unsigned* tickets,
                                  float* sum) {
    const float block_sum = warpdrill::block_all_reduce(grid_stride_sum(in, n), warpdrill::Sum{});

    // begin:ticket
    __shared__ bool took_last_ticket;
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = block_sum;
        // Every block must see this partial before it can see our ticket.
        __threadfence();
        // Tickets 0, 1, ..., gridDim.x - 1; the last one wraps the counter to 0
        // for the next launch.
        const unsigned ticket = atomicInc(tickets, gridDim.x - 1);
        took_last_ticket = ticket == gridDim.x - 1;
    }
    __syncthreads();
    if (!took_last_ticket) return;
    // end:ticket

    // begin:last_block
    // Every partial is written. volatile: read them from L2, where the other
    // blocks wrote them, never from this SM's L1. Thread t adds partials t,
    // t + blockDim.x, ... and the block reduces those: the same order on every run.
    const volatile float* written = partials;
    float partial_sum = 0.0f;
    for (unsigned block = threadIdx.x; block < gridDim.x; block += blockDim.x) partial_sum += written[block];
    const float total = warpdrill::block_all_reduce(partial_sum, warpdrill::Sum{});
    if (threadIdx.x == 0) *sum = total;
    // end:last_block
}
