// What the runtime's copies and memsets check and tell the other checks,
// shared by the calls themselves (runtime.cpp) and a graph's copy and
// memset nodes (graphs.cpp). Internal to the backend.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "device_memory.h"
#include "warpdrill/cpu/cuda_runtime.h"

namespace warpdrill::cpu::detail {

// Whether `kind` is one of cudaMemcpyKind's: a copy with another is refused
// with cudaErrorInvalidMemcpyDirection, as an H200 refuses it
// (results/memcpy-probe-h200.txt, pitched-probe-h200.txt).
inline bool is_memcpy_kind(cudaMemcpyKind kind) {
    return kind >= cudaMemcpyHostToHost && kind <= cudaMemcpyDefault;
}

// Memory that a GPU's copy engine reaches itself: device memory and pinned host memory.
bool reached_by_copy_engine(const void* ptr);
// Whether CUDA takes a memset of `bytes` at `ptr`, or a copy: an error, with
// the warning that says why (refuse()), or cudaSuccess.
cudaError_t check_memset(const HostCall& call, const void* ptr, std::size_t bytes);
cudaError_t check_copy(const HostCall& call, void* dst, const void* src, std::size_t bytes,
                       cudaMemcpyKind kind);
// What a copy tells the checks as it is made: which device bytes now hold a
// value, how far a host array reaches.
void note_copy_made(void* dst, const void* src, std::size_t bytes, const HostCall& call);

// One row of a copy or memset (src null for a memset): a linear copy is one
// row, a pitched one (cudaMemcpy2D, a graph's copy node) a row each `pitch` bytes.
struct Row {
    Row(void* to, const void* from)
        : dst(static_cast<std::byte*>(to)), src(static_cast<const std::byte*>(from)) {}
    std::byte* dst;
    const std::byte* src;
};

// Copies and memsets of `width` bytes a row, already checked, told to the
// checks and queued as one piece of work: on `stream`, or waited for by the
// host (cudaMemcpy's and cudaMemset's way). A copy into pageable host
// memory waits as well, as CUDA's does.
void queue_copy(const std::vector<Row>& rows, std::size_t width, cudaStream_t stream, const HostCall& call);
void wait_for_copy(const std::vector<Row>& rows, std::size_t width, const HostCall& call);
void queue_memset(const std::vector<Row>& rows, std::size_t width, int value, cudaStream_t stream,
                  const HostCall& call);
void wait_for_memset(const std::vector<Row>& rows, std::size_t width, int value, const HostCall& call);

}  // namespace warpdrill::cpu::detail
