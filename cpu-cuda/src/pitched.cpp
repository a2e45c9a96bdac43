// Pitched memory: cudaMallocPitch, cudaMemcpy2D and cudaMemset2D, with their
// asynchronous forms. Each row is checked as a linear copy or memset of it
// is, and all rows before any is written; what CUDA takes and refuses is
// what an H200 took and refused (cpu-cuda/tests/gpu/pitched_probe.cu,
// results/pitched-probe-h200.txt).
#include <cstddef>
#include <optional>
#include <vector>

#include "allocations.h"
#include "capture.h"
#include "copies.h"
#include "device_memory.h"
#include "state.h"
#include "streams.h"
#include "warpdrill/cpu/cuda_runtime.h"
#include "warpdrill/messages.h"

namespace warpdrill::cpu::detail {
namespace {

// The H200's cudaMallocPitch rounds every width up to 512 bytes (1 to 512,
// 513 to 1024, 5000 to 5120); texturePitchAlignment, 32, is only the least
// that a texture takes.
constexpr std::size_t kPitchGranularity = 512;

std::vector<Row> pitched_rows(void* dst, std::size_t dpitch, const void* src, std::size_t spitch,
                              std::size_t height) {
    std::vector<Row> rows;
    for (std::size_t y = 0; y < height; ++y) {
        rows.emplace_back(static_cast<std::byte*>(dst) + y * dpitch,
                          src ? static_cast<const std::byte*>(src) + y * spitch : nullptr);
    }
    return rows;
}

// A row longer than its pitch would overlap the next: refused where there
// is a next row (one row needs no pitch; the H200 copies it whatever the
// pitch says).
cudaError_t check_pitch(const HostCall& call, std::size_t width, std::size_t pitch, std::size_t height,
                        const char* side, cudaError_t error) {
    if (height < 2 || width <= pitch) return cudaSuccess;
    return refuse(call, error,
                  messages::text("backend.api.width_past_pitch",
                                 {{"side", messages::text(side)}, {"width", width}, {"pitch", pitch}}));
}

// What cudaMemcpy2D and cudaMemcpy2DAsync check before any row is copied;
// `rows` is empty where there is nothing to copy.
cudaError_t check_copy_2d(const HostCall& call, void* dst, std::size_t dpitch, const void* src,
                          std::size_t spitch, std::size_t width, std::size_t height, cudaMemcpyKind kind,
                          std::vector<Row>& rows) {
    if (!is_memcpy_kind(kind)) return record(cudaErrorInvalidMemcpyDirection);
    if (width == 0 || height == 0) return cudaSuccess;
    for (const auto& [pitch, side] :
         {std::pair{dpitch, "backend.api.destination"}, {spitch, "backend.api.source"}}) {
        if (const cudaError_t error =
                check_pitch(call, width, pitch, height, side, cudaErrorInvalidPitchValue);
            error != cudaSuccess) {
            return error;
        }
    }
    rows = pitched_rows(dst, dpitch, src, spitch, height);
    for (const Row& row : rows) {
        if (const cudaError_t error = check_copy(call, row.dst, row.src, width, kind); error != cudaSuccess) {
            rows.clear();
            return error;
        }
    }
    return cudaSuccess;
}

// What cudaMemset2D and cudaMemset2DAsync check; a width past the pitch is
// cudaErrorInvalidValue here, as on the H200.
cudaError_t check_memset_2d(const HostCall& call, void* dst, std::size_t pitch, std::size_t width,
                            std::size_t height, std::vector<Row>& rows) {
    if (width == 0 || height == 0) return cudaSuccess;
    if (const cudaError_t error =
            check_pitch(call, width, pitch, height, "backend.api.destination", cudaErrorInvalidValue);
        error != cudaSuccess) {
        return error;
    }
    rows = pitched_rows(dst, pitch, nullptr, 0, height);
    for (const Row& row : rows) {
        if (const cudaError_t error = check_memset(call, row.dst, width); error != cudaSuccess) {
            rows.clear();
            return error;
        }
    }
    return cudaSuccess;
}

// The host waits for the copy or memset where `stream` is empty (cudaMemcpy2D,
// cudaMemset2D), or queues it there.
cudaError_t copy_2d(const HostCall& call, std::optional<cudaStream_t> stream, void* dst, std::size_t dpitch,
                    const void* src, std::size_t spitch, std::size_t width, std::size_t height,
                    cudaMemcpyKind kind) {
    std::vector<Row> rows;
    if (const cudaError_t error = check_copy_2d(call, dst, dpitch, src, spitch, width, height, kind, rows);
        error != cudaSuccess || rows.empty()) {
        return error;
    }
    if (const cudaError_t error = check_queue(stream.value_or(nullptr), call); error != cudaSuccess)
        return error;
    if (stream) {
        queue_copy(rows, width, *stream, call);
    } else {
        wait_for_copy(rows, width, call);
    }
    return cudaSuccess;
}

cudaError_t memset_2d(const HostCall& call, std::optional<cudaStream_t> stream, void* dst, std::size_t pitch,
                      int value, std::size_t width, std::size_t height) {
    std::vector<Row> rows;
    if (const cudaError_t error = check_memset_2d(call, dst, pitch, width, height, rows);
        error != cudaSuccess || rows.empty()) {
        return error;
    }
    if (const cudaError_t error = check_queue(stream.value_or(nullptr), call); error != cudaSuccess)
        return error;
    if (stream) {
        queue_memset(rows, width, value, *stream, call);
    } else {
        wait_for_memset(rows, width, value, call);
    }
    return cudaSuccess;
}

}  // namespace
}  // namespace warpdrill::cpu::detail

