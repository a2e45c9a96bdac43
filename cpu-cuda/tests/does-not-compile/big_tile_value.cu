// A tile of several warps shuffles values of at most 8 bytes: nvcc rejects a
// larger one (CUDA's static_assert), and so must the CPU backend.
#include <cooperative_groups.h>

#include "warpdrill/cuda.h"

namespace cg = cooperative_groups;

struct Wide {
    double low, high;
};

__global__ void wide_shuffle(Wide* out) {
    const auto tile = cg::tiled_partition<128>(cg::this_thread_block());
    out[threadIdx.x] = tile.shfl(Wide{1.0, 2.0}, 0);
}
