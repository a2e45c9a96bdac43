// The runtime API on the CPU: device memory is host memory (device_memory.h),
// and so is pinned memory (host_memory.h); copies are memcpy, queued on
// streams as kernels are (streams.h); the GPUs the backend imitates (device.h).
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "allocations.h"
#include "capture.h"
#include "copies.h"
#include "device.h"
#include "device_memory.h"
#include "host_memory.h"
#include "program.h"
#include "state.h"
#include "streams.h"
#include "warnings.h"
#include "warpdrill/messages.h"

namespace warpdrill::cpu::detail {
namespace {
std::atomic<cudaError_t> last_error{cudaSuccess};

bool in_device_memory(const void* ptr) { return is_device_address(reinterpret_cast<std::uintptr_t>(ptr)); }

// Memory that malloc() in a kernel gave (device_heap.cpp).
bool in_device_heap(const void* ptr) {
    const DeviceAllocation* allocation = device_allocation_at(reinterpret_cast<std::uintptr_t>(ptr));
    return allocation && allocation->device_heap;
}

}  // namespace

// Memory that a GPU's copy engine reaches itself, device memory and pinned
// host memory: an asynchronous copy reads and writes it when its turn comes.
// Pageable host memory goes through a staging buffer instead, when the copy
// is queued.
bool reached_by_copy_engine(const void* ptr) { return in_device_memory(ptr) || is_pinned(ptr); }

namespace {

// Why CUDA refuses a copy or memset of `bytes` at `ptr` (cudaErrorInvalidValue),
// or "": it reaches past its buffer, or into one that cudaFree released. Host
// memory is not checked.
std::string range_problem(const void* ptr, std::size_t bytes) {
    const auto start = reinterpret_cast<std::uintptr_t>(ptr);
    if (!is_device_address(start)) return "";
    const DeviceAllocation* allocation = device_allocation_at(start);
    if (!allocation) {
        return messages::text(freed_buffer_at(start) ? "backend.api.into_freed_buffer"
                                                     : "backend.api.into_no_buffer");
    }
    if (allocation->fits(start, bytes)) return "";
    return messages::text("backend.api.past_end", {{"bytes", bytes},
                                                   {"start", start - allocation->start},
                                                   {"buffer", buffer_description(*allocation)}});
}

}  // namespace

// cudaMemset writes device, managed or pinned memory; pageable host memory
// it refuses, as an H200 did (results/memcpy-probe-h200.txt).
cudaError_t check_memset(const HostCall& call, const void* ptr, std::size_t bytes) {
    if (!ptr) return refuse(call, cudaErrorInvalidValue, messages::text("backend.api.null_pointer"));
    if (!reached_by_copy_engine(ptr)) {
        return refuse(call, cudaErrorInvalidValue, messages::text("backend.api.memset_pageable"));
    }
    const std::string problem = range_problem(ptr, bytes);
    return problem.empty() ? cudaSuccess : refuse(call, cudaErrorInvalidValue, problem);
}

namespace {

const char* kind_name(cudaMemcpyKind kind) {
    static constexpr const char* kNames[] = {"cudaMemcpyHostToHost", "cudaMemcpyHostToDevice",
                                             "cudaMemcpyDeviceToHost", "cudaMemcpyDeviceToDevice",
                                             "cudaMemcpyDefault"};
    return kNames[kind];
}

// Whether a copy's kind says that its destination (or its source) is in
// device memory. With unified addressing a GPU takes the pointers for what
// they are, whatever the kind says, but for one mismatch: a side that the
// kind calls device memory and that is pageable host memory is refused.
// Pinned host memory passes for either; a side the kind calls host memory
// may be anything (results/memcpy-probe-h200.txt).
bool kind_says_device(cudaMemcpyKind kind, bool destination) {
    return kind == cudaMemcpyDeviceToDevice ||
           kind == (destination ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost);
}

}  // namespace

cudaError_t check_copy(const HostCall& call, void* dst, const void* src, std::size_t bytes,
                       cudaMemcpyKind kind) {
    struct Side {
        const char* name;
        const void* ptr;
        bool destination;
    };
    for (const auto& [side, ptr, destination] :
         {Side{"backend.api.destination", dst, true}, Side{"backend.api.source", src, false}}) {
        if (!ptr) {
            return refuse(call, cudaErrorInvalidValue,
                          messages::text("backend.api.side_null", {{"side", messages::text(side)}}));
        }
        if (kind_says_device(kind, destination) && !reached_by_copy_engine(ptr)) {
            return refuse(call, cudaErrorInvalidValue,
                          messages::text("backend.api.pageable_as_device",
                                         {{"side", messages::text(side)}, {"kind", kind_name(kind)}}));
        }
        std::string problem = range_problem(ptr, bytes);
        if (problem.empty() && in_device_heap(ptr)) problem = messages::text("backend.api.device_heap");
        if (!problem.empty()) {
            return refuse(call, cudaErrorInvalidValue,
                          messages::text("backend.api.side_problem",
                                         {{"side", messages::text(side)}, {"problem", problem}}));
        }
    }
    return cudaSuccess;
}

// What a copy tells the checks: which device bytes now hold a value
// (initcheck), and how far a host array reaches (a kernel given its pointer).
void note_copy_made(void* dst, const void* src, std::size_t bytes, const HostCall& call) {
    note_copy(dst, src, bytes, call);
    for (const void* ptr : {static_cast<const void*>(dst), src}) {
        if (!reached_by_copy_engine(ptr)) note_host_range(ptr, bytes);
    }
}

std::string free_problem(const void* ptr) {
    const auto address = reinterpret_cast<std::uintptr_t>(ptr);
    if (const std::optional<FreedBuffer> freed = freed_buffer_at(address); freed && freed->start == address) {
        return messages::text("backend.api.double_free");
    }
    if (const DeviceAllocation* allocation = device_allocation_at(address)) {
        return messages::text("backend.api.not_buffer_start", {{"byte", address - allocation->start},
                                                               {"buffer", buffer_description(*allocation)}});
    }
    if (freed_buffer_at(address)) return messages::text("backend.api.inside_freed_buffer");
    return messages::text("backend.api.not_from_malloc");
}

namespace {

// A peer copy names the GPU of each side: each device pointer must be in that GPU's memory.
cudaError_t check_peer(const void* ptr, int device) {
    if (!valid_device(device)) return cudaErrorInvalidDevice;
    if (!in_device_memory(ptr)) return cudaSuccess;
    const DeviceAllocation* allocation = device_allocation_at(reinterpret_cast<std::uintptr_t>(ptr));
    return allocation && allocation->device != device ? cudaErrorInvalidValue : cudaSuccess;
}

// What cudaMemcpyPeer and cudaMemcpyPeerAsync check: each side's device, then
// the copy itself where there are bytes to copy.
cudaError_t check_peer_copy(const HostCall& call, void* dst, int dst_device, const void* src, int src_device,
                            std::size_t bytes) {
    for (const cudaError_t error : {check_peer(dst, dst_device), check_peer(src, src_device)}) {
        if (error != cudaSuccess) return record(error);
    }
    if (bytes == 0) return cudaSuccess;
    return check_copy(call, dst, src, bytes, cudaMemcpyDeviceToDevice);
}

}  // namespace

// The copy of `rows` as one piece of stream work. A source in pageable host
// memory is read now, as CUDA reads it before the call returns, unless the
// copy is read when it runs: a copy the host waits for, or a captured one (a
// graph's copy reads it each time the graph runs).
std::function<void()> copy_work(const std::vector<Row>& rows, std::size_t width, const HostCall& call,
                                bool read_when_run) {
    if (read_when_run || reached_by_copy_engine(rows.front().src)) {
        return [=] {
            for (const Row& row : rows) {
                check_copy_source(row.dst, row.src, width, call);
                std::memmove(row.dst, row.src, width);
            }
        };
    }
    auto staged = std::make_shared<std::vector<std::byte>>();
    for (const Row& row : rows) staged->insert(staged->end(), row.src, row.src + width);
    return [=] {
        for (std::size_t r = 0; r < rows.size(); ++r)
            std::memcpy(rows[r].dst, staged->data() + r * width, width);
    };
}

void queue_copy(const std::vector<Row>& rows, std::size_t width, cudaStream_t stream, const HostCall& call) {
    for (const Row& row : rows) note_copy_made(row.dst, row.src, width, call);
    const WorkSerial serial = enqueue(stream, WorkKind::copy, copy_work(rows, width, call, captures(stream)));
    if (!reached_by_copy_engine(rows.front().dst)) {
        count_host_wait();
        finish(serial);
    }
}

void wait_for_copy(const std::vector<Row>& rows, std::size_t width, const HostCall& call) {
    count_host_wait();
    for (const Row& row : rows) note_copy_made(row.dst, row.src, width, call);
    finish(enqueue(nullptr, WorkKind::copy, copy_work(rows, width, call, /*read_when_run=*/true)));
}

std::function<void()> memset_work(const std::vector<Row>& rows, std::size_t width, int value) {
    return [=] {
        for (const Row& row : rows) std::memset(row.dst, value, width);
    };
}

void queue_memset(const std::vector<Row>& rows, std::size_t width, int value, cudaStream_t stream,
                  const HostCall& call) {
    for (const Row& row : rows) note_copy(row.dst, nullptr, width, call);
    enqueue(stream, WorkKind::memset, memset_work(rows, width, value));
}

void wait_for_memset(const std::vector<Row>& rows, std::size_t width, int value, const HostCall& call) {
    count_host_wait();
    for (const Row& row : rows) note_copy(row.dst, nullptr, width, call);
    finish(enqueue(nullptr, WorkKind::memset, memset_work(rows, width, value)));
}

// compute-sanitizer reports every CUDA call that returns an error, even one
// whose result the program ignores ("Program hit cudaErrorInvalidValue ... on
// CUDA API call to cudaMemcpy"); the backend says why, once for each call
// site, as a warning.
cudaError_t refuse(const HostCall& call, cudaError_t error, const std::string& why) {
    warn(std::string("api ") + call.name + " " + std::to_string(call.code), [&] {
        const SourcePlace place = source_places({call.code})[0];
        if (!place.line) {
            return messages::text("backend.api.refused_unknown_place",
                                  {{"call", call.name}, {"error", cudaGetErrorName(error)}, {"why", why}});
        }
        return messages::text("backend.api.refused", {{"call", call.name},
                                                      {"where", to_string(place)},
                                                      {"error", cudaGetErrorName(error)},
                                                      {"why", why}});
    });
    return record(error);
}

void set_last_error(cudaError_t error) { last_error = error; }

cudaError_t allocate_buffer(void** ptr, std::size_t bytes, bool managed) {
    if (!ptr) return record(cudaErrorInvalidValue);
    *ptr = nullptr;
    if (bytes == 0) return cudaSuccess;
    void* memory = allocate_device(bytes, current_device());
    if (!memory) return record(cudaErrorMemoryAllocation);
    DeviceAllocation* allocation = device_allocation_at(reinterpret_cast<std::uintptr_t>(memory));
    if (managed) {
        // Zeros until written (fresh pages, as an H200 gives them too), and
        // the host's stores to it are not seen: initcheck reports no read of it.
        allocation->managed = true;
        allocation->written.mark_all();
    }
    if (leak_check()) allocation->allocated_at = call_stack();
    *ptr = memory;
    return cudaSuccess;
}

}  // namespace warpdrill::cpu::detail

