// <thrust/transform.h> on the CPU backend (device_vector.h lists the Thrust
// subset): thrust::transform, result[i] = op(first[i]), or, of two ranges,
// op(first1[i], first2[i]). Returns the end of the result.
#pragma once

#include <algorithm>
#include <cstdint>

#include "thrust/detail/device_launch.h"
#include "thrust/detail/system.h"

namespace thrust {

template <class InputIterator, class OutputIterator, class UnaryFunction>
OutputIterator transform(const detail::host_t&, InputIterator first, InputIterator last,
                         OutputIterator result, UnaryFunction op) {
    return std::transform(first, last, result, op);
}

template <class InputIterator, class OutputIterator, class UnaryFunction>
OutputIterator transform(const detail::device_t& policy, InputIterator first, InputIterator last,
                         OutputIterator result, UnaryFunction op) {
    const auto in = detail::in_kernel(first);
    const auto out = detail::in_kernel(result);
    detail::for_each_index(
        policy, last - first, [=](std::int64_t i) { out[i] = op(in[i]); }, "thrust::transform");
    return result + (last - first);
}

template <class InputIterator1, class InputIterator2, class OutputIterator, class BinaryFunction>
OutputIterator transform(const detail::host_t&, InputIterator1 first1, InputIterator1 last1,
                         InputIterator2 first2, OutputIterator result, BinaryFunction op) {
    return std::transform(first1, last1, first2, result, op);
}

template <class InputIterator1, class InputIterator2, class OutputIterator, class BinaryFunction>
OutputIterator transform(const detail::device_t& policy, InputIterator1 first1, InputIterator1 last1,
                         InputIterator2 first2, OutputIterator result, BinaryFunction op) {
    const auto in1 = detail::in_kernel(first1);
    const auto in2 = detail::in_kernel(first2);
    const auto out = detail::in_kernel(result);
    detail::for_each_index(
        policy, last1 - first1, [=](std::int64_t i) { out[i] = op(in1[i], in2[i]); }, "thrust::transform");
    return result + (last1 - first1);
}

template <class InputIterator, class OutputIterator, class UnaryFunction>
OutputIterator transform(InputIterator first, InputIterator last, OutputIterator result, UnaryFunction op) {
    return thrust::transform(detail::policy_for(first, result), first, last, result, op);
}

template <class InputIterator1, class InputIterator2, class OutputIterator, class BinaryFunction>
OutputIterator transform(InputIterator1 first1, InputIterator1 last1, InputIterator2 first2,
                         OutputIterator result, BinaryFunction op) {
    return thrust::transform(detail::policy_for(first1, first2, result), first1, last1, first2, result, op);
}

}  // namespace thrust
