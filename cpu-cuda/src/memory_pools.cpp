// Stream-ordered allocation (warpdrill/cpu/memory_pools.h): cudaMallocAsync,
// cudaFreeAsync, and each GPU's one memory pool.
#include <array>
#include <cstdint>
#include <mutex>
#include <set>
#include <type_traits>

#include "allocations.h"
#include "capture.h"
#include "device.h"
#include "device_memory.h"
#include "state.h"
#include "streams.h"
#include "warpdrill/messages.h"

// What a program may set of a pool (cudaMemPoolSetAttribute), as CUDA's
// defaults have it.
struct CUmemPoolHandle_st {
    int device = 0;
    int reuse_follow_event_dependencies = 1;
    int reuse_allow_opportunistic = 1;
    int reuse_allow_internal_dependencies = 1;
    std::uint64_t release_threshold = 0;
};

namespace warpdrill::cpu::detail {
namespace {

struct Pools {
    std::array<CUmemPoolHandle_st, kMaxDevices> defaults;
    std::array<cudaMemPool_t, kMaxDevices> current;
    Pools() {
        for (int device = 0; device < kMaxDevices; ++device) {
            defaults[device].device = device;
            current[device] = &defaults[device];
        }
    }
};

Pools& pools() {
    static Pools instance;
    return instance;
}

// Buffers whose cudaFreeAsync is queued and has not run.
std::mutex freeing_mutex;
std::set<const void*> freeing;

// What every stream-ordered call checks of its stream first.
cudaError_t check_ordered_call(const HostCall& call, cudaStream_t stream) {
    if (check_stream(stream) != cudaSuccess) return record(cudaErrorInvalidResourceHandle);
    if (const cudaError_t error = check_queue(stream, call); error != cudaSuccess) return error;
    if (captures(stream)) {
        return refuse(call, cudaErrorNotSupported,
                      messages::text("backend.api.ordered_allocation_in_capture"));
    }
    return cudaSuccess;
}

// The pool's field that `attribute` names, handed to `visit`; a refusal where the backend has none.
template <class Visit>
cudaError_t with_attribute(const HostCall& call, cudaMemPool_t pool, cudaMemPoolAttr attribute, void* value,
                           Visit visit) {
    if (!pool || !value) return record(cudaErrorInvalidValue);
    switch (attribute) {
        case cudaMemPoolReuseFollowEventDependencies: return visit(pool->reuse_follow_event_dependencies);
        case cudaMemPoolReuseAllowOpportunistic: return visit(pool->reuse_allow_opportunistic);
        case cudaMemPoolReuseAllowInternalDependencies: return visit(pool->reuse_allow_internal_dependencies);
        case cudaMemPoolAttrReleaseThreshold: return visit(pool->release_threshold);
        case cudaMemPoolAttrReservedMemCurrent:
        case cudaMemPoolAttrReservedMemHigh:
        case cudaMemPoolAttrUsedMemCurrent:
        case cudaMemPoolAttrUsedMemHigh:
            return refuse(call, cudaErrorNotSupported, messages::text("backend.api.pool_usage"));
    }
    return record(cudaErrorInvalidValue);
}

}  // namespace
}  // namespace warpdrill::cpu::detail

using namespace warpdrill::cpu::detail;

// The buffer is made in the current GPU's memory, whichever pool is named.
cudaError_t cudaMallocAsync(void** ptr, std::size_t bytes, cudaStream_t stream) {
    const HostCall call = WARPDRILL_HOST_CALL("cudaMallocAsync");
    if (const cudaError_t error = check_ordered_call(call, stream); error != cudaSuccess) return error;
    return allocate_buffer(ptr, bytes, false);
}

cudaError_t cudaMallocFromPoolAsync(void** ptr, std::size_t bytes, cudaMemPool_t pool, cudaStream_t stream) {
    const HostCall call = WARPDRILL_HOST_CALL("cudaMallocFromPoolAsync");
    if (!pool) return record(cudaErrorInvalidValue);
    if (const cudaError_t error = check_ordered_call(call, stream); error != cudaSuccess) return error;
    return allocate_buffer(ptr, bytes, false);
}

cudaError_t cudaFreeAsync(void* ptr, cudaStream_t stream) {
    const HostCall call = WARPDRILL_HOST_CALL("cudaFreeAsync");
    if (const cudaError_t error = check_ordered_call(call, stream); error != cudaSuccess) return error;
    if (!ptr) return cudaSuccess;  // as on an H200 (results/memory-pools-h200.txt)
    {
        std::lock_guard lock(freeing_mutex);
        if (freeing.contains(ptr))
            return refuse(call, cudaErrorInvalidValue, warpdrill::messages::text("backend.api.double_free"));
    }
    const auto address = reinterpret_cast<std::uintptr_t>(ptr);
    const DeviceAllocation* allocation = device_allocation_at(address);
    if (!allocation || allocation->start != address || allocation->device_heap) {
        return refuse(call, cudaErrorInvalidValue, free_problem(ptr));
    }
    {
        std::lock_guard lock(freeing_mutex);
        freeing.insert(ptr);
    }
    enqueue(stream, WorkKind::nothing, [ptr] {
        {
            std::lock_guard lock(freeing_mutex);
            freeing.erase(ptr);
        }
        free_device(ptr);
    });
    return cudaSuccess;
}

cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t* pool, int device) {
    if (!pool) return record(cudaErrorInvalidValue);
    if (!valid_device(device)) return record(cudaErrorInvalidDevice);
    *pool = &pools().defaults[device];
    return cudaSuccess;
}

cudaError_t cudaDeviceGetMemPool(cudaMemPool_t* pool, int device) {
    if (!pool) return record(cudaErrorInvalidValue);
    if (!valid_device(device)) return record(cudaErrorInvalidDevice);
    *pool = pools().current[device];
    return cudaSuccess;
}

cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t pool) {
    if (!valid_device(device)) return record(cudaErrorInvalidDevice);
    if (!pool || pool->device != device) return record(cudaErrorInvalidValue);
    pools().current[device] = pool;
    return cudaSuccess;
}

cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attribute, void* value) {
    return with_attribute(WARPDRILL_HOST_CALL("cudaMemPoolSetAttribute"), pool, attribute, value,
                          [&](auto& field) {
                              field = *static_cast<const std::remove_reference_t<decltype(field)>*>(value);
                              return cudaSuccess;
                          });
}

cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attribute, void* value) {
    return with_attribute(WARPDRILL_HOST_CALL("cudaMemPoolGetAttribute"), pool, attribute, value,
                          [&](auto& field) {
                              *static_cast<std::remove_reference_t<decltype(field)>*>(value) = field;
                              return cudaSuccess;
                          });
}

// The backend keeps no memory back for a pool: there is nothing to trim.
cudaError_t cudaMemPoolTrimTo(cudaMemPool_t pool, std::size_t) {
    return pool ? cudaSuccess : record(cudaErrorInvalidValue);
}
