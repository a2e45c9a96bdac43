// What the runtime's copies and memsets check and tell the other checks,
// shared by the calls themselves (runtime.cpp) and a graph's copy and
// memset nodes (graphs.cpp). Internal to the backend.
#pragma once

#include <cstddef>

#include "device_memory.h"
#include "warpdrill/cpu/cuda_runtime.h"

namespace warpdrill::cpu::detail {

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

}  // namespace warpdrill::cpu::detail
