// <thrust/copy.h> on the CPU backend (device_vector.h lists the Thrust
// subset): thrust::copy, result[i] = first[i]; returns the end of the
// result. Without a policy it also copies between the host and the device,
// as Thrust does: with one cudaMemcpy where both sides are contiguous
// items of one type, else through a staging copy of the items.
#pragma once

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <memory>
#include <type_traits>
#include <vector>

#include "thrust/detail/device_launch.h"
#include "thrust/detail/system.h"
#include "thrust/device_ptr.h"

namespace thrust {

template <class InputIterator, class OutputIterator>
OutputIterator copy(const detail::host_t&, InputIterator first, InputIterator last, OutputIterator result) {
    return std::copy(first, last, result);
}

template <class InputIterator, class OutputIterator>
OutputIterator copy(const detail::device_t& policy, InputIterator first, InputIterator last,
                    OutputIterator result) {
    const auto in = detail::in_kernel(first);
    const auto out = detail::in_kernel(result);
    detail::for_each_index(
        policy, last - first, [=](std::int64_t i) { out[i] = in[i]; }, "thrust::copy");
    return result + (last - first);
}

namespace detail {

// Host items that one cudaMemcpy can copy as items of type T.
template <class Iterator, class T>
constexpr bool contiguous_items_of =
    std::contiguous_iterator<Iterator>&& std::is_same_v<std::iter_value_t<Iterator>, T>;

template <class InputIterator, class OutputIterator>
OutputIterator copy_host_to_device(InputIterator first, InputIterator last, OutputIterator result) {
    using T = typename std::iterator_traits<OutputIterator>::value_type;
    if constexpr (contiguous_items_of<InputIterator, T>) {
        const auto n = last - first;
        if (n > 0) {
            check(
                cudaMemcpy(in_kernel(result), std::to_address(first), n * sizeof(T), cudaMemcpyHostToDevice),
                "thrust::copy");
        }
        return result + n;
    } else {
        const std::vector<T> staged(first, last);
        return copy_host_to_device(staged.begin(), staged.end(), result);
    }
}

template <class InputIterator, class OutputIterator>
OutputIterator copy_device_to_host(InputIterator first, InputIterator last, OutputIterator result) {
    using T = typename std::iterator_traits<InputIterator>::value_type;
    const auto n = last - first;
    if constexpr (!std::is_pointer_v<decltype(in_kernel(first))>) {
        // Items computed where they are read (a transform_iterator): on the device.
        const device_buffer<T> computed(n);
        const device_ptr<T> computed_first(computed.get());
        thrust::copy(device_t{}, first, last, computed_first);
        return copy_device_to_host(computed_first, computed_first + n, result);
    } else if constexpr (contiguous_items_of<OutputIterator, T>) {
        if (n > 0) {
            check(
                cudaMemcpy(std::to_address(result), in_kernel(first), n * sizeof(T), cudaMemcpyDeviceToHost),
                "thrust::copy");
        }
        return result + n;
    } else {
        std::vector<T> staged(n);
        copy_device_to_host(first, last, staged.begin());
        return std::copy(staged.begin(), staged.end(), result);
    }
}

}  // namespace detail

template <class InputIterator, class OutputIterator>
OutputIterator copy(InputIterator first, InputIterator last, OutputIterator result) {
    if constexpr (detail::is_host_iterator<InputIterator> && detail::is_device_iterator<OutputIterator>)
        return detail::copy_host_to_device(first, last, result);
    else if constexpr (detail::is_device_iterator<InputIterator> && detail::is_host_iterator<OutputIterator>)
        return detail::copy_device_to_host(first, last, result);
    else
        return thrust::copy(detail::policy_for(first, result), first, last, result);
}

}  // namespace thrust