using namespace warpdrill::cpu::detail;

cudaError_t cudaMalloc(void** ptr, std::size_t bytes) {
    const HostCall call = WARPDRILL_HOST_CALL("cudaMalloc");
    if (const cudaError_t error = check_unsafe_call(call); error != cudaSuccess) return error;
    return allocate_buffer(ptr, bytes, false);
}

// Flags as an H200 takes them (cpu-cuda/tests/gpu/runtime_probe.cu,
// results/runtime-probe-h200.txt): global or host attachment;
// cudaMemAttachSingle is for cudaStreamAttachMemAsync only.
cudaError_t cudaMallocManaged(void** ptr, std::size_t bytes, unsigned flags) {
    if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost) return record(cudaErrorInvalidValue);
    const HostCall call = WARPDRILL_HOST_CALL("cudaMallocManaged");
    if (const cudaError_t error = check_unsafe_call(call); error != cudaSuccess) return error;
    return allocate_buffer(ptr, bytes, true);
}

namespace warpdrill::cpu::detail {

// The imitated GPUs share one copy of each variable (a GPU program has one
// per GPU), in GPU 0's memory.
void* allocate_device_variable(std::size_t bytes, std::size_t element_bytes, const char* name,
                               const char* space) {
    void* memory = allocate_device(bytes, 0);
    if (!memory) {
        const std::string why = messages::text("backend.api.no_memory_for_variable",
                                               {{"space", space}, {"variable", name}, {"bytes", bytes}});
        std::fprintf(stderr, "%s\n", why.c_str());
        std::abort();
    }
    DeviceAllocation* allocation = device_allocation_at(reinterpret_cast<std::uintptr_t>(memory));
    allocation->variable = name;
    allocation->space = space;
    allocation->element_bytes = element_bytes;
    allocation->written.mark_all();  // zeros, or its initializer, from the start
    return memory;
}

// cudaMemcpy's work, for it and the copies to and from a variable.
cudaError_t copy_and_wait(const HostCall& call, void* dst, const void* src, std::size_t bytes,
                          cudaMemcpyKind kind) {
    if (!is_memcpy_kind(kind)) return record(cudaErrorInvalidMemcpyDirection);
    if (bytes == 0) return cudaSuccess;
    if (const cudaError_t error = check_copy(call, dst, src, bytes, kind); error != cudaSuccess) return error;
    if (const cudaError_t error = check_queue(nullptr, call); error != cudaSuccess) return error;
    wait_for_copy({{dst, src}}, bytes, call);
    return cudaSuccess;
}

// A copy to or from a __device__ or __constant__ variable: a kind that calls
// the variable's side host memory is refused (cudaErrorInvalidMemcpyDirection),
// and the other side is held to the kind as cudaMemcpy holds it
// (results/memcpy-probe-h200.txt).
cudaError_t copy_symbol(bool to_symbol, void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind) {
    const HostCall call{to_symbol ? "cudaMemcpyToSymbol" : "cudaMemcpyFromSymbol",
                        code_offset(__builtin_return_address(0))};
    if (is_memcpy_kind(kind) && kind != cudaMemcpyDefault &&
        !kind_says_device(kind, /*destination=*/to_symbol)) {
        const char* taken = to_symbol ? "cudaMemcpyHostToDevice" : "cudaMemcpyDeviceToHost";
        return refuse(call, cudaErrorInvalidMemcpyDirection,
                      messages::text("backend.api.symbol_as_host",
                                     {{"kind", kind_name(kind)}, {"call", call.name}, {"taken", taken}}));
    }
    return copy_and_wait(call, dst, src, bytes, kind);
}

}  // namespace warpdrill::cpu::detail

