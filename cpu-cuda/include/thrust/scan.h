// <thrust/scan.h> on the CPU backend (device_vector.h lists the Thrust
// subset): thrust::inclusive_scan, result[i] = op over (init and) first[0,
// i]; thrust::exclusive_scan, result[i] = op over init and first[0, i), so
// result[0] = init. op is plus unless given, init 0 of the items' type
// unless given. first may equal result (in place). On the device,
// cub::DeviceScan, which keeps the items' order: op need not be commutative;
// floating-point sums may differ from a GPU's in the last bits. Returns the
// end of the result.
#pragma once

#include <cstddef>
#include <iterator>
#include <numeric>

#include <cub/device/device_scan.cuh>

#include "thrust/detail/device_launch.h"
#include "thrust/detail/system.h"
#include "thrust/functional.h"

namespace thrust {

template <class InputIterator, class OutputIterator, class AssociativeOperator>
OutputIterator inclusive_scan(const detail::host_t&, InputIterator first, InputIterator last,
                              OutputIterator result, AssociativeOperator binary_op) {
    return std::inclusive_scan(first, last, result, binary_op);
}
template <class InputIterator, class OutputIterator, class T, class AssociativeOperator>
OutputIterator inclusive_scan(const detail::host_t&, InputIterator first, InputIterator last,
                              OutputIterator result, T init, AssociativeOperator binary_op) {
    return std::inclusive_scan(first, last, result, binary_op, init);
}
template <class InputIterator, class OutputIterator, class T, class AssociativeOperator>
OutputIterator exclusive_scan(const detail::host_t&, InputIterator first, InputIterator last,
                              OutputIterator result, T init, AssociativeOperator binary_op) {
    return std::exclusive_scan(first, last, result, init, binary_op);
}

namespace detail {
// A cub::DeviceScan function through CUB's two calls: `scan(temp, bytes, in, out, n)`.
template <class InputIterator, class OutputIterator, class Scan>
OutputIterator device_scan(const device_t& policy, InputIterator first, InputIterator last,
                           OutputIterator result, Scan scan, const char* algorithm) {
    run_cub(
        policy,
        [&](void* temp, std::size_t& bytes) {
            return scan(temp, bytes, in_kernel(first), in_kernel(result), last - first);
        },
        algorithm);
    return result + (last - first);
}
}  // namespace detail

template <class InputIterator, class OutputIterator, class AssociativeOperator>
OutputIterator inclusive_scan(const detail::device_t& policy, InputIterator first, InputIterator last,
                              OutputIterator result, AssociativeOperator binary_op) {
    return detail::device_scan(
        policy, first, last, result,
        [&](void* temp, std::size_t& bytes, auto in, auto out, auto n) {
            return cub::DeviceScan::InclusiveScan(temp, bytes, in, out, binary_op, n, policy.stream);
        },
        "thrust::inclusive_scan");
}
template <class InputIterator, class OutputIterator, class T, class AssociativeOperator>
OutputIterator inclusive_scan(const detail::device_t& policy, InputIterator first, InputIterator last,
                              OutputIterator result, T init, AssociativeOperator binary_op) {
    return detail::device_scan(
        policy, first, last, result,
        [&](void* temp, std::size_t& bytes, auto in, auto out, auto n) {
            return cub::DeviceScan::InclusiveScanInit(temp, bytes, in, out, binary_op, init, n,
                                                      policy.stream);
        },
        "thrust::inclusive_scan");
}
template <class InputIterator, class OutputIterator, class T, class AssociativeOperator>
OutputIterator exclusive_scan(const detail::device_t& policy, InputIterator first, InputIterator last,
                              OutputIterator result, T init, AssociativeOperator binary_op) {
    return detail::device_scan(
        policy, first, last, result,
        [&](void* temp, std::size_t& bytes, auto in, auto out, auto n) {
            return cub::DeviceScan::ExclusiveScan(temp, bytes, in, out, binary_op, init, n, policy.stream);
        },
        "thrust::exclusive_scan");
}

template <detail::execution_policy Policy, class InputIterator, class OutputIterator>
OutputIterator inclusive_scan(const Policy& policy, InputIterator first, InputIterator last,
                              OutputIterator result) {
    return thrust::inclusive_scan(policy, first, last, result, plus<>{});
}
template <detail::execution_policy Policy, class InputIterator, class OutputIterator, class T>
OutputIterator exclusive_scan(const Policy& policy, InputIterator first, InputIterator last,
                              OutputIterator result, T init) {
    return thrust::exclusive_scan(policy, first, last, result, init, plus<>{});
}
template <detail::execution_policy Policy, class InputIterator, class OutputIterator>
OutputIterator exclusive_scan(const Policy& policy, InputIterator first, InputIterator last,
                              OutputIterator result) {
    using T = typename std::iterator_traits<InputIterator>::value_type;
    return thrust::exclusive_scan(policy, first, last, result, T(0));
}

template <class InputIterator, class OutputIterator>
OutputIterator inclusive_scan(InputIterator first, InputIterator last, OutputIterator result) {
    return thrust::inclusive_scan(detail::policy_for(first, result), first, last, result);
}
template <class InputIterator, class OutputIterator, class AssociativeOperator>
OutputIterator inclusive_scan(InputIterator first, InputIterator last, OutputIterator result,
                              AssociativeOperator binary_op) {
    return thrust::inclusive_scan(detail::policy_for(first, result), first, last, result, binary_op);
}
template <class InputIterator, class OutputIterator, class T, class AssociativeOperator>
OutputIterator inclusive_scan(InputIterator first, InputIterator last, OutputIterator result, T init,
                              AssociativeOperator binary_op) {
    return thrust::inclusive_scan(detail::policy_for(first, result), first, last, result, init, binary_op);
}
template <class InputIterator, class OutputIterator>
OutputIterator exclusive_scan(InputIterator first, InputIterator last, OutputIterator result) {
    return thrust::exclusive_scan(detail::policy_for(first, result), first, last, result);
}
template <class InputIterator, class OutputIterator, class T>
OutputIterator exclusive_scan(InputIterator first, InputIterator last, OutputIterator result, T init) {
    return thrust::exclusive_scan(detail::policy_for(first, result), first, last, result, init);
}
template <class InputIterator, class OutputIterator, class T, class AssociativeOperator>
OutputIterator exclusive_scan(InputIterator first, InputIterator last, OutputIterator result, T init,
                              AssociativeOperator binary_op) {
    return thrust::exclusive_scan(detail::policy_for(first, result), first, last, result, init, binary_op);
}

}  // namespace thrust
