// The runtime API on the CPU: device memory is host memory (device_memory.h),
// copies are memcpy, launches finish before they return.
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>

#include "device.h"
#include "device_memory.h"
#include "state.h"

namespace warpdrill::cpu::detail {
namespace {
std::atomic<cudaError_t> last_error{cudaSuccess};

cudaError_t record(cudaError_t error) {
    if (error != cudaSuccess) last_error = error;
    return error;
}
}  // namespace

void set_last_error(cudaError_t error) { record(error); }

}  // namespace warpdrill::cpu::detail

using warpdrill::cpu::detail::record;

struct CUevent_st {
    std::chrono::steady_clock::time_point time;
    bool recorded = false;
};

cudaError_t cudaMalloc(void** ptr, std::size_t bytes) {
    if (!ptr) return record(cudaErrorInvalidValue);
    *ptr = nullptr;
    if (bytes == 0) return cudaSuccess;
    void* memory = warpdrill::cpu::detail::allocate_device(bytes);
    if (!memory) return record(cudaErrorMemoryAllocation);
    *ptr = memory;
    return cudaSuccess;
}

cudaError_t cudaFree(void* ptr) {
    if (!ptr) return cudaSuccess;
    return warpdrill::cpu::detail::free_device(ptr) ? cudaSuccess : record(cudaErrorInvalidDevicePointer);
}

cudaError_t cudaMemcpy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind) {
    if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault) return record(cudaErrorInvalidValue);
    if (bytes == 0) return cudaSuccess;
    if (!dst || !src) return record(cudaErrorInvalidValue);
    std::memmove(dst, src, bytes);
    return cudaSuccess;
}

cudaError_t cudaMemset(void* dst, int value, std::size_t bytes) {
    if (bytes == 0) return cudaSuccess;
    if (!dst) return record(cudaErrorInvalidValue);
    std::memset(dst, value, bytes);
    return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize() { return cudaSuccess; }

cudaError_t cudaGetLastError() { return warpdrill::cpu::detail::last_error.exchange(cudaSuccess); }
cudaError_t cudaPeekAtLastError() { return warpdrill::cpu::detail::last_error.load(); }

const char* cudaGetErrorName(cudaError_t error) {
    switch (error) {
        case cudaSuccess: return "cudaSuccess";
        case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
        case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
        case cudaErrorInvalidConfiguration: return "cudaErrorInvalidConfiguration";
        case cudaErrorInvalidDevicePointer: return "cudaErrorInvalidDevicePointer";
        case cudaErrorInvalidResourceHandle: return "cudaErrorInvalidResourceHandle";
        case cudaErrorNotReady: return "cudaErrorNotReady";
        case cudaErrorMisalignedAddress: return "cudaErrorMisalignedAddress";
        case cudaErrorLaunchFailure: return "cudaErrorLaunchFailure";
        case cudaErrorCooperativeLaunchTooLarge: return "cudaErrorCooperativeLaunchTooLarge";
        case cudaErrorNotSupported: return "cudaErrorNotSupported";
        case cudaErrorInvalidClusterSize: return "cudaErrorInvalidClusterSize";
    }
    return "cudaErrorUnknown";
}

const char* cudaGetErrorString(cudaError_t error) {
    switch (error) {
        case cudaSuccess: return "no error";
        case cudaErrorInvalidValue: return "invalid argument";
        case cudaErrorMemoryAllocation: return "out of memory";
        case cudaErrorInvalidConfiguration: return "invalid configuration argument";
        case cudaErrorInvalidDevicePointer: return "invalid device pointer";
        case cudaErrorInvalidResourceHandle: return "invalid resource handle";
        case cudaErrorNotReady: return "device not ready";
        case cudaErrorMisalignedAddress: return "misaligned address";
        case cudaErrorLaunchFailure: return "unspecified launch failure";
        case cudaErrorCooperativeLaunchTooLarge: return "too many blocks in cooperative launch";
        case cudaErrorNotSupported: return "operation not supported";
        case cudaErrorInvalidClusterSize:
            return "a kernel launch error has occurred due to cluster misconfiguration";
    }
    return "unknown error";
}

cudaError_t cudaGetDeviceCount(int* count) {
    if (!count) return record(cudaErrorInvalidValue);
    *count = 1;
    return cudaSuccess;
}

cudaError_t cudaGetDevice(int* device) {
    if (!device) return record(cudaErrorInvalidValue);
    *device = 0;
    return cudaSuccess;
}

cudaError_t cudaSetDevice(int device) { return device == 0 ? cudaSuccess : record(cudaErrorInvalidValue); }

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
    if (!prop || device != 0) return record(cudaErrorInvalidValue);
    *prop = {};
    std::strncpy(prop->name, "warpdrill CPU backend", sizeof prop->name - 1);
    warpdrill::cpu::detail::describe_multiprocessors(prop);
    prop->warpSize = 32;
    prop->maxThreadsPerBlock = 1024;
    prop->maxThreadsDim[0] = prop->maxThreadsDim[1] = 1024;
    prop->maxThreadsDim[2] = 64;
    prop->maxGridSize[0] = 0x7fffffff;
    prop->maxGridSize[1] = prop->maxGridSize[2] = 65535;
    prop->sharedMemPerBlock = 48 * 1024;
    prop->totalGlobalMem = std::size_t{1} << 32;
    return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t* event) {
    if (!event) return record(cudaErrorInvalidValue);
    *event = new CUevent_st;
    return cudaSuccess;
}

cudaError_t cudaEventDestroy(cudaEvent_t event) {
    if (!event) return record(cudaErrorInvalidResourceHandle);
    delete event;
    return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t) {
    if (!event) return record(cudaErrorInvalidResourceHandle);
    event->time = std::chrono::steady_clock::now();
    event->recorded = true;
    return cudaSuccess;
}

cudaError_t cudaEventSynchronize(cudaEvent_t event) {
    return event ? cudaSuccess : record(cudaErrorInvalidResourceHandle);
}

cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
    if (!ms || !start || !end) return record(cudaErrorInvalidValue);
    if (!start->recorded || !end->recorded) return record(cudaErrorInvalidResourceHandle);
    *ms = std::chrono::duration<float, std::milli>(end->time - start->time).count();
    return cudaSuccess;
}
