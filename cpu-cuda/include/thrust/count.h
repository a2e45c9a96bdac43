// <thrust/count.h> on the CPU backend (device_vector.h lists the Thrust
// subset): thrust::count, the items equal to a value, and thrust::count_if,
// the items a predicate holds for. On the device, a cub::DeviceReduce::
// TransformReduce of 1 for each such item.
#pragma once

#include <algorithm>
#include <cstddef>
#include <iterator>

#include <cub/device/device_reduce.cuh>

#include "thrust/detail/device_launch.h"
#include "thrust/detail/system.h"

namespace thrust {

template <class InputIterator, class Predicate>
typename std::iterator_traits<InputIterator>::difference_type count_if(const detail::host_t&,
                                                                       InputIterator first,
                                                                       InputIterator last, Predicate pred) {
    return std::count_if(first, last, pred);
}

template <class InputIterator, class Predicate>
typename std::iterator_traits<InputIterator>::difference_type count_if(const detail::device_t& policy,
                                                                       InputIterator first,
                                                                       InputIterator last, Predicate pred) {
    using Count = typename std::iterator_traits<InputIterator>::difference_type;
    const auto one_if_held = [=](const auto& item) -> Count { return pred(item) ? 1 : 0; };
    return detail::cub_result<Count>(
        policy,
        [&](void* temp, std::size_t& bytes, Count* out) {
            return cub::DeviceReduce::TransformReduce(temp, bytes, detail::in_kernel(first), out,
                                                      last - first, ::cuda::std::plus<>{}, one_if_held,
                                                      Count{0}, policy.stream);
        },
        "thrust::count_if");
}

template <detail::execution_policy Policy, class InputIterator, class EqualityComparable>
typename std::iterator_traits<InputIterator>::difference_type count(const Policy& policy, InputIterator first,
                                                                    InputIterator last,
                                                                    const EqualityComparable& value) {
    return thrust::count_if(policy, first, last, [=](const auto& item) { return item == value; });
}

template <class InputIterator, class Predicate>
typename std::iterator_traits<InputIterator>::difference_type count_if(InputIterator first,
                                                                       InputIterator last, Predicate pred) {
    return thrust::count_if(detail::policy_for(first), first, last, pred);
}

template <class InputIterator, class EqualityComparable>
typename std::iterator_traits<InputIterator>::difference_type count(InputIterator first, InputIterator last,
                                                                    const EqualityComparable& value) {
    return thrust::count(detail::policy_for(first), first, last, value);
}

}  // namespace thrust
