// What a kernel may be launched with, as CUDA's runtime API asks and tells
// it: its attributes (cudaFuncSetAttribute, cudaFuncGetAttributes) and the
// occupancy calls that size a block or a grid for it. On an H100 a block may
// have 48 KB of dynamic shared memory unless its kernel opts in to more, up
// to 227 KB; so it is here. Included by cuda_runtime.h.
#pragma once

#include <cstddef>
#include <functional>

// CUDA's numbers.
enum cudaFuncAttribute {
    cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
    cudaFuncAttributePreferredSharedMemoryCarveout = 9,
};
enum cudaSharedCarveout {
    cudaSharedmemCarveoutDefault = -1,
    cudaSharedmemCarveoutMaxShared = 100,
    cudaSharedmemCarveoutMaxL1 = 0,
};

// CUDA's fields. The CPU backend has no registers, local memory or binary
// to describe: numRegs, localSizeBytes and the like are 0, the versions the
// compute capability the backend imitates.
struct cudaFuncAttributes {
    std::size_t sharedSizeBytes;
    std::size_t constSizeBytes;
    std::size_t localSizeBytes;
    int maxThreadsPerBlock;
    int numRegs;
    int ptxVersion;
    int binaryVersion;
    int cacheModeCA;
    int maxDynamicSharedSizeBytes;
    int preferredShmemCarveout;
    int clusterDimMustBeSet;
    int requiredClusterWidth;
    int requiredClusterHeight;
    int requiredClusterDepth;
    int clusterSchedulingPolicyPreference;
    int nonPortableClusterSizeAllowed;
    int reserved[16];
};

// A kernel is named by its address, as CUDA's C API names it (const void*);
// the templates take the kernel itself.
cudaError_t cudaFuncSetAttribute(const void* kernel, cudaFuncAttribute attribute, int value);
cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attributes, const void* kernel);

template <class... Params>
cudaError_t cudaFuncSetAttribute(void (*kernel)(Params...), cudaFuncAttribute attribute, int value) {
    return cudaFuncSetAttribute(reinterpret_cast<const void*>(kernel), attribute, value);
}
template <class... Params>
cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attributes, void (*kernel)(Params...)) {
    return cudaFuncGetAttributes(attributes, reinterpret_cast<const void*>(kernel));
}

inline constexpr unsigned cudaOccupancyDefault = 0x00;
inline constexpr unsigned cudaOccupancyDisableCachingOverride = 0x01;

namespace warpdrill::cpu::detail {

cudaError_t occupancy_blocks_per_sm(int* blocks, int block_size, std::size_t dynamic_smem_bytes,
                                    unsigned flags);
// The block size, up to `block_size_limit` threads (0: no limit), that keeps
// the most threads of an SM busy, the largest of those that tie; and the grid
// that fills every SM with such blocks. `smem_for_block_size` gives the
// dynamic shared memory that a block of each size asks for.
cudaError_t occupancy_block_size(int* min_grid_size, int* block_size,
                                 const std::function<std::size_t(int)>& smem_for_block_size,
                                 int block_size_limit, unsigned flags);

}  // namespace warpdrill::cpu::detail

// The kernel is taken but not looked at: the CPU backend counts no
// registers, so only threads and shared memory limit the blocks (see
// warpdrill::cpu::set_register_limited_blocks).
template <class Kernel>
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* blocks, Kernel, int block_size,
                                                                   std::size_t dynamic_smem_bytes,
                                                                   unsigned flags) {
    return warpdrill::cpu::detail::occupancy_blocks_per_sm(blocks, block_size, dynamic_smem_bytes, flags);
}
template <class Kernel>
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, Kernel kernel, int block_size,
                                                          std::size_t dynamic_smem_bytes) {
    return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(blocks, kernel, block_size,
                                                                  dynamic_smem_bytes, cudaOccupancyDefault);
}

template <class UnaryFunction, class Kernel>
cudaError_t cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(int* min_grid_size, int* block_size,
                                                                    Kernel, UnaryFunction smem_for_block_size,
                                                                    int block_size_limit = 0,
                                                                    unsigned flags = cudaOccupancyDefault) {
    return warpdrill::cpu::detail::occupancy_block_size(
        min_grid_size, block_size,
        [&](int size) { return static_cast<std::size_t>(smem_for_block_size(size)); }, block_size_limit,
        flags);
}
template <class UnaryFunction, class Kernel>
cudaError_t cudaOccupancyMaxPotentialBlockSizeVariableSMem(int* min_grid_size, int* block_size, Kernel kernel,
                                                           UnaryFunction smem_for_block_size,
                                                           int block_size_limit = 0) {
    return cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(min_grid_size, block_size, kernel,
                                                                   smem_for_block_size, block_size_limit);
}
template <class Kernel>
cudaError_t cudaOccupancyMaxPotentialBlockSizeWithFlags(int* min_grid_size, int* block_size, Kernel kernel,
                                                        std::size_t dynamic_smem_bytes = 0,
                                                        int block_size_limit = 0,
                                                        unsigned flags = cudaOccupancyDefault) {
    return cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
        min_grid_size, block_size, kernel, [dynamic_smem_bytes](int) { return dynamic_smem_bytes; },
        block_size_limit, flags);
}
template <class Kernel>
cudaError_t cudaOccupancyMaxPotentialBlockSize(int* min_grid_size, int* block_size, Kernel kernel,
                                               std::size_t dynamic_smem_bytes = 0, int block_size_limit = 0) {
    return cudaOccupancyMaxPotentialBlockSizeWithFlags(min_grid_size, block_size, kernel, dynamic_smem_bytes,
                                                       block_size_limit);
}
