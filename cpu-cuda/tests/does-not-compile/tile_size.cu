// A tile of 3 threads: nvcc rejects it (tiles are powers of two), and so must
// the CPU backend.
#include <cooperative_groups.h>

#include "warpdrill/cuda.h"

namespace cg = cooperative_groups;

__global__ void odd_tiles(int* out) {
    const auto tile = cg::tiled_partition<3>(cg::this_thread_block());
    out[threadIdx.x] = static_cast<int>(tile.thread_rank());
}
