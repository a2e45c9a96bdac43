// <thrust/device_malloc.h> on the CPU backend (device_vector.h lists the
// Thrust subset): thrust::device_malloc<T>(n), n items of device memory
// from cudaMalloc, not initialised; thrust::device_free gives them back. A
// failed allocation throws std::bad_alloc.
#pragma once

#include <cstddef>

#include "thrust/detail/device_memory.h"
#include "thrust/device_ptr.h"

namespace thrust {

template <class T>
device_ptr<T> device_malloc(std::size_t n) {
    return device_ptr<T>(detail::allocate_device<T>(n));
}

}  // namespace thrust