const int warpSize = 32;

// As on a GPU, freeing waits for the work queued before. The error codes of
// a pointer of the wrong kind are an H100's (cpu-cuda/tests/gpu/runtime_probe.cu).
cudaError_t cudaFree(void* ptr) {
    const HostCall call = WARPDRILL_HOST_CALL("cudaFree");
    if (const cudaError_t error = check_unsafe_call(call); error != cudaSuccess) return error;
    if (!ptr) return cudaSuccess;
    if (is_pinned(ptr)) {
        return refuse(call, cudaErrorInvalidValue, warpdrill::messages::text("backend.api.pinned_memory"));
    }
    if (in_device_heap(ptr)) {
        return refuse(call, cudaErrorInvalidValue, warpdrill::messages::text("backend.api.device_heap"));
    }
    finish_all();
    if (free_device(ptr)) return cudaSuccess;
    return refuse(call, cudaErrorInvalidValue, free_problem(ptr));
}

cudaError_t cudaHostAlloc(void** ptr, std::size_t bytes, unsigned flags) {
    constexpr unsigned kKnownFlags = cudaHostAllocPortable | cudaHostAllocMapped | cudaHostAllocWriteCombined;
    if (!ptr || (flags & ~kKnownFlags) != 0) return record(cudaErrorInvalidValue);
    *ptr = nullptr;
    if (bytes == 0) return cudaSuccess;
    void* memory = allocate_pinned(bytes);
    if (!memory) return record(cudaErrorMemoryAllocation);
    *ptr = memory;
    return cudaSuccess;
}

