// <thrust/functional.h> on the CPU backend (device_vector.h lists the
// Thrust subset): Thrust's function objects. Since CCCL 3.0 most are
// libcu++'s (cuda::std::plus, cuda::maximum), which on the CPU backend are
// the standard library's. thrust::square is Thrust's own. (CCCL 3.0 has no
// thrust::identity: it is cuda::std::identity now.)
#pragma once

#include <cuda/functional>
#include <cuda/std/functional>

namespace thrust {

// Arithmetic
using ::cuda::std::divides;
using ::cuda::std::minus;
using ::cuda::std::modulus;
using ::cuda::std::multiplies;
using ::cuda::std::negate;
using ::cuda::std::plus;

// Comparisons
using ::cuda::std::equal_to;
using ::cuda::std::greater;
using ::cuda::std::greater_equal;
using ::cuda::std::less;
using ::cuda::std::less_equal;
using ::cuda::std::not_equal_to;

// Logical and bitwise
using ::cuda::std::bit_and;
using ::cuda::std::bit_or;
using ::cuda::std::bit_xor;
using ::cuda::std::logical_and;
using ::cuda::std::logical_not;
using ::cuda::std::logical_or;

using ::cuda::maximum;
using ::cuda::minimum;

// x * x, in T; square<> (square<void>) squares any type in its own.
template <class T = void>
struct square {
    constexpr T operator()(const T& x) const { return x * x; }
};
template <>
struct square<void> {
    template <class T>
    constexpr T operator()(const T& x) const {
        return x * x;
    }
};

}  // namespace thrust
