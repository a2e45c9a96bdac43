// Lesson 9: ReduceScale, y = x / max|x| for each row of an (N, C) matrix, with
// one warp per row. The warp loads its row once into registers (packs of
// kPack floats, kPacksPerLane per lane), reduces the abs-max with the xor
// butterfly so that every lane has it, and scales the row from registers:
// one read and one write of the row, no shared memory, no __syncthreads().
#pragma once

#include "warpdrill/cuda.h"
#include "warpdrill/pack.cuh"
#include "warpdrill/reduce.cuh"

// Rows of up to 32 * kPack * kPacksPerLane columns; cols a multiple of kPack;
// x and y aligned to kPack floats. A zero row stays zero; NaN stays NaN and
// does not change the row's abs-max (fmaxf ignores it).
template <int kPack, int kPacksPerLane>
__global__ void reduce_scale_warp_per_row_kernel(const float* x, float* y, int rows, int cols) {
    using RowPack = warpdrill::Pack<float, kPack>;
    const int lane = static_cast<int>(threadIdx.x % warpdrill::kWarpSize);
    const int row = static_cast<int>(blockIdx.x * (blockDim.x / warpdrill::kWarpSize) +
                                     threadIdx.x / warpdrill::kWarpSize);
    if (row >= rows) return;  // the whole warp leaves together
    const float* x_row = x + static_cast<std::size_t>(row) * cols;
    float* y_row = y + static_cast<std::size_t>(row) * cols;

    // begin:warp_per_row
    RowPack cache[kPacksPerLane];  // constant indices only: it stays in registers
    float abs_max = 0.0f;
#pragma unroll
    for (int k = 0; k < kPacksPerLane; ++k) {
        const int col = (k * warpdrill::kWarpSize + lane) * kPack;
        if (col < cols) {
            cache[k] = warpdrill::load_pack<float, kPack>(x_row + col);
#pragma unroll
            for (int j = 0; j < kPack; ++j) abs_max = fmaxf(abs_max, fabsf(cache[k].values[j]));
        }
    }
    abs_max = warpdrill::warp_all_reduce(abs_max, warpdrill::Max{});
    const float scale = abs_max > 0.0f ? 1.0f / abs_max : 0.0f;

#pragma unroll
    for (int k = 0; k < kPacksPerLane; ++k) {
        const int col = (k * warpdrill::kWarpSize + lane) * kPack;
        if (col < cols) {
#pragma unroll
            for (int j = 0; j < kPack; ++j) cache[k].values[j] *= scale;
            warpdrill::store_pack<float, kPack>(y_row + col, cache[k]);
        }
    }
    // end:warp_per_row
}