cudaError_t cudaMallocHost(void** ptr, std::size_t bytes) {
    return cudaHostAlloc(ptr, bytes, cudaHostAllocDefault);
}

cudaError_t cudaFreeHost(void* ptr) {
    if (!ptr) return cudaSuccess;
    if (!is_pinned(ptr)) return record(cudaErrorInvalidValue);
    finish_all();  // queued copies may still read or write it
    return free_pinned(ptr) ? cudaSuccess : record(cudaErrorInvalidValue);
}

// Registration as an H200 answered it (results/host-runtime-probe-h200.txt).
cudaError_t cudaHostRegister(void* ptr, std::size_t bytes, unsigned flags) {
    const HostCall call = WARPDRILL_HOST_CALL("cudaHostRegister");
    constexpr unsigned kPageableFlags =
        cudaHostRegisterPortable | cudaHostRegisterMapped | cudaHostRegisterReadOnly;
    if (!ptr || bytes == 0)
        return refuse(call, cudaErrorInvalidValue, warpdrill::messages::text("backend.api.no_range"));
    if ((flags & ~kPageableFlags) != 0) {
        return refuse(call, cudaErrorInvalidValue, warpdrill::messages::text("backend.api.register_flags"));
    }
    if (in_device_memory(ptr) || is_pinned_allocation(ptr)) {
        return refuse(call, cudaErrorInvalidValue,
                      warpdrill::messages::text("backend.api.register_not_pageable"));
    }
    if (register_range(ptr, bytes)) return cudaSuccess;
    return refuse(call, cudaErrorHostMemoryAlreadyRegistered,
                  warpdrill::messages::text("backend.api.registered_before"));
}

