// What cudaGetDeviceProperties and cudaDeviceGetAttribute report of each
// imitated GPU: an H100's figures, but for its multiprocessors
// (multiprocessor_count()) and its memory (this machine's).
#include <algorithm>
#include <cstring>
#include <iterator>

#include "device.h"
#include "device_memory.h"
#include "state.h"

namespace warpdrill::cpu::detail {
namespace {

// An H100 SXM5's figures, as cudaGetDeviceProperties and
// cudaDeviceGetAttribute report them there (measured with CUDA 13.0 by
// cpu-cuda/tests/gpu/runtime_probe.cu: results/runtime-probe-h100.txt).
// The figures of an SM, of a block's shared memory and of L2's persisting
// lines, which the launch checks and the limits use too, are in device.h.
constexpr int kRegistersPerSm = 64 * 1024;  // and per block
constexpr int kL2CacheBytes = 50 << 20;
constexpr int kMemoryBusBits = 5120;
constexpr int kMemoryClockKhz = 2619000;
constexpr std::size_t kConstantMemoryBytes = 64 * 1024;
constexpr int kCopyEngines = 3;
constexpr int kAccessPolicyMaxWindowBytes = 128 << 20;
constexpr unsigned kMemoryPoolHandleTypes = 9;  // POSIX file descriptors and fabric handles
constexpr int kGpuDirectRdmaWritesOrderingAllDevices = 100;
constexpr int kMaxTexture1DLinearWidth = 1 << 28;
constexpr int kMemorySyncDomains = 4;

template <std::size_t N>
void assign(int (&field)[N], const int (&values)[N]) {
    std::copy(std::begin(values), std::end(values), std::begin(field));
}

// The texture and surface limits, which the backend has no texture units to
// use: the chip's, GH100's, as an H200 reported them.
void set_texture_limits(cudaDeviceProp& prop) {
    prop.texturePitchAlignment = 32;
    prop.maxTexture1D = 131072;
    prop.maxTexture1DMipmap = 32768;
    assign(prop.maxTexture2D, {131072, 65536});
    assign(prop.maxTexture2DMipmap, {32768, 32768});
    assign(prop.maxTexture2DLinear, {131072, 65000, 2097120});
    assign(prop.maxTexture2DGather, {32768, 32768});
    assign(prop.maxTexture3D, {16384, 16384, 16384});
    assign(prop.maxTexture3DAlt, {8192, 8192, 32768});
    prop.maxTextureCubemap = 32768;
    assign(prop.maxTexture1DLayered, {32768, 2048});
    assign(prop.maxTexture2DLayered, {32768, 32768, 2048});
    assign(prop.maxTextureCubemapLayered, {32768, 2046});
    prop.maxSurface1D = 32768;
    assign(prop.maxSurface2D, {131072, 65536});
    assign(prop.maxSurface3D, {16384, 16384, 16384});
    assign(prop.maxSurface1DLayered, {32768, 2048});
    assign(prop.maxSurface2DLayered, {32768, 32768, 2048});
    prop.maxSurfaceCubemap = 32768;
    assign(prop.maxSurfaceCubemapLayered, {32768, 2046});
    prop.surfaceAlignment = 512;
}

// What the GPU and its driver support, as an H200 reported it on a Linux
// machine with PCIe hosts (no host-native atomics, no pageable memory access).
void set_features(cudaDeviceProp& prop) {
    prop.concurrentManagedAccess = 1;
    prop.computePreemptionSupported = 1;
    prop.canUseHostPointerForRegisteredMem = 1;
    prop.accessPolicyMaxWindowSize = kAccessPolicyMaxWindowBytes;
    prop.hostRegisterSupported = prop.hostRegisterReadOnlySupported = 1;
    prop.sparseCudaArraySupported = prop.timelineSemaphoreInteropSupported = 1;
    prop.memoryPoolsSupported = 1;
    prop.memoryPoolSupportedHandleTypes = kMemoryPoolHandleTypes;
    prop.gpuDirectRDMASupported = 1;
    prop.gpuDirectRDMAFlushWritesOptions = 1;
    prop.gpuDirectRDMAWritesOrdering = kGpuDirectRdmaWritesOrderingAllDevices;
    prop.deferredMappingCudaArraySupported = 1;
    prop.ipcEventSupported = 1;
    prop.unifiedFunctionPointers = 1;
}

}  // namespace

cudaDeviceProp device_properties() {
    cudaDeviceProp prop{};
    std::strncpy(prop.name, "warpdrill CPU backend", sizeof prop.name - 1);
    prop.totalGlobalMem = std::size_t{1} << 32;  // less than an H100's 80 GB: this machine's memory
    prop.sharedMemPerBlock = kSharedMemoryPerBlock;
    prop.regsPerBlock = kRegistersPerSm;
    prop.warpSize = 32;
    prop.memPitch = 0x7fffffff;
    prop.maxThreadsPerBlock = kMaxThreadsPerBlock;
    prop.maxThreadsDim[0] = prop.maxThreadsDim[1] = 1024;
    prop.maxThreadsDim[2] = 64;
    prop.maxGridSize[0] = 0x7fffffff;
    prop.maxGridSize[1] = prop.maxGridSize[2] = 65535;
    prop.totalConstMem = kConstantMemoryBytes;
    prop.major = compute_capability() / 10;
    prop.minor = compute_capability() % 10;
    prop.textureAlignment = 512;
    prop.multiProcessorCount = multiprocessor_count();
    prop.canMapHostMemory = 1;
    prop.concurrentKernels = 1;
    prop.ECCEnabled = 1;
    prop.asyncEngineCount = kCopyEngines;
    prop.unifiedAddressing = 1;
    prop.memoryBusWidth = kMemoryBusBits;
    prop.l2CacheSize = kL2CacheBytes;
    prop.persistingL2CacheMaxSize = kPersistingL2CacheMaxBytes;
    prop.maxThreadsPerMultiProcessor = kThreadsPerSm;
    prop.streamPrioritiesSupported = prop.globalL1CacheSupported = prop.localL1CacheSupported = 1;
    prop.sharedMemPerMultiprocessor = kSharedMemoryPerSm;
    prop.regsPerMultiprocessor = kRegistersPerSm;
    prop.managedMemory = 1;
    prop.cooperativeLaunch = 1;
    prop.sharedMemPerBlockOptin = kSharedMemoryPerBlockOptin;
    prop.reservedSharedMemPerBlock = kSharedMemoryReservedPerBlock;
    prop.maxBlocksPerMultiProcessor = kBlocksPerSm;
    prop.clusterLaunch = compute_capability() >= 90;
    set_texture_limits(prop);
    set_features(prop);
    prop.deviceNumaId = -1;  // no NUMA node of its own; the PCI figures and the UUID stay 0: no PCI device
    return prop;
}

}  // namespace warpdrill::cpu::detail

