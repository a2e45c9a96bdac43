// <thrust/extrema.h> on the CPU backend (device_vector.h lists the Thrust
// subset): thrust::min_element, the first item that no other is less than
// (comp, or <); thrust::max_element, the first item that is less than no
// other; thrust::minmax_element, the two as a thrust::pair. Of no items,
// `last`. On the device, a cub::DeviceReduce::Reduce of {index, item} pairs.
#pragma once

#include <algorithm>
#include <cstddef>
#include <iterator>

#include <cub/device/device_reduce.cuh>
#include <cub/iterator/arg_index_input_iterator.cuh>
#include <cub/util_type.cuh>

#include "thrust/detail/device_launch.h"
#include "thrust/detail/system.h"
#include "thrust/functional.h"
#include "thrust/pair.h"

namespace thrust {
namespace detail {

// Of two {index, item} candidates, the one whose item comes first in
// `comp`'s order, or of two equal items the one at the smaller index: in
// any order of combining, the first smallest wins. The reduction's init,
// at index -1, is no item and never wins.
template <class Compare>
struct first_in_order {
    Compare comp;

    template <class Candidate>
    Candidate operator()(const Candidate& a, const Candidate& b) const {
        if (a.key < 0) return b;
        if (b.key < 0) return a;
        if (comp(b.value, a.value)) return b;
        if (comp(a.value, b.value)) return a;
        return b.key < a.key ? b : a;
    }
};

// `comp` with its operands swapped: the largest comes first in its order.
template <class Compare>
struct reversed {
    Compare comp;

    template <class A, class B>
    bool operator()(const A& a, const B& b) const {
        return comp(b, a);
    }
};

// The first item that no other item comes before in `comp`'s order.
template <class ForwardIterator, class Compare>
ForwardIterator first_smallest(const device_t& policy, ForwardIterator first, ForwardIterator last,
                               Compare comp) {
    using Value = typename std::iterator_traits<ForwardIterator>::value_type;
    using Candidate = cub::KeyValuePair<std::ptrdiff_t, Value>;
    if (first == last) return last;
    const cub::ArgIndexInputIterator<decltype(in_kernel(first)), std::ptrdiff_t, Value> candidates(
        in_kernel(first));
    const Candidate best = cub_result<Candidate>(
        policy,
        [&](void* temp, std::size_t& bytes, Candidate* out) {
            return cub::DeviceReduce::Reduce(temp, bytes, candidates, out, last - first,
                                             first_in_order<Compare>{comp}, Candidate(-1, Value{}),
                                             policy.stream);
        },
        "thrust::min_element, max_element or minmax_element");
    return first + best.key;
}

}  // namespace detail

template <class ForwardIterator, class Compare>
ForwardIterator min_element(const detail::host_t&, ForwardIterator first, ForwardIterator last,
                            Compare comp) {
    return std::min_element(first, last, comp);
}
template <class ForwardIterator, class Compare>
ForwardIterator min_element(const detail::device_t& policy, ForwardIterator first, ForwardIterator last,
                            Compare comp) {
    return detail::first_smallest(policy, first, last, comp);
}

template <class ForwardIterator, class Compare>
ForwardIterator max_element(const detail::host_t&, ForwardIterator first, ForwardIterator last,
                            Compare comp) {
    return std::max_element(first, last, comp);
}
template <class ForwardIterator, class Compare>
ForwardIterator max_element(const detail::device_t& policy, ForwardIterator first, ForwardIterator last,
                            Compare comp) {
    return detail::first_smallest(policy, first, last, detail::reversed<Compare>{comp});
}

// Not std::minmax_element, whose largest is the last of equal ones.
template <detail::execution_policy Policy, class ForwardIterator, class Compare>
pair<ForwardIterator, ForwardIterator> minmax_element(const Policy& policy, ForwardIterator first,
                                                      ForwardIterator last, Compare comp) {
    return {thrust::min_element(policy, first, last, comp), thrust::max_element(policy, first, last, comp)};
}

template <detail::execution_policy Policy, class ForwardIterator>
ForwardIterator min_element(const Policy& policy, ForwardIterator first, ForwardIterator last) {
    return thrust::min_element(policy, first, last, less<>{});
}
template <detail::execution_policy Policy, class ForwardIterator>
ForwardIterator max_element(const Policy& policy, ForwardIterator first, ForwardIterator last) {
    return thrust::max_element(policy, first, last, less<>{});
}
template <detail::execution_policy Policy, class ForwardIterator>
pair<ForwardIterator, ForwardIterator> minmax_element(const Policy& policy, ForwardIterator first,
                                                      ForwardIterator last) {
    return thrust::minmax_element(policy, first, last, less<>{});
}

template <class ForwardIterator, class Compare>
ForwardIterator min_element(ForwardIterator first, ForwardIterator last, Compare comp) {
    return thrust::min_element(detail::policy_for(first), first, last, comp);
}
template <class ForwardIterator, class Compare>
ForwardIterator max_element(ForwardIterator first, ForwardIterator last, Compare comp) {
    return thrust::max_element(detail::policy_for(first), first, last, comp);
}
template <class ForwardIterator, class Compare>
pair<ForwardIterator, ForwardIterator> minmax_element(ForwardIterator first, ForwardIterator last,
                                                      Compare comp) {
    return thrust::minmax_element(detail::policy_for(first), first, last, comp);
}

template <class ForwardIterator>
ForwardIterator min_element(ForwardIterator first, ForwardIterator last) {
    return thrust::min_element(detail::policy_for(first), first, last);
}
template <class ForwardIterator>
ForwardIterator max_element(ForwardIterator first, ForwardIterator last) {
    return thrust::max_element(detail::policy_for(first), first, last);
}
template <class ForwardIterator>
pair<ForwardIterator, ForwardIterator> minmax_element(ForwardIterator first, ForwardIterator last) {
    return thrust::minmax_element(detail::policy_for(first), first, last);
}

}  // namespace thrust
