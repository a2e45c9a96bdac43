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
// are macros outside cudacc's rewrite (cuda_runtime.h).
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

// How many host threads and processes may use a GPU (set by nvidia-smi).
enum cudaComputeMode {
    cudaComputeModeDefault = 0,
    cudaComputeModeExclusive = 1,
    cudaComputeModeProhibited = 2,
    cudaComputeModeExclusiveProcess = 3,
};

// CUDA 13.0's attributes, but its reserved ones. The clock rates are here
// only: CUDA 13's cudaDeviceProp has no field for them.
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
    cudaDevAttrMaxPitch = 11,
    cudaDevAttrMaxRegistersPerBlock = 12,
    cudaDevAttrClockRate = 13,
    cudaDevAttrTextureAlignment = 14,
    cudaDevAttrGpuOverlap = 15,
    cudaDevAttrMultiProcessorCount = 16,
    cudaDevAttrKernelExecTimeout = 17,
    cudaDevAttrIntegrated = 18,
    cudaDevAttrCanMapHostMemory = 19,
    cudaDevAttrComputeMode = 20,
    cudaDevAttrMaxTexture1DWidth = 21,
    cudaDevAttrMaxTexture2DWidth = 22,
    cudaDevAttrMaxTexture2DHeight = 23,
    cudaDevAttrMaxTexture3DWidth = 24,
    cudaDevAttrMaxTexture3DHeight = 25,
    cudaDevAttrMaxTexture3DDepth = 26,
    cudaDevAttrMaxTexture2DLayeredWidth = 27,
    cudaDevAttrMaxTexture2DLayeredHeight = 28,
    cudaDevAttrMaxTexture2DLayeredLayers = 29,
    cudaDevAttrSurfaceAlignment = 30,
    cudaDevAttrConcurrentKernels = 31,
    cudaDevAttrEccEnabled = 32,
    cudaDevAttrPciBusId = 33,
    cudaDevAttrPciDeviceId = 34,
    cudaDevAttrTccDriver = 35,
    cudaDevAttrMemoryClockRate = 36,
    cudaDevAttrGlobalMemoryBusWidth = 37,
    cudaDevAttrL2CacheSize = 38,
    cudaDevAttrMaxThreadsPerMultiProcessor = 39,
    cudaDevAttrAsyncEngineCount = 40,
    cudaDevAttrUnifiedAddressing = 41,
    cudaDevAttrMaxTexture1DLayeredWidth = 42,
    cudaDevAttrMaxTexture1DLayeredLayers = 43,
    cudaDevAttrMaxTexture2DGatherWidth = 45,
    cudaDevAttrMaxTexture2DGatherHeight = 46,
    cudaDevAttrMaxTexture3DWidthAlt = 47,
    cudaDevAttrMaxTexture3DHeightAlt = 48,
    cudaDevAttrMaxTexture3DDepthAlt = 49,
    cudaDevAttrPciDomainId = 50,
    cudaDevAttrTexturePitchAlignment = 51,
    cudaDevAttrMaxTextureCubemapWidth = 52,
    cudaDevAttrMaxTextureCubemapLayeredWidth = 53,
    cudaDevAttrMaxTextureCubemapLayeredLayers = 54,
    cudaDevAttrMaxSurface1DWidth = 55,
    cudaDevAttrMaxSurface2DWidth = 56,
    cudaDevAttrMaxSurface2DHeight = 57,
    cudaDevAttrMaxSurface3DWidth = 58,
    cudaDevAttrMaxSurface3DHeight = 59,
    cudaDevAttrMaxSurface3DDepth = 60,
    cudaDevAttrMaxSurface1DLayeredWidth = 61,
    cudaDevAttrMaxSurface1DLayeredLayers = 62,
    cudaDevAttrMaxSurface2DLayeredWidth = 63,
    cudaDevAttrMaxSurface2DLayeredHeight = 64,
    cudaDevAttrMaxSurface2DLayeredLayers = 65,
    cudaDevAttrMaxSurfaceCubemapWidth = 66,
    cudaDevAttrMaxSurfaceCubemapLayeredWidth = 67,
    cudaDevAttrMaxSurfaceCubemapLayeredLayers = 68,
    cudaDevAttrMaxTexture1DLinearWidth = 69,
    cudaDevAttrMaxTexture2DLinearWidth = 70,
    cudaDevAttrMaxTexture2DLinearHeight = 71,
    cudaDevAttrMaxTexture2DLinearPitch = 72,
    cudaDevAttrMaxTexture2DMipmappedWidth = 73,
    cudaDevAttrMaxTexture2DMipmappedHeight = 74,
    cudaDevAttrComputeCapabilityMajor = 75,
    cudaDevAttrComputeCapabilityMinor = 76,
    cudaDevAttrMaxTexture1DMipmappedWidth = 77,
    cudaDevAttrStreamPrioritiesSupported = 78,
    cudaDevAttrGlobalL1CacheSupported = 79,
    cudaDevAttrLocalL1CacheSupported = 80,
    cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
    cudaDevAttrMaxRegistersPerMultiprocessor = 82,
    cudaDevAttrManagedMemory = 83,
    cudaDevAttrIsMultiGpuBoard = 84,
    cudaDevAttrMultiGpuBoardGroupID = 85,
    cudaDevAttrHostNativeAtomicSupported = 86,
    cudaDevAttrSingleToDoublePrecisionPerfRatio = 87,
    cudaDevAttrPageableMemoryAccess = 88,
    cudaDevAttrConcurrentManagedAccess = 89,
    cudaDevAttrComputePreemptionSupported = 90,
    cudaDevAttrCanUseHostPointerForRegisteredMem = 91,
    cudaDevAttrCooperativeLaunch = 95,
    cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
    cudaDevAttrCanFlushRemoteWrites = 98,
    cudaDevAttrHostRegisterSupported = 99,
    cudaDevAttrPageableMemoryAccessUsesHostPageTables = 100,
    cudaDevAttrDirectManagedMemAccessFromHost = 101,
    cudaDevAttrMaxBlocksPerMultiprocessor = 106,
    cudaDevAttrMaxPersistingL2CacheSize = 108,
    cudaDevAttrMaxAccessPolicyWindowSize = 109,
    cudaDevAttrReservedSharedMemoryPerBlock = 111,
    cudaDevAttrSparseCudaArraySupported = 112,
    cudaDevAttrHostRegisterReadOnlySupported = 113,
    cudaDevAttrTimelineSemaphoreInteropSupported = 114,
    cudaDevAttrMemoryPoolsSupported = 115,
    cudaDevAttrGPUDirectRDMASupported = 116,
    cudaDevAttrGPUDirectRDMAFlushWritesOptions = 117,
    cudaDevAttrGPUDirectRDMAWritesOrdering = 118,
    cudaDevAttrMemoryPoolSupportedHandleTypes = 119,
    cudaDevAttrClusterLaunch = 120,
    cudaDevAttrDeferredMappingCudaArraySupported = 121,
    cudaDevAttrIpcEventSupport = 125,
    cudaDevAttrMemSyncDomainCount = 126,
    cudaDevAttrNumaConfig = 130,
    cudaDevAttrNumaId = 131,
    cudaDevAttrMpsEnabled = 133,
    cudaDevAttrHostNumaId = 134,
    cudaDevAttrD3D12CigSupported = 135,
    cudaDevAttrVulkanCigSupported = 138,
    cudaDevAttrGpuPciDeviceId = 139,
    cudaDevAttrGpuPciSubsystemId = 140,
    cudaDevAttrHostNumaMemoryPoolsSupported = 142,
    cudaDevAttrHostNumaMultinodeIpcSupported = 143,
    cudaDevAttrHostMemoryPoolsSupported = 144,
    cudaDevAttrOnlyPartialHostNativeAtomicSupported = 147,
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
// pointers are read as. In a .cu file cudacc remembers them where the cast
// is made (untyped_kernels.h); elsewhere (a .cpp file) such a launch does not
// compile.
template <class UntypedKernel>
cudaError_t refuse_untyped_kernel() {
    static_assert(sizeof(UntypedKernel) == 0,
                  "the CPU backend launches a kernel through its type: pass the kernel itself, as in "
                  "cudaLaunchKernel(kernel, grid, block, args, ...), not a void* that holds it (in a .cu "
                  "file that warpdrill cc compiles, a cast such as (void*)kernel is understood)");
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

#ifdef __cudacc_built_in_names__
inline cudaError_t cudaLaunchKernel(const void* kernel, dim3 grid, dim3 block, void** args,
                                    std::size_t dynamic_smem_bytes = 0, cudaStream_t stream = nullptr) {
    return warpdrill::cpu::detail::launch_untyped("cudaLaunchKernel", kernel, grid, block, args,
                                                  dynamic_smem_bytes, stream, {});
}
inline cudaError_t cudaLaunchCooperativeKernel(const void* kernel, dim3 grid, dim3 block, void** args,
                                               std::size_t dynamic_smem_bytes = 0,
                                               cudaStream_t stream = nullptr) {
    return warpdrill::cpu::detail::launch_untyped("cudaLaunchCooperativeKernel", kernel, grid, block, args,
                                                  dynamic_smem_bytes, stream, {.cooperative = true});
}
#else
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
#endif

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
