// <cub/thread/thread_operators.cuh> on the CPU backend, part of the subset of
// CUB that warpdrill's CPU backend provides, written from CUB's documented
// API (not CUB's code): cub::ArgMin and cub::ArgMax, which reduce
// cub::KeyValuePair<offset, value> items to the first extremum: of equal
// values, the one at the smaller offset. CUB's other operators have given
// way to libcu++'s (<cuda/functional>: cuda::minimum, cuda::maximum).
#pragma once

#include <cuda/functional>
#include <cuda/std/functional>

#include "cub/util_type.cuh"

namespace cub {

struct ArgMin {
    template <typename T, typename OffsetT>
    KeyValuePair<OffsetT, T> operator()(const KeyValuePair<OffsetT, T>& a,
                                        const KeyValuePair<OffsetT, T>& b) const {
        return b.value < a.value || (a.value == b.value && b.key < a.key) ? b : a;
    }
};

struct ArgMax {
    template <typename T, typename OffsetT>
    KeyValuePair<OffsetT, T> operator()(const KeyValuePair<OffsetT, T>& a,
                                        const KeyValuePair<OffsetT, T>& b) const {
        return b.value > a.value || (a.value == b.value && b.key < a.key) ? b : a;
    }
};

}  // namespace cub