cudaError_t cudaHostUnregister(void* ptr) {
    const HostCall call = WARPDRILL_HOST_CALL("cudaHostUnregister");
    if (!ptr)
        return refuse(call, cudaErrorInvalidValue, warpdrill::messages::text("backend.api.null_pointer"));
    if (is_pinned_allocation(ptr)) {
        return refuse(call, cudaErrorInvalidValue, warpdrill::messages::text("backend.api.pinned_memory"));
    }
    finish_all();  // queued copies may still read or write it as pinned memory
    switch (unregister_range(ptr)) {
        case Unregistered::done: return cudaSuccess;
        case Unregistered::inside_a_range:
            return refuse(call, cudaErrorInvalidValue,
                          warpdrill::messages::text("backend.api.inside_registered_range"));
        case Unregistered::not_registered: break;
    }
    return refuse(call, cudaErrorHostMemoryNotRegistered,
                  warpdrill::messages::text("backend.api.not_registered"));
}

cudaError_t cudaHostGetDevicePointer(void** device_ptr, void* host_ptr, unsigned flags) {
    if (!device_ptr || flags != 0 || !is_pinned(host_ptr)) return record(cudaErrorInvalidValue);
    *device_ptr = host_ptr;
    return cudaSuccess;
}

cudaError_t cudaMemcpy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind) {
    return copy_and_wait({"cudaMemcpy", code_offset(__builtin_return_address(0))}, dst, src, bytes, kind);
}

cudaError_t cudaMemcpyAsync(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind,
                            cudaStream_t stream) {
    if (!is_memcpy_kind(kind)) return record(cudaErrorInvalidMemcpyDirection);
    if (check_stream(stream) != cudaSuccess) return record(cudaErrorInvalidResourceHandle);
    if (bytes == 0) return cudaSuccess;
    const HostCall call = WARPDRILL_HOST_CALL("cudaMemcpyAsync");
    if (const cudaError_t error = check_copy(call, dst, src, bytes, kind); error != cudaSuccess) return error;
    if (const cudaError_t error = check_queue(stream, call); error != cudaSuccess) return error;
    queue_copy({{dst, src}}, bytes, stream, call);
    return cudaSuccess;
}

cudaError_t cudaMemset(void* dst, int value, std::size_t bytes) {
    if (bytes == 0) return cudaSuccess;
    const HostCall call = WARPDRILL_HOST_CALL("cudaMemset");
    if (const cudaError_t error = check_memset(call, dst, bytes); error != cudaSuccess) return error;
    if (const cudaError_t error = check_queue(nullptr, call); error != cudaSuccess) return error;
    wait_for_memset({{dst, nullptr}}, bytes, value, call);
    return cudaSuccess;
}

cudaError_t cudaMemsetAsync(void* dst, int value, std::size_t bytes, cudaStream_t stream) {
    if (check_stream(stream) != cudaSuccess) return record(cudaErrorInvalidResourceHandle);
    if (bytes == 0) return cudaSuccess;
    const HostCall call = WARPDRILL_HOST_CALL("cudaMemsetAsync");
    if (const cudaError_t error = check_memset(call, dst, bytes); error != cudaSuccess) return error;
    if (const cudaError_t error = check_queue(stream, call); error != cudaSuccess) return error;
    queue_memset({{dst, nullptr}}, bytes, value, stream, call);
    return cudaSuccess;
}

