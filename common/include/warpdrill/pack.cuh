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

// On the CPU backend the caller's file and line come along, for the message.
#if defined(WARPDRILL_BACKEND_CPU)
#define WARPDRILL_CALLER , std::source_location where = std::source_location::current()
#define WARPDRILL_CHECK_ALIGNMENT(address, bytes) cpu::detail::check_alignment(address, bytes, where)
#else
#define WARPDRILL_CALLER
#define WARPDRILL_CHECK_ALIGNMENT(address, bytes)
#endif

template <class T, int N>
__device__ __forceinline__ Pack<T, N> load_pack(const T* address WARPDRILL_CALLER) {
    WARPDRILL_CHECK_ALIGNMENT(address, sizeof(Pack<T, N>));
    return *reinterpret_cast<const Pack<T, N>*>(address);
}

template <class T, int N>
__device__ __forceinline__ void store_pack(T* address, const Pack<T, N>& pack WARPDRILL_CALLER) {
    WARPDRILL_CHECK_ALIGNMENT(address, sizeof(Pack<T, N>));
    *reinterpret_cast<Pack<T, N>*>(address) = pack;
}

#undef WARPDRILL_CALLER
#undef WARPDRILL_CHECK_ALIGNMENT

}  // namespace warpdrill
