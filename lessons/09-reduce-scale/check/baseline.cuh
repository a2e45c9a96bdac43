// Given code: the baseline for lesson 9, one block per row. The block's
// threads stride over the row, combine their abs-max through shared memory
// (warpdrill::block_all_reduce, as CUB's BlockReduce would), then read the
// row a second time to scale it.
#pragma once

#include "warpdrill/cuda.h"
#include "warpdrill/reduce.cuh"

__global__ void reduce_scale_block_per_row_kernel(const float* x, float* y, int cols) {
    const float* x_row = x + static_cast<std::size_t>(blockIdx.x) * cols;
    float* y_row = y + static_cast<std::size_t>(blockIdx.x) * cols;

    float abs_max = 0.0f;
    for (int c = static_cast<int>(threadIdx.x); c < cols; c += static_cast<int>(blockDim.x)) {
        abs_max = fmaxf(abs_max, fabsf(x_row[c]));
    }
    abs_max = warpdrill::block_all_reduce(abs_max, warpdrill::Max{});
    const float scale = abs_max > 0.0f ? 1.0f / abs_max : 0.0f;  // a zero row stays zero
    for (int c = static_cast<int>(threadIdx.x); c < cols; c += static_cast<int>(blockDim.x)) {
        y_row[c] = x_row[c] * scale;
    }
}