// Stricter than a GPU may be: a device pointer that is not in the memory of
// the GPU named beside it is refused, not copied by its address.
cudaError_t cudaMemcpyPeerAsync(void* dst, int dst_device, const void* src, int src_device, std::size_t bytes,
                                cudaStream_t stream) {
    if (check_stream(stream) != cudaSuccess) return record(cudaErrorInvalidResourceHandle);
    const HostCall call = WARPDRILL_HOST_CALL("cudaMemcpyPeerAsync");
    cudaError_t error = check_peer_copy(call, dst, dst_device, src, src_device, bytes);
    if (error == cudaSuccess && bytes > 0) error = check_queue(stream, call);
    if (error != cudaSuccess || bytes == 0) return error;
    queue_copy({{dst, src}}, bytes, stream, call);
    return cudaSuccess;
}

// Ordered after everything queued on the current GPU and on both GPUs of the copy.
cudaError_t cudaMemcpyPeer(void* dst, int dst_device, const void* src, int src_device, std::size_t bytes) {
    const HostCall call = WARPDRILL_HOST_CALL("cudaMemcpyPeer");
    const cudaError_t error = check_peer_copy(call, dst, dst_device, src, src_device, bytes);
    if (error != cudaSuccess || bytes == 0) return error;
    count_host_wait();
    for (const int device : {current_device(), dst_device, src_device}) finish_device(device);
    note_copy_made(dst, src, bytes, call);
    std::memmove(dst, src, bytes);
    return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int* version) {
    if (!version) return record(cudaErrorInvalidValue);
    *version = CUDART_VERSION;
    return cudaSuccess;
}

cudaError_t cudaDriverGetVersion(int* version) { return cudaRuntimeGetVersion(version); }

cudaError_t cudaGetLastError() { return warpdrill::cpu::detail::last_error.exchange(cudaSuccess); }
cudaError_t cudaPeekAtLastError() { return warpdrill::cpu::detail::last_error.load(); }

