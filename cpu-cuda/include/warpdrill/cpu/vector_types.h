// CUDA's vector types and their make_ functions, with the sizes and
// alignments CUDA gives them on 64-bit Linux (vector_types.h,
// vector_functions.h): a 2-vector is aligned to its size, a 3-vector to its
// element, a 4-vector to its size up to 16 bytes. The 4-vectors of 8-byte
// elements are deprecated in CUDA 13 for their _16a and _32a variants, which
// say their alignment, and warn here as they do under nvcc.
// Included by cuda_runtime.h.
#pragma once

#include <cstddef>

namespace warpdrill::cpu::detail {
constexpr std::size_t four_vector_alignment(std::size_t element_bytes) {
    return 4 * element_bytes < 16 ? 4 * element_bytes : 16;
}
}  // namespace warpdrill::cpu::detail

// BASE1 to BASE4 of element type T, and make_BASE1 to make_BASE4.
#define WARPDRILL_VECTOR_TYPES(base, T)                                                \
    struct base##1 {                                                                   \
        T x;                                                                           \
    };                                                                                 \
    struct alignas(2 * sizeof(T)) base##2 {                                            \
        T x, y;                                                                        \
    };                                                                                 \
    struct base##3 {                                                                   \
        T x, y, z;                                                                     \
    };                                                                                 \
    struct alignas(warpdrill::cpu::detail::four_vector_alignment(sizeof(T))) base##4 { \
        T x, y, z, w;                                                                  \
    };                                                                                 \
    constexpr base##1 make_##base##1(T x) { return {x}; }                              \
    constexpr base##2 make_##base##2(T x, T y) { return {x, y}; }                      \
    constexpr base##3 make_##base##3(T x, T y, T z) { return {x, y, z}; }              \
    constexpr base##4 make_##base##4(T x, T y, T z, T w) { return {x, y, z, w}; }

// BASE4_16a and BASE4_32a, and BASE4 deprecated for them.
#define WARPDRILL_ALIGNED_FOUR_VECTORS(base, T)                                           \
    struct alignas(16) base##4_16a {                                                      \
        T x, y, z, w;                                                                     \
    };                                                                                    \
    struct alignas(32) base##4_32a {                                                      \
        T x, y, z, w;                                                                     \
    };                                                                                    \
    constexpr base##4_16a make_##base##4_16a(T x, T y, T z, T w) { return {x, y, z, w}; } \
    constexpr base##4_32a make_##base##4_32a(T x, T y, T z, T w) { return {x, y, z, w}; }

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"  // in make_BASE4 of the deprecated ones
WARPDRILL_VECTOR_TYPES(char, signed char)
WARPDRILL_VECTOR_TYPES(uchar, unsigned char)
WARPDRILL_VECTOR_TYPES(short, short)
WARPDRILL_VECTOR_TYPES(ushort, unsigned short)
WARPDRILL_VECTOR_TYPES(int, int)
WARPDRILL_VECTOR_TYPES(uint, unsigned)
WARPDRILL_VECTOR_TYPES(float, float)
#define WARPDRILL_DEPRECATED_FOUR_VECTOR(base, T) \
    WARPDRILL_ALIGNED_FOUR_VECTORS(base, T)       \
    struct [[deprecated("use " #base "4_16a or " #base "4_32a")]] base##4;
WARPDRILL_DEPRECATED_FOUR_VECTOR(long, long)
WARPDRILL_DEPRECATED_FOUR_VECTOR(ulong, unsigned long)
WARPDRILL_DEPRECATED_FOUR_VECTOR(longlong, long long)
WARPDRILL_DEPRECATED_FOUR_VECTOR(ulonglong, unsigned long long)
WARPDRILL_DEPRECATED_FOUR_VECTOR(double, double)
WARPDRILL_VECTOR_TYPES(long, long)
WARPDRILL_VECTOR_TYPES(ulong, unsigned long)
WARPDRILL_VECTOR_TYPES(longlong, long long)
WARPDRILL_VECTOR_TYPES(ulonglong, unsigned long long)
WARPDRILL_VECTOR_TYPES(double, double)
#pragma GCC diagnostic pop
#undef WARPDRILL_DEPRECATED_FOUR_VECTOR
#undef WARPDRILL_ALIGNED_FOUR_VECTORS
#undef WARPDRILL_VECTOR_TYPES

struct dim3 {
    unsigned x = 1, y = 1, z = 1;
    constexpr dim3(unsigned vx = 1, unsigned vy = 1, unsigned vz = 1) : x(vx), y(vy), z(vz) {}
    constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
    constexpr operator uint3() const { return {x, y, z}; }
};
