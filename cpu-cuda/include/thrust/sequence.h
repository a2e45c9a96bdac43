// <thrust/sequence.h> on the CPU backend (device_vector.h lists the Thrust
// subset): thrust::sequence, item i of a range set to init + step * i
// (init 0 and step 1 unless given).
#pragma once

#include <cstdint>
#include <iterator>

#include "thrust/detail/device_launch.h"
#include "thrust/detail/system.h"

namespace thrust {

template <class ForwardIterator, class T>
void sequence(const detail::host_t&, ForwardIterator first, ForwardIterator last, T init, T step) {
    for (std::int64_t i = 0; first != last; ++first, ++i) *first = init + step * i;
}

template <class ForwardIterator, class T>
void sequence(const detail::device_t& policy, ForwardIterator first, ForwardIterator last, T init, T step) {
    const auto out = detail::in_kernel(first);
    detail::for_each_index(
        policy, last - first, [=](std::int64_t i) { out[i] = init + step * i; }, "thrust::sequence");
}

template <detail::execution_policy Policy, class ForwardIterator, class T>
void sequence(const Policy& policy, ForwardIterator first, ForwardIterator last, T init) {
    thrust::sequence(policy, first, last, init, T(1));
}

template <detail::execution_policy Policy, class ForwardIterator>
void sequence(const Policy& policy, ForwardIterator first, ForwardIterator last) {
    using T = typename std::iterator_traits<ForwardIterator>::value_type;
    thrust::sequence(policy, first, last, T(0), T(1));
}

template <class ForwardIterator, class T>
void sequence(ForwardIterator first, ForwardIterator last, T init, T step) {
    thrust::sequence(detail::policy_for(first), first, last, init, step);
}

template <class ForwardIterator, class T>
void sequence(ForwardIterator first, ForwardIterator last, T init) {
    thrust::sequence(detail::policy_for(first), first, last, init);
}

template <class ForwardIterator>
void sequence(ForwardIterator first, ForwardIterator last) {
    thrust::sequence(detail::policy_for(first), first, last);
}

}  // namespace thrust