namespace {

// Each error's name and the words a GPU's runtime gives for it.
struct ErrorText {
    cudaError_t error;
    const char* name;
    const char* text;
};
// The name is the enumerator's own spelling.
#define WARPDRILL_ERROR(error, text) \
    { error, #error, text }
constexpr ErrorText kErrorTexts[] = {
    WARPDRILL_ERROR(cudaSuccess, "no error"),
    WARPDRILL_ERROR(cudaErrorInvalidValue, "invalid argument"),
    WARPDRILL_ERROR(cudaErrorMemoryAllocation, "out of memory"),
    WARPDRILL_ERROR(cudaErrorInvalidConfiguration, "invalid configuration argument"),
    WARPDRILL_ERROR(cudaErrorInvalidPitchValue, "invalid pitch argument"),
    WARPDRILL_ERROR(cudaErrorInvalidDevicePointer, "invalid device pointer"),
    WARPDRILL_ERROR(cudaErrorInvalidMemcpyDirection, "invalid copy direction for memcpy"),
    WARPDRILL_ERROR(cudaErrorInvalidDeviceFunction, "invalid device function"),
    WARPDRILL_ERROR(cudaErrorInvalidDevice, "invalid device ordinal"),
    WARPDRILL_ERROR(cudaErrorUnsupportedLimit, "limit is not supported on this architecture"),
    WARPDRILL_ERROR(cudaErrorPeerAccessUnsupported, "peer access is not supported between these two devices"),
    WARPDRILL_ERROR(cudaErrorInvalidResourceHandle, "invalid resource handle"),
    WARPDRILL_ERROR(cudaErrorIllegalState, "the operation cannot be performed in the present state"),
    WARPDRILL_ERROR(cudaErrorNotReady, "device not ready"),
    WARPDRILL_ERROR(cudaErrorPeerAccessAlreadyEnabled, "peer access is already enabled"),
    WARPDRILL_ERROR(cudaErrorPeerAccessNotEnabled, "peer access has not been enabled"),
    WARPDRILL_ERROR(cudaErrorAssert, "device-side assert triggered"),
    WARPDRILL_ERROR(cudaErrorHostMemoryAlreadyRegistered,
                    "part or all of the requested memory range is already mapped"),
    WARPDRILL_ERROR(cudaErrorHostMemoryNotRegistered,
                    "pointer does not correspond to a registered memory region"),
    WARPDRILL_ERROR(cudaErrorIllegalInstruction, "an illegal instruction was encountered"),
    WARPDRILL_ERROR(cudaErrorMisalignedAddress, "misaligned address"),
    WARPDRILL_ERROR(cudaErrorLaunchFailure, "unspecified launch failure"),
    WARPDRILL_ERROR(cudaErrorCooperativeLaunchTooLarge, "too many blocks in cooperative launch"),
    WARPDRILL_ERROR(cudaErrorNotPermitted, "operation not permitted"),
    WARPDRILL_ERROR(cudaErrorNotSupported, "operation not supported"),
    WARPDRILL_ERROR(cudaErrorStreamCaptureUnsupported, "operation not permitted when stream is capturing"),
    WARPDRILL_ERROR(cudaErrorStreamCaptureInvalidated,
                    "operation failed due to a previous error during capture"),
    WARPDRILL_ERROR(cudaErrorStreamCaptureMerge,
                    "operation would result in a merge of separate capture sequences"),
    WARPDRILL_ERROR(cudaErrorStreamCaptureUnmatched, "capture was not ended in the same stream as it began"),
    WARPDRILL_ERROR(cudaErrorStreamCaptureUnjoined, "capturing stream has unjoined work"),
    WARPDRILL_ERROR(cudaErrorStreamCaptureIsolation,
                    "dependency created on uncaptured work in another stream"),
    WARPDRILL_ERROR(cudaErrorStreamCaptureImplicit,
                    "operation would make the legacy stream depend on a capturing blocking stream"),
    WARPDRILL_ERROR(cudaErrorCapturedEvent,
                    "operation not permitted on an event last recorded in a capturing stream"),
    WARPDRILL_ERROR(cudaErrorStreamCaptureWrongThread,
                    "attempt to terminate a thread-local capture sequence from another thread"),
    WARPDRILL_ERROR(
        cudaErrorGraphExecUpdateFailure,
        "the graph update was not performed because it included changes which violated constraints "
        "specific to instantiated graph update"),
    WARPDRILL_ERROR(cudaErrorInvalidClusterSize,
                    "a kernel launch error has occurred due to cluster misconfiguration"),
    WARPDRILL_ERROR(cudaErrorUnknown, "unknown error"),
};
#undef WARPDRILL_ERROR
const ErrorText* text_of(cudaError_t error) {
    for (const ErrorText& text : kErrorTexts) {
        if (text.error == error) return &text;
    }
    return nullptr;
}

}  // namespace

const char* cudaGetErrorName(cudaError_t error) {
    const ErrorText* text = text_of(error);
    return text ? text->name : "cudaErrorUnknown";
}

const char* cudaGetErrorString(cudaError_t error) {
    const ErrorText* text = text_of(error);
    return text ? text->text : "unknown error";
}

cudaError_t cudaGetDeviceCount(int* count) {
    if (!count) return record(cudaErrorInvalidValue);
    *count = device_count();
    return cudaSuccess;
}

cudaError_t cudaGetDevice(int* device) {
    if (!device) return record(cudaErrorInvalidValue);
    *device = current_device();
    return cudaSuccess;
}

cudaError_t cudaSetDevice(int device) {
    if (!valid_device(device)) return record(cudaErrorInvalidDevice);
    set_current_device(device);
    return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
    if (!prop) return record(cudaErrorInvalidValue);
    if (!valid_device(device)) return record(cudaErrorInvalidDevice);
    *prop = device_properties();
    return cudaSuccess;
}

cudaError_t cudaDeviceCanAccessPeer(int* can_access, int device, int peer_device) {
    if (!can_access) return record(cudaErrorInvalidValue);
    if (!valid_device(device) || !valid_device(peer_device)) return record(cudaErrorInvalidDevice);
    *can_access = can_access_peer(device, peer_device);
    return cudaSuccess;
}

cudaError_t cudaDeviceEnablePeerAccess(int peer_device, unsigned flags) {
    if (flags != 0) return record(cudaErrorInvalidValue);
    return enable_peer_access(current_device(), peer_device);
}

cudaError_t cudaDeviceDisablePeerAccess(int peer_device) {
    return disable_peer_access(current_device(), peer_device);
}
