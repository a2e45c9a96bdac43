// A Pack is N consecutive elements loaded or stored as one access: four
// floats make one 16-byte load (LDG.128), a quarter of the instructions of
// four scalar loads. Its address must be a multiple of its size; on the CPU
// backend a misaligned pack faults as a GPU would.
#pragma once

#include "warpdrill/cuda.h"

namespace warpdrill {

template <class T, int N>
struct alignas(sizeof(T) * N) Pack {
    T values[N];
};

template <class T, int N>
__device__ __forceinline__ Pack<T, N> load_pack(const T* address) {
#if defined(WARPDRILL_BACKEND_CPU)
    cpu::detail::check_alignment(address, sizeof(Pack<T, N>), std::source_location::current());
#endif
    return *reinterpret_cast<const Pack<T, N>*>(address);
}

template <class T, int N>
__device__ __forceinline__ void store_pack(T* address, const Pack<T, N>& pack) {
#if defined(WARPDRILL_BACKEND_CPU)
    cpu::detail::check_alignment(address, sizeof(Pack<T, N>), std::source_location::current());
#endif
    *reinterpret_cast<Pack<T, N>*>(address) = pack;
}

}  // namespace warpdrill
