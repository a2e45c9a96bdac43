// <thrust/transform_reduce.h> on the CPU backend (device_vector.h lists the
// Thrust subset): thrust::transform_reduce, binary_op over init and
// unary_op(each item): thrust::reduce over a transform_iterator, so that on
// the device unary_op runs where the reduction reads each item.
#pragma once

#include "thrust/detail/system.h"
#include "thrust/iterator/transform_iterator.h"
#include "thrust/reduce.h"

namespace thrust {

template <detail::execution_policy Policy, class InputIterator, class UnaryFunction, class T,
          class BinaryFunction>
T transform_reduce(const Policy& policy, InputIterator first, InputIterator last, UnaryFunction unary_op,
                   T init, BinaryFunction binary_op) {
    return thrust::reduce(policy, make_transform_iterator(first, unary_op),
                          make_transform_iterator(last, unary_op), init, binary_op);
}

template <class InputIterator, class UnaryFunction, class T, class BinaryFunction>
T transform_reduce(InputIterator first, InputIterator last, UnaryFunction unary_op, T init,
                   BinaryFunction binary_op) {
    return thrust::transform_reduce(detail::policy_for(first), first, last, unary_op, init, binary_op);
}

}  // namespace thrust
