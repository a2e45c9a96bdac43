// <cub/thread/thread_reduce.cuh> on the CPU backend: cub::ThreadReduce over
// one thread's array of items, part of the subset of CUB that warpdrill's CPU
// backend provides, written for the backend from CUB's documented API (not
// CUB's code). cub::BlockScan reduces each thread's items with it.
//
// The order of combination is that of CUB in CUDA 13 compiled for sm_90,
// which matters for floating-point sums and products: CUB's own operators
// (cuda::std::plus, multiplies, bit_and, bit_or, bit_xor, cuda::minimum,
// cuda::maximum) on items under 8 bytes combine as a pairwise tree
// (((x0 + x1) + (x2 + x3)) + ...), which has fewer steps one after another;
// any other operator, or wider items, combine left to right. For integers
// both orders give the same result.
#pragma once

#include <type_traits>

#include <cuda/functional>
#include <cuda/std/functional>

namespace cub {
namespace detail {

template <class Op, class T>
constexpr bool is_one_of_cubs_operators =
    std::is_same_v<Op, ::cuda::std::plus<>> || std::is_same_v<Op, ::cuda::std::plus<T>> ||
    std::is_same_v<Op, ::cuda::std::multiplies<>> || std::is_same_v<Op, ::cuda::std::multiplies<T>> ||
    std::is_same_v<Op, ::cuda::std::bit_and<>> || std::is_same_v<Op, ::cuda::std::bit_and<T>> ||
    std::is_same_v<Op, ::cuda::std::bit_or<>> || std::is_same_v<Op, ::cuda::std::bit_or<T>> ||
    std::is_same_v<Op, ::cuda::std::bit_xor<>> || std::is_same_v<Op, ::cuda::std::bit_xor<T>> ||
    std::is_same_v<Op, ::cuda::minimum<>> || std::is_same_v<Op, ::cuda::minimum<T>> ||
    std::is_same_v<Op, ::cuda::maximum<>> || std::is_same_v<Op, ::cuda::maximum<T>>;

template <class Op, class T>
constexpr bool reduces_as_tree = is_one_of_cubs_operators<Op, T> && sizeof(T) < 8;

}  // namespace detail

template <typename T, int LENGTH, typename ReductionOp>
__device__ T ThreadReduce(const T (&input)[LENGTH], ReductionOp reduction_op) {
    T items[LENGTH];
    for (int i = 0; i < LENGTH; ++i) items[i] = input[i];
    if constexpr (detail::reduces_as_tree<ReductionOp, T>) {
        // At each level, items[j] takes in items[j + stride], its neighbour's subtree.
        for (int stride = 1; stride < LENGTH; stride *= 2) {
            for (int j = 0; j + stride < LENGTH; j += 2 * stride)
                items[j] = reduction_op(items[j], items[j + stride]);
        }
    } else {
        for (int i = 1; i < LENGTH; ++i) items[0] = reduction_op(items[0], items[i]);
    }
    return items[0];
}

}  // namespace cub
