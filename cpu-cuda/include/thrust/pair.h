// <thrust/pair.h> on the CPU backend (device_vector.h lists the Thrust
// subset): thrust::pair and thrust::make_pair, which CCCL 3.0 takes from
// libcu++ (cuda::std::pair); here, the standard library's.
#pragma once

#include <utility>

namespace thrust {

template <class T1, class T2>
using pair = std::pair<T1, T2>;
using std::make_pair;

}  // namespace thrust
