// Managed memory's hints and prefetches: cudaMemPrefetchAsync, cudaMemAdvise
// and cudaStreamAttachMemAsync. Every byte is the host's here, so none of
// them moves anything; each refuses what an H200 refused, with its error
// code and in its order (cpu-cuda/tests/gpu/managed_hints_probe.cu,
// results/managed-hints-probe-h200.txt).
#include "device.h"
#include "device_memory.h"
#include "program.h"
#include "state.h"
#include "streams.h"
#include "warpdrill/messages.h"

using namespace warpdrill::cpu::detail;

namespace {

// The managed buffer that holds [ptr, ptr + bytes), or nullptr.
const DeviceAllocation* managed_buffer_at(const void* ptr) {
    const DeviceAllocation* buffer = device_allocation_at(reinterpret_cast<std::uintptr_t>(ptr));
    return buffer && buffer->managed ? buffer : nullptr;
}

// A GPU or the host; cudaMemLocationTypeNone is neither.
bool names_a_place(cudaMemLocation location) {
    if (location.type == cudaMemLocationTypeDevice) return valid_device(location.id);
    return location.type >= cudaMemLocationTypeHost && location.type <= cudaMemLocationTypeHostNumaCurrent;
}

std::string why(const char* key) { return warpdrill::messages::text(key); }

}  // namespace

cudaError_t cudaMemPrefetchAsync(const void* ptr, std::size_t bytes, cudaMemLocation location, unsigned flags,
                                 cudaStream_t stream) {
    const HostCall call{"cudaMemPrefetchAsync", code_offset(__builtin_return_address(0))};
    if (check_stream(stream) != cudaSuccess) return record(cudaErrorInvalidResourceHandle);
    // A GPU that does not exist is named before anything else, whatever the memory.
    if (location.type == cudaMemLocationTypeDevice && !valid_device(location.id)) {
        return refuse(call, cudaErrorInvalidDevice, why("backend.api.no_such_gpu"));
    }
    const DeviceAllocation* buffer = managed_buffer_at(ptr);
    if (!buffer) return refuse(call, cudaErrorInvalidValue, why("backend.api.not_managed"));
    if (!names_a_place(location)) return refuse(call, cudaErrorInvalidValue, why("backend.api.no_location"));
    if (flags != 0) return refuse(call, cudaErrorInvalidValue, why("backend.api.flags_not_zero"));
    if (bytes == 0 || !buffer->fits(reinterpret_cast<std::uintptr_t>(ptr), bytes)) {
        return refuse(call, cudaErrorInvalidValue, why("backend.api.range_not_in_buffer"));
    }
    return cudaSuccess;
}

cudaError_t cudaMemAdvise(const void* ptr, std::size_t bytes, cudaMemoryAdvise advice,
                          cudaMemLocation location) {
    const HostCall call{"cudaMemAdvise", code_offset(__builtin_return_address(0))};
    const DeviceAllocation* buffer = managed_buffer_at(ptr);
    if (!buffer) return refuse(call, cudaErrorInvalidValue, why("backend.api.not_managed"));
    if (advice < cudaMemAdviseSetReadMostly || advice > cudaMemAdviseUnsetAccessedBy) {
        return refuse(call, cudaErrorInvalidValue, why("backend.api.no_such_advice"));
    }
    if (!names_a_place(location)) return refuse(call, cudaErrorInvalidValue, why("backend.api.no_location"));
    if (bytes == 0 || !buffer->fits(reinterpret_cast<std::uintptr_t>(ptr), bytes)) {
        return refuse(call, cudaErrorInvalidValue, why("backend.api.range_not_in_buffer"));
    }
    return cudaSuccess;
}

cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void* ptr, std::size_t bytes, unsigned flags) {
    const HostCall call{"cudaStreamAttachMemAsync", code_offset(__builtin_return_address(0))};
    if (check_stream(stream) != cudaSuccess) return record(cudaErrorInvalidResourceHandle);
    const DeviceAllocation* buffer = managed_buffer_at(ptr);
    if (!buffer) return refuse(call, cudaErrorInvalidValue, why("backend.api.not_managed"));
    // Flags 0 made the H200's driver crash the program (a segmentation fault).
    if (flags == 0) return refuse(call, cudaErrorInvalidValue, why("backend.api.attach_flags_zero"));
    if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost && flags != cudaMemAttachSingle) {
        return refuse(call, cudaErrorInvalidValue, why("backend.api.attach_flags"));
    }
    // 0 bytes means the whole buffer; a part of one cannot be attached.
    const bool whole_buffer =
        bytes == 0 || (reinterpret_cast<std::uintptr_t>(ptr) == buffer->start && bytes == buffer->bytes);
    if (!whole_buffer) return refuse(call, cudaErrorInvalidValue, why("backend.api.attach_part"));
    return cudaSuccess;
}
