// How the runtime makes a buffer and why it refuses to free a pointer,
// shared by cudaMalloc and cudaFree (runtime.cpp) and their stream-ordered
// forms (memory_pools.cpp). Internal to the backend.
#pragma once

#include <cstddef>
#include <string>

#include "warpdrill/cpu/cuda_runtime.h"

namespace warpdrill::cpu::detail {

// A buffer in the current GPU's memory, as cudaMalloc and cudaMallocManaged
// make it: *ptr null for 0 bytes.
cudaError_t allocate_buffer(void** ptr, std::size_t bytes, bool managed);
// Why cudaFree refuses `ptr`, a pointer that is not a live buffer's start.
std::string free_problem(const void* ptr);

}  // namespace warpdrill::cpu::detail
