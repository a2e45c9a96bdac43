// A GPU's flags and limits (device_settings.cpp). Internal to the backend.
#pragma once

#include <cstddef>

namespace warpdrill::cpu::detail {

// The size of GPU `device`'s heap for malloc() in kernels; from the first
// call on, cudaDeviceSetLimit may no longer change it, as on a GPU.
std::size_t malloc_heap_bytes(int device);

}  // namespace warpdrill::cpu::detail
