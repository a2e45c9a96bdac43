// <thrust/fill.h> on the CPU backend (device_vector.h lists the Thrust
// subset): thrust::fill, every item of a range set to one value.
#pragma once

#include <algorithm>
#include <cstdint>

#include "thrust/detail/device_launch.h"
#include "thrust/detail/system.h"

namespace thrust {

template <class ForwardIterator, class T>
void fill(const detail::host_t&, ForwardIterator first, ForwardIterator last, const T& value) {
    std::fill(first, last, value);
}

template <class ForwardIterator, class T>
void fill(const detail::device_t& policy, ForwardIterator first, ForwardIterator last, const T& value) {
    const auto out = detail::in_kernel(first);
    detail::for_each_index(
        policy, last - first, [=](std::int64_t i) { out[i] = value; }, "thrust::fill");
}

template <class ForwardIterator, class T>
void fill(ForwardIterator first, ForwardIterator last, const T& value) {
    thrust::fill(detail::policy_for(first), first, last, value);
}

}  // namespace thrust