using namespace warpdrill::cpu::detail;

cudaError_t cudaMallocPitch(void** ptr, std::size_t* pitch, std::size_t width, std::size_t height) {
    if (!ptr || !pitch) return record(cudaErrorInvalidValue);
    const HostCall call = WARPDRILL_HOST_CALL("cudaMallocPitch");
    if (const cudaError_t error = check_unsafe_call(call); error != cudaSuccess) return error;
    if (width == 0 || height == 0) {  // nothing allocated, as on the H200
        *ptr = nullptr;
        *pitch = 0;
        return cudaSuccess;
    }
    const std::size_t rounded = (width + kPitchGranularity - 1) / kPitchGranularity * kPitchGranularity;
    if (const cudaError_t error = allocate_buffer(ptr, rounded * height, false); error != cudaSuccess)
        return error;
    *pitch = rounded;
    return cudaSuccess;
}

cudaError_t cudaMemcpy2D(void* dst, std::size_t dpitch, const void* src, std::size_t spitch,
                         std::size_t width, std::size_t height, cudaMemcpyKind kind) {
    return copy_2d(WARPDRILL_HOST_CALL("cudaMemcpy2D"), std::nullopt, dst, dpitch, src, spitch, width, height,
                   kind);
}

cudaError_t cudaMemcpy2DAsync(void* dst, std::size_t dpitch, const void* src, std::size_t spitch,
                              std::size_t width, std::size_t height, cudaMemcpyKind kind,
                              cudaStream_t stream) {
    if (check_stream(stream) != cudaSuccess) return record(cudaErrorInvalidResourceHandle);
    return copy_2d(WARPDRILL_HOST_CALL("cudaMemcpy2DAsync"), stream, dst, dpitch, src, spitch, width, height,
                   kind);
}

cudaError_t cudaMemset2D(void* dst, std::size_t pitch, int value, std::size_t width, std::size_t height) {
    return memset_2d(WARPDRILL_HOST_CALL("cudaMemset2D"), std::nullopt, dst, pitch, value, width, height);
}

cudaError_t cudaMemset2DAsync(void* dst, std::size_t pitch, int value, std::size_t width, std::size_t height,
                              cudaStream_t stream) {
    if (check_stream(stream) != cudaSuccess) return record(cudaErrorInvalidResourceHandle);
    return memset_2d(WARPDRILL_HOST_CALL("cudaMemset2DAsync"), stream, dst, pitch, value, width, height);
}
