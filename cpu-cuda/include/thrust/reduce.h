// <thrust/reduce.h> on the CPU backend (device_vector.h lists the Thrust
// subset): thrust::reduce, binary_op over init and the items (init 0 and
// plus<T> unless given, T being init's type, or the items' without one);
// thrust::reduce_by_key, the sum of each run of equal consecutive keys'
// values. On the device, cub::DeviceReduce's Reduce and ReduceByKey. The
// operator must be associative and commutative, as in Thrust: floating-point
// sums may differ from a GPU's in the last bits, since the order in which
// the items combine is not Thrust's. On the host, std::accumulate's order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <numeric>

#include <cub/device/device_reduce.cuh>

#include "thrust/detail/device_launch.h"
#include "thrust/detail/system.h"
#include "thrust/functional.h"
#include "thrust/pair.h"

namespace thrust {

template <class InputIterator, class T, class BinaryFunction>
T reduce(const detail::host_t&, InputIterator first, InputIterator last, T init, BinaryFunction binary_op) {
    return std::accumulate(first, last, init, binary_op);
}

template <class InputIterator, class T, class BinaryFunction>
T reduce(const detail::device_t& policy, InputIterator first, InputIterator last, T init,
         BinaryFunction binary_op) {
    return detail::cub_result<T>(
        policy,
        [&](void* temp, std::size_t& bytes, T* out) {
            return cub::DeviceReduce::Reduce(temp, bytes, detail::in_kernel(first), out, last - first,
                                             binary_op, init, policy.stream);
        },
        "thrust::reduce");
}

template <detail::execution_policy Policy, class InputIterator, class T>
T reduce(const Policy& policy, InputIterator first, InputIterator last, T init) {
    return thrust::reduce(policy, first, last, init, plus<T>{});
}

template <detail::execution_policy Policy, class InputIterator>
typename std::iterator_traits<InputIterator>::value_type reduce(const Policy& policy, InputIterator first,
                                                                InputIterator last) {
    using T = typename std::iterator_traits<InputIterator>::value_type;
    return thrust::reduce(policy, first, last, T(0));
}

template <class InputIterator, class T, class BinaryFunction>
T reduce(InputIterator first, InputIterator last, T init, BinaryFunction binary_op) {
    return thrust::reduce(detail::policy_for(first), first, last, init, binary_op);
}

template <class InputIterator, class T>
T reduce(InputIterator first, InputIterator last, T init) {
    return thrust::reduce(detail::policy_for(first), first, last, init);
}

template <class InputIterator>
typename std::iterator_traits<InputIterator>::value_type reduce(InputIterator first, InputIterator last) {
    return thrust::reduce(detail::policy_for(first), first, last);
}

// Each run of equal consecutive keys (compared with ==) writes its key to
// keys_output and the sum of its values to values_output; returns the ends
// of the two outputs.
template <class KeysIterator, class ValuesIterator, class KeysOutput, class ValuesOutput>
pair<KeysOutput, ValuesOutput> reduce_by_key(const detail::host_t&, KeysIterator keys_first,
                                             KeysIterator keys_last, ValuesIterator values_first,
                                             KeysOutput keys_output, ValuesOutput values_output) {
    using Value = typename std::iterator_traits<ValuesIterator>::value_type;
    while (keys_first != keys_last) {
        const auto key = *keys_first;
        Value sum = *values_first;
        for (++keys_first, ++values_first; keys_first != keys_last && *keys_first == key;
             ++keys_first, ++values_first) {
            sum = sum + *values_first;
        }
        *keys_output++ = key;
        *values_output++ = sum;
    }
    return {keys_output, values_output};
}

template <class KeysIterator, class ValuesIterator, class KeysOutput, class ValuesOutput>
pair<KeysOutput, ValuesOutput> reduce_by_key(const detail::device_t& policy, KeysIterator keys_first,
                                             KeysIterator keys_last, ValuesIterator values_first,
                                             KeysOutput keys_output, ValuesOutput values_output) {
    using Value = typename std::iterator_traits<ValuesIterator>::value_type;
    const std::int64_t runs = detail::cub_result<std::int64_t>(
        policy,
        [&](void* temp, std::size_t& bytes, std::int64_t* runs_out) {
            return cub::DeviceReduce::ReduceByKey(
                temp, bytes, detail::in_kernel(keys_first), detail::in_kernel(keys_output),
                detail::in_kernel(values_first), detail::in_kernel(values_output), runs_out, plus<Value>{},
                keys_last - keys_first, policy.stream);
        },
        "thrust::reduce_by_key");
    return {keys_output + runs, values_output + runs};
}

template <class KeysIterator, class ValuesIterator, class KeysOutput, class ValuesOutput>
pair<KeysOutput, ValuesOutput> reduce_by_key(KeysIterator keys_first, KeysIterator keys_last,
                                             ValuesIterator values_first, KeysOutput keys_output,
                                             ValuesOutput values_output) {
    return thrust::reduce_by_key(detail::policy_for(keys_first, values_first, keys_output, values_output),
                                 keys_first, keys_last, values_first, keys_output, values_output);
}

}  // namespace thrust
