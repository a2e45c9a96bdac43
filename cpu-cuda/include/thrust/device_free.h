// <thrust/device_free.h> on the CPU backend (device_vector.h lists the
// Thrust subset): thrust::device_free, which gives back what
// thrust::device_malloc gave.
#pragma once

#include "thrust/detail/device_memory.h"
#include "thrust/device_ptr.h"

namespace thrust {

template <class T>
void device_free(device_ptr<T> ptr) {
    detail::check(cudaFree(ptr.get()), "device_free");
}

}  // namespace thrust
