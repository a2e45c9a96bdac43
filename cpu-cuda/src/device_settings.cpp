// What a program may set for a whole GPU: its flags (cudaSetDeviceFlags) and
// its limits (cudaDeviceSetLimit), each answered as an H200 answered
// (cpu-cuda/tests/gpu/host_runtime_probe.cu,
// results/host-runtime-probe-h200.txt). The settings are kept and reported;
// the backend runs the same way whatever they say.
#include <algorithm>
#include <array>
#include <mutex>

#include "device.h"
#include "device_settings.h"
#include "program.h"
#include "state.h"
#include "warpdrill/messages.h"

namespace warpdrill::cpu::detail {
namespace {

// Mapped pinned memory is always on (unified addressing): an H200 reports it
// among the flags whatever was set.
constexpr unsigned kAlwaysSet = cudaDeviceMapHost;

// The limits a GPU starts with; limit 7 has no name in CUDA 13, and an H200
// reports the shared memory a block may opt in to for it.
constexpr std::size_t kMinHeapBytes = std::size_t{4} << 20;
constexpr int kUnnamedLimit = 7;
constexpr std::array<std::size_t, kUnnamedLimit + 1> kStartingLimits = {
    1024,                                              // cudaLimitStackSize, bytes a thread
    8650752,                                           // cudaLimitPrintfFifoSize
    std::size_t{8} << 20,                              // cudaLimitMallocHeapSize
    0,                                                 // cudaLimitDevRuntimeSyncDepth: unsupported
    2048,                                              // cudaLimitDevRuntimePendingLaunchCount
    64,                                                // cudaLimitMaxL2FetchGranularity
    std::size_t{kPersistingL2CacheMaxBytes} * 3 / 10,  // cudaLimitPersistingL2CacheSize: 30% of the most
    kSharedMemoryPerBlockOptin,
};

struct DeviceSettings {
    unsigned flags = 0;
    std::array<std::size_t, kUnnamedLimit + 1> limits = kStartingLimits;
    bool heap_used = false;  // a kernel called malloc(): the heap's size is fixed
};
std::mutex settings_mutex;
std::array<DeviceSettings, kMaxDevices> settings;

DeviceSettings& current_settings() { return settings[current_device()]; }

bool valid_flags(unsigned flags) {
    const unsigned schedule = flags & cudaDeviceScheduleMask;
    return (flags & ~cudaDeviceMask) == 0 && schedule != (cudaDeviceScheduleSpin | cudaDeviceScheduleYield) &&
           schedule <= cudaDeviceScheduleBlockingSync;
}

}  // namespace

std::size_t malloc_heap_bytes(int device) {
    std::lock_guard lock(settings_mutex);
    settings[device].heap_used = true;
    return settings[device].limits[cudaLimitMallocHeapSize];
}

}  // namespace warpdrill::cpu::detail

using namespace warpdrill::cpu::detail;

cudaError_t cudaSetDeviceFlags(unsigned flags) {
    if (!valid_flags(flags)) return record(cudaErrorInvalidValue);
    std::lock_guard lock(settings_mutex);
    current_settings().flags = flags;
    return cudaSuccess;
}

cudaError_t cudaGetDeviceFlags(unsigned* flags) {
    if (!flags) return record(cudaErrorInvalidValue);
    std::lock_guard lock(settings_mutex);
    *flags = current_settings().flags | kAlwaysSet;
    return cudaSuccess;
}

cudaError_t cudaDeviceGetLimit(std::size_t* value, cudaLimit limit) {
    if (!value || limit < 0 || limit > kUnnamedLimit) return record(cudaErrorInvalidValue);
    if (limit == cudaLimitDevRuntimeSyncDepth) return record(cudaErrorUnsupportedLimit);
    std::lock_guard lock(settings_mutex);
    *value = current_settings().limits[limit];
    return cudaSuccess;
}

cudaError_t cudaDeviceSetLimit(cudaLimit limit, std::size_t value) {
    const HostCall call{"cudaDeviceSetLimit", code_offset(__builtin_return_address(0))};
    if (limit < 0 || limit > kUnnamedLimit) return record(cudaErrorInvalidValue);
    if (limit == kUnnamedLimit) return record(cudaErrorNotPermitted);
    if (limit == cudaLimitDevRuntimeSyncDepth) return record(cudaErrorUnsupportedLimit);
    std::lock_guard lock(settings_mutex);
    DeviceSettings& device = current_settings();
    switch (limit) {
        case cudaLimitMallocHeapSize:
            // Fixed once a kernel has used the heap; never below 4 MiB.
            if (device.heap_used) {
                return refuse(call, cudaErrorInvalidValue,
                              warpdrill::messages::text("backend.api.heap_size_fixed"));
            }
            value = std::max(value, kMinHeapBytes);
            break;
        case cudaLimitStackSize: value = (value + 15) / 16 * 16; break;  // whole 16-byte words
        default: break;
    }
    device.limits[limit] = value;
    return cudaSuccess;
}
