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

    // TODO(1): hold the row in registers: RowPack cache[kPacksPerLane]. Pack k
    // of this lane starts at column (k * 32 + lane) * kPack; load the packs
    // inside the row (warpdrill::load_pack<float, kPack>) and track the
    // largest |value| with fmaxf and fabsf.

    // TODO(2): every lane needs the row's abs-max: warpdrill::warp_all_reduce
    // with warpdrill::Max{}. The scale is 1 / abs_max, or 0 for a zero row.

    // TODO(3): multiply the cached packs by the scale and store them to y_row
    // (warpdrill::store_pack<float, kPack>).
    (void)x_row;
    (void)y_row;
    (void)lane;
}
