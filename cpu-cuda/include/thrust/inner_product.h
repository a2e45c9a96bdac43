// <thrust/inner_product.h> on the CPU backend (device_vector.h lists the
// Thrust subset): thrust::inner_product, init plus the sum of
// first1[i] * first2[i], or binary_op1 over init and binary_op2(first1[i],
// first2[i]). On the device, thrust::reduce over the products computed where
// the reduction reads them.
#pragma once

#include <cstdint>
#include <numeric>

#include "thrust/detail/system.h"
#include "thrust/functional.h"
#include "thrust/iterator/counting_iterator.h"
#include "thrust/iterator/transform_iterator.h"
#include "thrust/reduce.h"

namespace thrust {

template <class InputIterator1, class InputIterator2, class T, class BinaryFunction1, class BinaryFunction2>
T inner_product(const detail::host_t&, InputIterator1 first1, InputIterator1 last1, InputIterator2 first2,
                T init, BinaryFunction1 binary_op1, BinaryFunction2 binary_op2) {
    return std::inner_product(first1, last1, first2, init, binary_op1, binary_op2);
}

template <class InputIterator1, class InputIterator2, class T, class BinaryFunction1, class BinaryFunction2>
T inner_product(const detail::device_t& policy, InputIterator1 first1, InputIterator1 last1,
                InputIterator2 first2, T init, BinaryFunction1 binary_op1, BinaryFunction2 binary_op2) {
    const auto in1 = detail::in_kernel(first1);
    const auto in2 = detail::in_kernel(first2);
    const auto products = make_transform_iterator(make_counting_iterator<std::int64_t>(0),
                                                  [=](std::int64_t i) { return binary_op2(in1[i], in2[i]); });
    return thrust::reduce(policy, products, products + (last1 - first1), init, binary_op1);
}

template <detail::execution_policy Policy, class InputIterator1, class InputIterator2, class T>
T inner_product(const Policy& policy, InputIterator1 first1, InputIterator1 last1, InputIterator2 first2,
                T init) {
    return thrust::inner_product(policy, first1, last1, first2, init, plus<T>{}, multiplies<T>{});
}

template <class InputIterator1, class InputIterator2, class T, class BinaryFunction1, class BinaryFunction2>
T inner_product(InputIterator1 first1, InputIterator1 last1, InputIterator2 first2, T init,
                BinaryFunction1 binary_op1, BinaryFunction2 binary_op2) {
    return thrust::inner_product(detail::policy_for(first1, first2), first1, last1, first2, init, binary_op1,
                                 binary_op2);
}

template <class InputIterator1, class InputIterator2, class T>
T inner_product(InputIterator1 first1, InputIterator1 last1, InputIterator2 first2, T init) {
    return thrust::inner_product(detail::policy_for(first1, first2), first1, last1, first2, init);
}

}  // namespace thrust
