// Pinned host memory (cudaMallocHost, cudaHostAlloc, and pageable memory
// that cudaHostRegister page-locked): host memory that the runtime
// remembers, so that it can tell it from pageable memory. Internal to the
// backend.
#pragma once

#include <cstddef>

namespace warpdrill::cpu::detail {

// nullptr when the machine has no memory left; bytes > 0.
void* allocate_pinned(std::size_t bytes);
// false when `ptr` is not the start of a live pinned allocation.
bool free_pinned(void* ptr);
// Whether `ptr` lies inside a live pinned allocation or registered range.
bool is_pinned(const void* ptr);
// Whether `ptr` lies inside a live pinned allocation (not a registered range).
bool is_pinned_allocation(const void* ptr);

// cudaHostRegister's range of pageable memory; false when it overlaps one
// registered before.
bool register_range(const void* ptr, std::size_t bytes);
enum class Unregistered { done, inside_a_range, not_registered };
// cudaHostUnregister: done when `ptr` starts a registered range.
Unregistered unregister_range(const void* ptr);

// Pageable host memory that cudaMemcpy calls copied from or into lately: the
// extent of a host array, should a kernel be given its pointer by mistake.
void note_host_range(const void* ptr, std::size_t bytes);
// The bytes from `ptr` to the end of the latest noted range that holds it, or 0.
std::size_t host_bytes_from(const void* ptr);

}  // namespace warpdrill::cpu::detail
