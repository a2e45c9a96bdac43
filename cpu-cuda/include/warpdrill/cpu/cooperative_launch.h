// The CPU backend's launches through CUDA's runtime API: cudaLaunchKernel,
// cudaLaunchCooperativeKernel, cudaLaunchKernelEx with launch attributes
// (cooperative, cluster), and the device and cluster queries that size such
// grids. Included by cuda_runtime.h.
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

// CUDA's numbers. The clock rates are here only: CUDA 13's cudaDeviceProp
// has no field for them.
enum cudaDeviceAttr {
    cudaDevAttrMaxThreadsPerBlock = 1,
    cudaDevAttrMaxBlockDimX = 2,
    cudaDevAttrMaxBlockDimY = 3,
    cudaDevAttrMaxBlockDimZ = 4,
    cudaDevAttrMaxGridDimX = 5,
    cudaDevAttrMaxGridDimY = 6,
    cudaDevAttrMaxGridDimZ = 7,
    cudaDevAttrMaxSharedMemoryPerBlock = 8,
    cudaDevAttrTotalConstantMemory = 9,
    cudaDevAttrWarpSize = 10,
    cudaDevAttrMaxRegistersPerBlock = 12,
    cudaDevAttrClockRate = 13,  // kHz
    cudaDevAttrMultiProcessorCount = 16,
    cudaDevAttrIntegrated = 18,
    cudaDevAttrCanMapHostMemory = 19,
    cudaDevAttrConcurrentKernels = 31,
    cudaDevAttrEccEnabled = 32,
    cudaDevAttrMemoryClockRate = 36,  // kHz
    cudaDevAttrGlobalMemoryBusWidth = 37,
    cudaDevAttrL2CacheSize = 38,
    cudaDevAttrMaxThreadsPerMultiProcessor = 39,
    cudaDevAttrAsyncEngineCount = 40,
    cudaDevAttrUnifiedAddressing = 41,
    cudaDevAttrComputeCapabilityMajor = 75,
    cudaDevAttrComputeCapabilityMinor = 76,
    cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
    cudaDevAttrMaxRegistersPerMultiprocessor = 82,
    cudaDevAttrManagedMemory = 83,
    cudaDevAttrCooperativeLaunch = 95,
    cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
    cudaDevAttrMaxBlocksPerMultiprocessor = 106,
    cudaDevAttrMaxPersistingL2CacheSize = 108,
    cudaDevAttrReservedSharedMemoryPerBlock = 111,
    cudaDevAttrClusterLaunch = 120,
};
cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attribute, int device);

namespace warpdrill::cpu::detail {

cudaError_t occupancy_clusters(int* clusters, const cudaLaunchConfig_t* config);
// The attributes a launch honours (cooperative, cluster dimension); an
// error for a missing config or an attribute this backend does not know.
cudaError_t read_launch_attributes(const cudaLaunchConfig_t* config, GroupLaunch* groups);

// A kernel's arguments as cudaLaunchKernel and cudaLaunchCooperativeKernel
// receive them: one pointer per parameter, each to a value of exactly the
// parameter's type.
template <class... Params, std::size_t... I>
cudaError_t launch_from_pointers(void (*kernel)(Params...), dim3 grid, dim3 block,
                                 std::size_t dynamic_smem_bytes, cudaStream_t stream, void** args,
                                 const GroupLaunch& groups, std::index_sequence<I...>) {
    return run_kernel(grid, block, dynamic_smem_bytes, stream, kernel,
                      std::tuple<std::decay_t<Params>...>(*static_cast<std::decay_t<Params>*>(args[I])...), groups);
}

// A kernel cast to void* has lost the parameter types that its argument
// pointers are read as, and the CPU backend cannot find them again: such a
// launch does not compile. In a .cu file cudacc drops the cast itself.
template <class UntypedKernel>
cudaError_t refuse_untyped_kernel() {
    static_assert(sizeof(UntypedKernel) == 0,
                  "the CPU backend launches a kernel through its type: pass the kernel itself, as in "
                  "cudaLaunchKernel(kernel, grid, block, args, ...), not a void* that holds it (in a .cu "
                  "file, a cast such as (void*)kernel in the call is dropped for you)");
    return cudaErrorInvalidDeviceFunction;
}

}  // namespace warpdrill::cpu::detail

template <class... Params>
cudaError_t cudaLaunchKernel(void (*kernel)(Params...), dim3 grid, dim3 block, void** args,
                             std::size_t dynamic_smem_bytes = 0, cudaStream_t stream = nullptr) {
    return warpdrill::cpu::detail::launch_from_pointers(kernel, grid, block, dynamic_smem_bytes, stream, args,
                                                        {}, std::index_sequence_for<Params...>{});
}

template <class... Params>
cudaError_t cudaLaunchCooperativeKernel(void (*kernel)(Params...), dim3 grid, dim3 block, void** args,
                                        std::size_t dynamic_smem_bytes = 0, cudaStream_t stream = nullptr) {
    return warpdrill::cpu::detail::launch_from_pointers(kernel, grid, block, dynamic_smem_bytes, stream, args,
                                                        {.cooperative = true},
                                                        std::index_sequence_for<Params...>{});
}

// Templates, so that the refusal fires only where one is called.
template <class Untyped = const void*>
cudaError_t cudaLaunchKernel(const void*, dim3, dim3, void**, std::size_t = 0, cudaStream_t = nullptr) {
    return warpdrill::cpu::detail::refuse_untyped_kernel<Untyped>();
}
template <class Untyped = const void*>
cudaError_t cudaLaunchCooperativeKernel(const void*, dim3, dim3, void**, std::size_t = 0,
                                        cudaStream_t = nullptr) {
    return warpdrill::cpu::detail::refuse_untyped_kernel<Untyped>();
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
cudaError_t cudaOccupancyMaxActiveClusters(int* clusters, Kernel, const cudaLaunchConfig_t* config) {
    return warpdrill::cpu::detail::occupancy_clusters(clusters, config);
}
