// What cudaGetDeviceProperties and cudaDeviceGetAttribute report of each
// imitated GPU: an H100's figures, but for its multiprocessors
// (multiprocessor_count()) and its memory (this machine's).
#include <cstring>

#include "device.h"
#include "state.h"

namespace warpdrill::cpu::detail {
namespace {

// An H100 SXM5's figures, as cudaGetDeviceProperties and
// cudaDeviceGetAttribute report them there (measured with CUDA 13.0 by
// cpu-cuda/tests/gpu/runtime_probe.cu: results/runtime-probe-h100.txt).
// The figures of an SM and of a block's shared memory, which the launch
// checks use too, are in device.h.
constexpr int kRegistersPerSm = 64 * 1024;  // and per block
constexpr int kL2CacheBytes = 50 << 20;
constexpr int kPersistingL2CacheMaxBytes = 32768000;
constexpr int kMemoryBusBits = 5120;
constexpr int kClockKhz = 1980000;
constexpr int kMemoryClockKhz = 2619000;
constexpr std::size_t kConstantMemoryBytes = 64 * 1024;
constexpr int kCopyEngines = 3;

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
    return prop;
}

}  // namespace warpdrill::cpu::detail

using namespace warpdrill::cpu::detail;

namespace {

// The attribute's value among the properties, or the clock rates that CUDA 13
// reports only here; false for an attribute this backend does not know.
bool attribute_value(cudaDeviceAttr attribute, const cudaDeviceProp& prop, int* value) {
    switch (attribute) {
        case cudaDevAttrMaxThreadsPerBlock: *value = prop.maxThreadsPerBlock; return true;
        case cudaDevAttrMaxBlockDimX:
        case cudaDevAttrMaxBlockDimY:
        case cudaDevAttrMaxBlockDimZ:
            *value = prop.maxThreadsDim[attribute - cudaDevAttrMaxBlockDimX];
            return true;
        case cudaDevAttrMaxGridDimX:
        case cudaDevAttrMaxGridDimY:
        case cudaDevAttrMaxGridDimZ:
            *value = prop.maxGridSize[attribute - cudaDevAttrMaxGridDimX];
            return true;
        case cudaDevAttrMaxSharedMemoryPerBlock:
            *value = static_cast<int>(prop.sharedMemPerBlock);
            return true;
        case cudaDevAttrTotalConstantMemory: *value = static_cast<int>(prop.totalConstMem); return true;
        case cudaDevAttrWarpSize: *value = prop.warpSize; return true;
        case cudaDevAttrMaxRegistersPerBlock: *value = prop.regsPerBlock; return true;
        case cudaDevAttrClockRate: *value = kClockKhz; return true;
        case cudaDevAttrMultiProcessorCount: *value = prop.multiProcessorCount; return true;
        case cudaDevAttrIntegrated: *value = prop.integrated; return true;
        case cudaDevAttrCanMapHostMemory: *value = prop.canMapHostMemory; return true;
        case cudaDevAttrConcurrentKernels: *value = prop.concurrentKernels; return true;
        case cudaDevAttrEccEnabled: *value = prop.ECCEnabled; return true;
        case cudaDevAttrMemoryClockRate: *value = kMemoryClockKhz; return true;
        case cudaDevAttrGlobalMemoryBusWidth: *value = prop.memoryBusWidth; return true;
        case cudaDevAttrL2CacheSize: *value = prop.l2CacheSize; return true;
        case cudaDevAttrMaxThreadsPerMultiProcessor: *value = prop.maxThreadsPerMultiProcessor; return true;
        case cudaDevAttrAsyncEngineCount: *value = prop.asyncEngineCount; return true;
        case cudaDevAttrUnifiedAddressing: *value = prop.unifiedAddressing; return true;
        case cudaDevAttrComputeCapabilityMajor: *value = prop.major; return true;
        case cudaDevAttrComputeCapabilityMinor: *value = prop.minor; return true;
        case cudaDevAttrMaxSharedMemoryPerMultiprocessor:
            *value = static_cast<int>(prop.sharedMemPerMultiprocessor);
            return true;
        case cudaDevAttrMaxRegistersPerMultiprocessor: *value = prop.regsPerMultiprocessor; return true;
        case cudaDevAttrManagedMemory: *value = prop.managedMemory; return true;
        case cudaDevAttrCooperativeLaunch: *value = prop.cooperativeLaunch; return true;
        case cudaDevAttrMaxSharedMemoryPerBlockOptin:
            *value = static_cast<int>(prop.sharedMemPerBlockOptin);
            return true;
        case cudaDevAttrMaxBlocksPerMultiprocessor: *value = prop.maxBlocksPerMultiProcessor; return true;
        case cudaDevAttrMaxPersistingL2CacheSize: *value = prop.persistingL2CacheMaxSize; return true;
        case cudaDevAttrReservedSharedMemoryPerBlock:
            *value = static_cast<int>(prop.reservedSharedMemPerBlock);
            return true;
        case cudaDevAttrClusterLaunch: *value = prop.clusterLaunch; return true;
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
