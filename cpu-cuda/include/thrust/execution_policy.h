// <thrust/execution_policy.h> on the CPU backend (device_vector.h lists the
// Thrust subset): the execution policies an algorithm may take first:
// thrust::host (the host, with the standard library's algorithms),
// thrust::device and thrust::cuda::par (the device, in kernels), and
// thrust::cuda::par.on(stream) (the device, on that stream).
#pragma once

#include "thrust/detail/system.h"

namespace thrust {

inline constexpr detail::host_t host{};
inline constexpr detail::device_t device{};

namespace cuda {
inline constexpr detail::par_t par{};
}  // namespace cuda

}  // namespace thrust