using namespace warpdrill::cpu::detail;

namespace {

// The attribute's value among the properties, or one that CUDA 13 reports
// only here (the clock rates and the rest below, an H200's); false for an
// attribute this backend does not know.
bool attribute_value(cudaDeviceAttr attribute, const cudaDeviceProp& prop, int* value) {
    const auto pick = [&](const int* values, cudaDeviceAttr first) {
        *value = values[attribute - first];
        return true;
    };
    switch (attribute) {
        case cudaDevAttrMaxThreadsPerBlock: *value = prop.maxThreadsPerBlock; return true;
        case cudaDevAttrMaxBlockDimX:
        case cudaDevAttrMaxBlockDimY:
        case cudaDevAttrMaxBlockDimZ: return pick(prop.maxThreadsDim, cudaDevAttrMaxBlockDimX);
        case cudaDevAttrMaxGridDimX:
        case cudaDevAttrMaxGridDimY:
        case cudaDevAttrMaxGridDimZ: return pick(prop.maxGridSize, cudaDevAttrMaxGridDimX);
        case cudaDevAttrMaxSharedMemoryPerBlock:
            *value = static_cast<int>(prop.sharedMemPerBlock);
            return true;
        case cudaDevAttrTotalConstantMemory: *value = static_cast<int>(prop.totalConstMem); return true;
        case cudaDevAttrWarpSize: *value = prop.warpSize; return true;
        case cudaDevAttrMaxPitch: *value = static_cast<int>(prop.memPitch); return true;
        case cudaDevAttrMaxRegistersPerBlock: *value = prop.regsPerBlock; return true;
        case cudaDevAttrClockRate: *value = kClockKhz; return true;
        case cudaDevAttrTextureAlignment: *value = static_cast<int>(prop.textureAlignment); return true;
        case cudaDevAttrGpuOverlap: *value = 1; return true;
        case cudaDevAttrMultiProcessorCount: *value = prop.multiProcessorCount; return true;
        case cudaDevAttrKernelExecTimeout: *value = 0; return true;
        case cudaDevAttrIntegrated: *value = prop.integrated; return true;
        case cudaDevAttrCanMapHostMemory: *value = prop.canMapHostMemory; return true;
        case cudaDevAttrComputeMode: *value = cudaComputeModeDefault; return true;
        case cudaDevAttrMaxTexture1DWidth: *value = prop.maxTexture1D; return true;
        case cudaDevAttrMaxTexture2DWidth:
        case cudaDevAttrMaxTexture2DHeight: return pick(prop.maxTexture2D, cudaDevAttrMaxTexture2DWidth);
        case cudaDevAttrMaxTexture3DWidth:
        case cudaDevAttrMaxTexture3DHeight:
        case cudaDevAttrMaxTexture3DDepth: return pick(prop.maxTexture3D, cudaDevAttrMaxTexture3DWidth);
        case cudaDevAttrMaxTexture2DLayeredWidth:
        case cudaDevAttrMaxTexture2DLayeredHeight:
        case cudaDevAttrMaxTexture2DLayeredLayers:
            return pick(prop.maxTexture2DLayered, cudaDevAttrMaxTexture2DLayeredWidth);
        case cudaDevAttrSurfaceAlignment: *value = static_cast<int>(prop.surfaceAlignment); return true;
        case cudaDevAttrConcurrentKernels: *value = prop.concurrentKernels; return true;
        case cudaDevAttrEccEnabled: *value = prop.ECCEnabled; return true;
        case cudaDevAttrPciBusId: *value = prop.pciBusID; return true;
        case cudaDevAttrPciDeviceId: *value = prop.pciDeviceID; return true;
        case cudaDevAttrTccDriver: *value = prop.tccDriver; return true;
        case cudaDevAttrMemoryClockRate: *value = kMemoryClockKhz; return true;
        case cudaDevAttrGlobalMemoryBusWidth: *value = prop.memoryBusWidth; return true;
        case cudaDevAttrL2CacheSize: *value = prop.l2CacheSize; return true;
        case cudaDevAttrMaxThreadsPerMultiProcessor: *value = prop.maxThreadsPerMultiProcessor; return true;
        case cudaDevAttrAsyncEngineCount: *value = prop.asyncEngineCount; return true;
        case cudaDevAttrUnifiedAddressing: *value = prop.unifiedAddressing; return true;
        case cudaDevAttrMaxTexture1DLayeredWidth:
        case cudaDevAttrMaxTexture1DLayeredLayers:
            return pick(prop.maxTexture1DLayered, cudaDevAttrMaxTexture1DLayeredWidth);
        case cudaDevAttrMaxTexture2DGatherWidth:
        case cudaDevAttrMaxTexture2DGatherHeight:
            return pick(prop.maxTexture2DGather, cudaDevAttrMaxTexture2DGatherWidth);
        case cudaDevAttrMaxTexture3DWidthAlt:
        case cudaDevAttrMaxTexture3DHeightAlt:
        case cudaDevAttrMaxTexture3DDepthAlt:
            return pick(prop.maxTexture3DAlt, cudaDevAttrMaxTexture3DWidthAlt);
        case cudaDevAttrPciDomainId: *value = prop.pciDomainID; return true;
        case cudaDevAttrTexturePitchAlignment:
            *value = static_cast<int>(prop.texturePitchAlignment);
            return true;
        case cudaDevAttrMaxTextureCubemapWidth: *value = prop.maxTextureCubemap; return true;
        case cudaDevAttrMaxTextureCubemapLayeredWidth:
        case cudaDevAttrMaxTextureCubemapLayeredLayers:
            return pick(prop.maxTextureCubemapLayered, cudaDevAttrMaxTextureCubemapLayeredWidth);
        case cudaDevAttrMaxSurface1DWidth: *value = prop.maxSurface1D; return true;
        case cudaDevAttrMaxSurface2DWidth:
        case cudaDevAttrMaxSurface2DHeight: return pick(prop.maxSurface2D, cudaDevAttrMaxSurface2DWidth);
        case cudaDevAttrMaxSurface3DWidth:
        case cudaDevAttrMaxSurface3DHeight:
        case cudaDevAttrMaxSurface3DDepth: return pick(prop.maxSurface3D, cudaDevAttrMaxSurface3DWidth);
        case cudaDevAttrMaxSurface1DLayeredWidth:
        case cudaDevAttrMaxSurface1DLayeredLayers:
            return pick(prop.maxSurface1DLayered, cudaDevAttrMaxSurface1DLayeredWidth);
        case cudaDevAttrMaxSurface2DLayeredWidth:
        case cudaDevAttrMaxSurface2DLayeredHeight:
        case cudaDevAttrMaxSurface2DLayeredLayers:
            return pick(prop.maxSurface2DLayered, cudaDevAttrMaxSurface2DLayeredWidth);
        case cudaDevAttrMaxSurfaceCubemapWidth: *value = prop.maxSurfaceCubemap; return true;
        case cudaDevAttrMaxSurfaceCubemapLayeredWidth:
        case cudaDevAttrMaxSurfaceCubemapLayeredLayers:
            return pick(prop.maxSurfaceCubemapLayered, cudaDevAttrMaxSurfaceCubemapLayeredWidth);
        case cudaDevAttrMaxTexture1DLinearWidth: *value = kMaxTexture1DLinearWidth; return true;
        case cudaDevAttrMaxTexture2DLinearWidth:
        case cudaDevAttrMaxTexture2DLinearHeight:
        case cudaDevAttrMaxTexture2DLinearPitch:
            return pick(prop.maxTexture2DLinear, cudaDevAttrMaxTexture2DLinearWidth);
        case cudaDevAttrMaxTexture2DMipmappedWidth:
        case cudaDevAttrMaxTexture2DMipmappedHeight:
            return pick(prop.maxTexture2DMipmap, cudaDevAttrMaxTexture2DMipmappedWidth);
        case cudaDevAttrComputeCapabilityMajor: *value = prop.major; return true;
        case cudaDevAttrComputeCapabilityMinor: *value = prop.minor; return true;
        case cudaDevAttrMaxTexture1DMipmappedWidth: *value = prop.maxTexture1DMipmap; return true;
        case cudaDevAttrStreamPrioritiesSupported: *value = prop.streamPrioritiesSupported; return true;
        case cudaDevAttrGlobalL1CacheSupported: *value = prop.globalL1CacheSupported; return true;
        case cudaDevAttrLocalL1CacheSupported: *value = prop.localL1CacheSupported; return true;
        case cudaDevAttrMaxSharedMemoryPerMultiprocessor:
            *value = static_cast<int>(prop.sharedMemPerMultiprocessor);
            return true;
        case cudaDevAttrMaxRegistersPerMultiprocessor: *value = prop.regsPerMultiprocessor; return true;
        case cudaDevAttrManagedMemory: *value = prop.managedMemory; return true;
        case cudaDevAttrIsMultiGpuBoard: *value = prop.isMultiGpuBoard; return true;
        case cudaDevAttrMultiGpuBoardGroupID: *value = prop.multiGpuBoardGroupID; return true;
        case cudaDevAttrHostNativeAtomicSupported: *value = prop.hostNativeAtomicSupported; return true;
        case cudaDevAttrSingleToDoublePrecisionPerfRatio: *value = 2; return true;
        case cudaDevAttrPageableMemoryAccess: *value = prop.pageableMemoryAccess; return true;
        case cudaDevAttrConcurrentManagedAccess: *value = prop.concurrentManagedAccess; return true;
        case cudaDevAttrComputePreemptionSupported: *value = prop.computePreemptionSupported; return true;
        case cudaDevAttrCanUseHostPointerForRegisteredMem:
            *value = prop.canUseHostPointerForRegisteredMem;
            return true;
        case cudaDevAttrCooperativeLaunch: *value = prop.cooperativeLaunch; return true;
        case cudaDevAttrMaxSharedMemoryPerBlockOptin:
            *value = static_cast<int>(prop.sharedMemPerBlockOptin);
            return true;
        case cudaDevAttrCanFlushRemoteWrites: *value = 0; return true;
        case cudaDevAttrHostRegisterSupported: *value = prop.hostRegisterSupported; return true;
        case cudaDevAttrPageableMemoryAccessUsesHostPageTables:
            *value = prop.pageableMemoryAccessUsesHostPageTables;
            return true;
        case cudaDevAttrDirectManagedMemAccessFromHost:
            *value = prop.directManagedMemAccessFromHost;
            return true;
        case cudaDevAttrMaxBlocksPerMultiprocessor: *value = prop.maxBlocksPerMultiProcessor; return true;
        case cudaDevAttrMaxPersistingL2CacheSize: *value = prop.persistingL2CacheMaxSize; return true;
        case cudaDevAttrMaxAccessPolicyWindowSize: *value = prop.accessPolicyMaxWindowSize; return true;
        case cudaDevAttrReservedSharedMemoryPerBlock:
            *value = static_cast<int>(prop.reservedSharedMemPerBlock);
            return true;
        case cudaDevAttrSparseCudaArraySupported: *value = prop.sparseCudaArraySupported; return true;
        case cudaDevAttrHostRegisterReadOnlySupported:
            *value = prop.hostRegisterReadOnlySupported;
            return true;
        case cudaDevAttrTimelineSemaphoreInteropSupported:
            *value = prop.timelineSemaphoreInteropSupported;
            return true;
        case cudaDevAttrMemoryPoolsSupported: *value = prop.memoryPoolsSupported; return true;
        case cudaDevAttrGPUDirectRDMASupported: *value = prop.gpuDirectRDMASupported; return true;
        case cudaDevAttrGPUDirectRDMAFlushWritesOptions:
            *value = static_cast<int>(prop.gpuDirectRDMAFlushWritesOptions);
            return true;
        case cudaDevAttrGPUDirectRDMAWritesOrdering: *value = prop.gpuDirectRDMAWritesOrdering; return true;
        case cudaDevAttrMemoryPoolSupportedHandleTypes:
            *value = static_cast<int>(prop.memoryPoolSupportedHandleTypes);
            return true;
        case cudaDevAttrClusterLaunch: *value = prop.clusterLaunch; return true;
        case cudaDevAttrDeferredMappingCudaArraySupported:
            *value = prop.deferredMappingCudaArraySupported;
            return true;
        case cudaDevAttrIpcEventSupport: *value = prop.ipcEventSupported; return true;
        case cudaDevAttrMemSyncDomainCount: *value = kMemorySyncDomains; return true;
        case cudaDevAttrNumaConfig: *value = prop.deviceNumaConfig; return true;
        case cudaDevAttrNumaId: *value = prop.deviceNumaId; return true;
        case cudaDevAttrMpsEnabled: *value = prop.mpsEnabled; return true;
        case cudaDevAttrHostNumaId: *value = prop.hostNumaId; return true;
        case cudaDevAttrD3D12CigSupported:
        case cudaDevAttrVulkanCigSupported: *value = 0; return true;
        case cudaDevAttrGpuPciDeviceId: *value = static_cast<int>(prop.gpuPciDeviceID); return true;
        case cudaDevAttrGpuPciSubsystemId: *value = static_cast<int>(prop.gpuPciSubsystemID); return true;
        case cudaDevAttrHostNumaMemoryPoolsSupported:
        case cudaDevAttrHostMemoryPoolsSupported: *value = 1; return true;
        case cudaDevAttrHostNumaMultinodeIpcSupported:
            *value = prop.hostNumaMultinodeIpcSupported;
            return true;
        case cudaDevAttrOnlyPartialHostNativeAtomicSupported: *value = 0; return true;
    }
    return false;
}

}  // namespace

cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attribute, int device) {
    if (!value) return record(cudaErrorInvalidValue);
    if (!valid_device(device)) return record(cudaErrorInvalidDevice);
    const bool known = attribute_value(attribute, device_properties(), value);
    return known ? cudaSuccess : record(cudaErrorInvalidValue);
}

// The current GPU's memory: its total, less what its live buffers and
// variables hold. (A GPU's own context takes some of it too; the backend's
// none.) A null pointer is passed over, as an H200 passes it over
// (results/nvtx-h200.txt).
cudaError_t cudaMemGetInfo(std::size_t* free, std::size_t* total) {
    const std::size_t memory = device_properties().totalGlobalMem;
    const std::size_t used = device_bytes_in_use(current_device());
    if (total) *total = memory;
    if (free) *free = used < memory ? memory - used : 0;
    return cudaSuccess;
}
