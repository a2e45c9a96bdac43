// The CPU backend's cooperative and cluster launches, spelled as CUDA's
// runtime API spells them: cudaLaunchCooperativeKernel, cudaLaunchKernelEx
// with launch attributes, and the device and occupancy queries that size
// such grids. Included by cuda_runtime.h.
#pragma once

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

enum cudaLaunchAttributeID {
    cudaLaunchAttributeCooperative = 2,
    cudaLaunchAttributeClusterDimension = 4,
};
union cudaLaunchAttributeValue {
    char pad[64];
    int cooperative;
    struct {
        unsigned x, y, z;
    } clusterDim;
};
struct cudaLaunchAttribute {
    cudaLaunchAttributeID id;
    char pad[8 - sizeof(cudaLaunchAttributeID)];
    cudaLaunchAttributeValue val;
};
// Its first two fields share their names with the built-in variables, which
// are macros on this backend: host code initialises it by position,
// {grid, block, dynamic_smem_bytes, stream, attributes, attribute_count}.
#pragma push_macro("gridDim")
#pragma push_macro("blockDim")
#undef gridDim
#undef blockDim
struct cudaLaunchConfig_t {
    dim3 gridDim;
    dim3 blockDim;
    std::size_t dynamicSmemBytes;
    cudaStream_t stream;
    cudaLaunchAttribute* attrs;
    unsigned numAttrs;
};

enum cudaDeviceAttr {
    cudaDevAttrMultiProcessorCount = 16,
    cudaDevAttrMaxThreadsPerMultiProcessor = 39,
    cudaDevAttrComputeCapabilityMajor = 75,
    cudaDevAttrComputeCapabilityMinor = 76,
    cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
    cudaDevAttrCooperativeLaunch = 95,
    cudaDevAttrMaxBlocksPerMultiprocessor = 106,
    cudaDevAttrClusterLaunch = 120,
};
cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attribute, int device);

namespace warpdrill::cpu::detail {

cudaError_t occupancy_blocks_per_sm(int* blocks, int block_size, std::size_t dynamic_smem_bytes);
cudaError_t occupancy_clusters(int* clusters, const cudaLaunchConfig_t* config);
// The attributes a launch honours (cooperative, cluster dimension); an
// error for a missing config or an attribute this backend does not know.
cudaError_t read_launch_attributes(const cudaLaunchConfig_t* config, GroupLaunch* groups);

// A kernel's arguments as cudaLaunchCooperativeKernel receives them: one
// pointer per parameter, each to a value of exactly the parameter's type.
template <class... Params, std::size_t... I>
cudaError_t launch_from_pointers(void (*kernel)(Params...), dim3 grid, dim3 block,
                                 std::size_t dynamic_smem_bytes, cudaStream_t stream, void** args,
                                 const GroupLaunch& groups, std::index_sequence<I...>) {
    return run_kernel(grid, block, dynamic_smem_bytes, stream, kernel,
                      std::tuple<std::decay_t<Params>...>(*static_cast<std::decay_t<Params>*>(args[I])...), groups);
}

}  // namespace warpdrill::cpu::detail

template <class... Params>
cudaError_t cudaLaunchCooperativeKernel(void (*kernel)(Params...), dim3 grid, dim3 block, void** args,
                                        std::size_t dynamic_smem_bytes = 0, cudaStream_t stream = nullptr) {
    return warpdrill::cpu::detail::launch_from_pointers(kernel, grid, block, dynamic_smem_bytes, stream, args,
                                                        {.cooperative = true},
                                                        std::index_sequence_for<Params...>{});
}

template <class... ExpTypes, class... ActTypes>
cudaError_t cudaLaunchKernelEx(const cudaLaunchConfig_t* config, void (*kernel)(ExpTypes...),
                               ActTypes&&... args) {
    using namespace warpdrill::cpu::detail;
    GroupLaunch groups;
    if (const cudaError_t error = read_launch_attributes(config, &groups); error != cudaSuccess) return error;
    return run_kernel(config->gridDim, config->blockDim, config->dynamicSmemBytes, config->stream, kernel,
                      std::tuple<std::decay_t<ExpTypes>...>(std::forward<ActTypes>(args)...), groups);
}

#pragma pop_macro("gridDim")
#pragma pop_macro("blockDim")

template <class Kernel>
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, Kernel, int block_size,
                                                          std::size_t dynamic_smem_bytes) {
    return warpdrill::cpu::detail::occupancy_blocks_per_sm(blocks, block_size, dynamic_smem_bytes);
}

template <class Kernel>
cudaError_t cudaOccupancyMaxActiveClusters(int* clusters, Kernel, const cudaLaunchConfig_t* config) {
    return warpdrill::cpu::detail::occupancy_clusters(clusters, config);
}
