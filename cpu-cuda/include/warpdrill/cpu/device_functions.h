// CUDA's device functions that plain C++ lacks or spells otherwise: the
// overloads CUDA gives the math functions (abs of a float is a float; min and
// max of CUDA's pairs of types), the intrinsics, the bit operations and the
// cache-hinted loads and stores. Included by cuda_runtime.h.
//
// The fast-math intrinsics (__expf, __logf, __sinf, ...) are approximations
// on a GPU (the Programming Guide's table of intrinsic functions gives their
// error bounds); here they are the correctly rounded functions, which lie
// within those bounds. The _rn/_rz/_ru/_rd forms round as named.
#pragma once

#include <bit>
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <ctime>
#include <math.h>  // abs, fabs, fmin ... of every type in the global namespace, as CUDA has them
#include <type_traits>

// ---- min and max: CUDA's overloads, and no others ---------------------------------
// For int, long and long long, signed and unsigned (a mixed pair compares as
// the unsigned type), and float and double (a mixed pair as double): so
// max(x, 0) with a float x is ambiguous here as it is under nvcc. A kernel's
// min and max of floats are min.f32 and max.f32 (.f64) on a GPU, and so here;
// in host code they are the C library's fmin and fmax, as under nvcc (which
// differ only in which zero or which NaN they give).
namespace warpdrill::cpu::detail {
// min and max of floats as an H200 computes them (results/float-min-max-probe-h200.txt):
// a NaN loses to a number, and -0 is less than +0 (the C library's fmin and
// fmax may give either zero). Of two NaNs, min.f32 and max.f32 give the
// canonical NaN; min.f64 and max.f64 give the second operand's, quieted,
// where ptxas may have swapped the two.
template <class T>
T min_max(T a, T b, bool larger) {
    if (std::isnan(a) && std::isnan(b)) {
        if constexpr (sizeof(T) == 4)
            return std::bit_cast<T>(std::uint32_t{0x7fffffff});
        else
            return std::bit_cast<T>(std::bit_cast<std::uint64_t>(b) | std::uint64_t{1} << 51);
    }
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) ? b : a;
    if (a == b) return std::signbit(a) == larger ? b : a;
    return (a < b) == larger ? b : a;
}
// Whether the calling thread runs a kernel's thread (scheduler.cpp).
bool in_kernel();
// min or max of two floats: in a kernel as a GPU computes them, in host code
// as the C library's fmin and fmax do, which nvcc's host code calls (and a
// long double's, which only host code has).
template <class T>
T float_min_max(T a, T b, bool larger) {
    if constexpr (!std::is_same_v<T, long double>)
        if (in_kernel()) return min_max(a, b, larger);
    return larger ? std::fmax(a, b) : std::fmin(a, b);
}
template <class T>
T smaller(T a, T b) {
    if constexpr (std::is_floating_point_v<T>) return float_min_max(a, b, false);
    else return a < b ? a : b;
}
template <class T>
T larger(T a, T b) {
    if constexpr (std::is_floating_point_v<T>) return float_min_max(a, b, true);
    else return a > b ? a : b;
}
// fminf, fmaxf, fmin and fmax as the program calls them (cudacc turns its
// calls into these, rewrite.h). fmin and fmax take any pair of arithmetic
// types, as C++'s do (an int and a float as two doubles); a type of the
// program's goes to the program's own fmin or fmax (found by its type).
inline float program_fminf(float a, float b) { return float_min_max(a, b, false); }
inline float program_fmaxf(float a, float b) { return float_min_max(a, b, true); }
template <class A, class B>
auto arithmetic_min_max(A a, B b, bool larger) {
    using T = decltype(std::fmin(a, b));
    return float_min_max(static_cast<T>(a), static_cast<T>(b), larger);
}
template <class A, class B>
auto program_fmin(A a, B b) {
    if constexpr (std::is_arithmetic_v<A> && std::is_arithmetic_v<B>) return arithmetic_min_max(a, b, false);
    else return fmin(a, b);
}
template <class A, class B>
auto program_fmax(A a, B b) {
    if constexpr (std::is_arithmetic_v<A> && std::is_arithmetic_v<B>) return arithmetic_min_max(a, b, true);
    else return fmax(a, b);
}
}  // namespace warpdrill::cpu::detail

#define WARPDRILL_MIN_MAX(Result, A, B)                                                          \
    inline Result min(A a, B b) {                                                                \
        return warpdrill::cpu::detail::smaller(static_cast<Result>(a), static_cast<Result>(b)); \
    }                                                                                            \
    inline Result max(A a, B b) {                                                                \
        return warpdrill::cpu::detail::larger(static_cast<Result>(a), static_cast<Result>(b));  \
    }
// One integer width: the signed pair, the unsigned pair, the two mixed pairs.
#define WARPDRILL_MIN_MAX_INTEGERS(Signed, Unsigned) \
    WARPDRILL_MIN_MAX(Signed, Signed, Signed)        \
    WARPDRILL_MIN_MAX(Unsigned, Unsigned, Unsigned)  \
    WARPDRILL_MIN_MAX(Unsigned, Signed, Unsigned)    \
    WARPDRILL_MIN_MAX(Unsigned, Unsigned, Signed)
WARPDRILL_MIN_MAX_INTEGERS(int, unsigned int)
WARPDRILL_MIN_MAX_INTEGERS(long, unsigned long)
WARPDRILL_MIN_MAX_INTEGERS(long long, unsigned long long)
WARPDRILL_MIN_MAX(float, float, float)
WARPDRILL_MIN_MAX(double, double, double)
WARPDRILL_MIN_MAX(double, float, double)
WARPDRILL_MIN_MAX(double, double, float)
#undef WARPDRILL_MIN_MAX_INTEGERS
#undef WARPDRILL_MIN_MAX
// The integer ones CUDA names by type.
inline unsigned umin(unsigned a, unsigned b) { return min(a, b); }
inline unsigned umax(unsigned a, unsigned b) { return max(a, b); }
inline long long llmin(long long a, long long b) { return min(a, b); }
inline long long llmax(long long a, long long b) { return max(a, b); }
inline unsigned long long ullmin(unsigned long long a, unsigned long long b) { return min(a, b); }
inline unsigned long long ullmax(unsigned long long a, unsigned long long b) { return max(a, b); }

// ---- the cycle counter ----------------------------------------------------------------
// In a kernel, the SM's cycle counter: here the time since the program began,
// in cycles of the imitated GPU's clock (1.98 GHz). clock() is its low 32
// bits, as the PTX register %clock; cudacc turns a call of clock() in the
// program's files into program_clock(), which is the C library's clock()
// in host code, as nvcc's clock() is.
long long clock64();
namespace warpdrill::cpu::detail {
clock_t program_clock();
}  // namespace warpdrill::cpu::detail

// ---- malloc() and free() in a kernel ------------------------------------------------
// cudacc turns the program's calls of malloc() and free() into these: the
// GPU's heap in a kernel (nullptr when it is full, as on a GPU), the C
// library's in host code (device_heap.cpp).
namespace warpdrill::cpu::detail {
void* program_malloc(std::size_t bytes);
void program_free(void* ptr);
}  // namespace warpdrill::cpu::detail

// ---- single-precision intrinsics ----------------------------------------------------
inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }
inline double rsqrt(double x) { return 1.0 / std::sqrt(x); }
inline float rcbrtf(float x) { return 1.0f / std::cbrt(x); }
inline float exp10f(float x) { return std::pow(10.0f, x); }
inline float fdividef(float a, float b) { return a / b; }
inline float __fdividef(float a, float b) { return a / b; }
inline float __expf(float x) { return std::exp(x); }
inline float __exp10f(float x) { return std::pow(10.0f, x); }
inline float __logf(float x) { return std::log(x); }
inline float __log2f(float x) { return std::log2(x); }
inline float __log10f(float x) { return std::log10(x); }
inline float __powf(float x, float y) { return std::pow(x, y); }
inline float __sinf(float x) { return std::sin(x); }
inline float __cosf(float x) { return std::cos(x); }
inline float __tanf(float x) { return std::tan(x); }
inline void __sincosf(float x, float* s, float* c) {
    *s = std::sin(x);
    *c = std::cos(x);
}
inline void sincosf(float x, float* s, float* c) { __sincosf(x, s, c); }
// Clamps to [0, 1]; NaN gives 0.
inline float __saturatef(float x) { return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f; }

namespace warpdrill::cpu::detail {
// A value read through a volatile: the compiler can neither fold what is
// computed from it nor move that computation before this read.
template <class T>
T opaque(T value) {
    volatile T copy = value;
    return copy;
}
// `operation()` in the rounding mode `mode` (FE_TONEAREST, ...). It reads
// its operands through opaque() and its result goes to a volatile, so it is
// computed after the mode is set and before it is restored.
template <class Operation>
auto rounded(int mode, Operation operation) {
    const int saved = std::fegetround();
    std::fesetround(mode);
    volatile auto result = operation();
    std::fesetround(saved);
    return result;
}
}  // namespace warpdrill::cpu::detail

// __fadd_rn, __fadd_rz, __fadd_ru, __fadd_rd and the rest: one operation,
// rounded as the suffix says.
#define WARPDRILL_ROUNDED(T, name, suffix, mode, parameters, expression)          \
    inline T name##_##suffix parameters {                                         \
        using warpdrill::cpu::detail::opaque;                                     \
        return warpdrill::cpu::detail::rounded(mode, [=] { return expression; }); \
    }
#define WARPDRILL_ROUNDED_OPS(suffix, mode)                                                                \
    WARPDRILL_ROUNDED(float, __fadd, suffix, mode, (float a, float b), opaque(a) + opaque(b))              \
    WARPDRILL_ROUNDED(float, __fsub, suffix, mode, (float a, float b), opaque(a) - opaque(b))              \
    WARPDRILL_ROUNDED(float, __fmul, suffix, mode, (float a, float b), opaque(a) * opaque(b))              \
    WARPDRILL_ROUNDED(float, __fdiv, suffix, mode, (float a, float b), opaque(a) / opaque(b))              \
    WARPDRILL_ROUNDED(float, __frcp, suffix, mode, (float a), 1.0f / opaque(a))                            \
    WARPDRILL_ROUNDED(float, __fsqrt, suffix, mode, (float a), std::sqrt(opaque(a)))                       \
    WARPDRILL_ROUNDED(float, __fmaf, suffix, mode, (float a, float b, float c), std::fma(opaque(a), b, c)) \
    WARPDRILL_ROUNDED(double, __dadd, suffix, mode, (double a, double b), opaque(a) + opaque(b))           \
    WARPDRILL_ROUNDED(double, __dsub, suffix, mode, (double a, double b), opaque(a) - opaque(b))           \
    WARPDRILL_ROUNDED(double, __dmul, suffix, mode, (double a, double b), opaque(a) * opaque(b))           \
    WARPDRILL_ROUNDED(double, __ddiv, suffix, mode, (double a, double b), opaque(a) / opaque(b))           \
    WARPDRILL_ROUNDED(double, __drcp, suffix, mode, (double a), 1.0 / opaque(a))                           \
    WARPDRILL_ROUNDED(double, __dsqrt, suffix, mode, (double a), std::sqrt(opaque(a)))                     \
    WARPDRILL_ROUNDED(double, __fma, suffix, mode, (double a, double b, double c), std::fma(opaque(a), b, c))
WARPDRILL_ROUNDED_OPS(rn, FE_TONEAREST)
WARPDRILL_ROUNDED_OPS(rz, FE_TOWARDZERO)
WARPDRILL_ROUNDED_OPS(ru, FE_UPWARD)
WARPDRILL_ROUNDED_OPS(rd, FE_DOWNWARD)
#undef WARPDRILL_ROUNDED_OPS
#undef WARPDRILL_ROUNDED
inline float __frsqrt_rn(float x) { return 1.0f / std::sqrt(x); }

// ---- conversions and reinterpretations ------------------------------------------------
inline int __float_as_int(float x) { return std::bit_cast<int>(x); }
inline float __int_as_float(int x) { return std::bit_cast<float>(x); }
inline unsigned __float_as_uint(float x) { return std::bit_cast<unsigned>(x); }
inline float __uint_as_float(unsigned x) { return std::bit_cast<float>(x); }
inline long long __double_as_longlong(double x) { return std::bit_cast<long long>(x); }
inline double __longlong_as_double(long long x) { return std::bit_cast<double>(x); }
inline int __float2int_rn(float x) { return static_cast<int>(std::nearbyint(x)); }
inline int __float2int_rz(float x) { return static_cast<int>(x); }
inline int __float2int_rd(float x) { return static_cast<int>(std::floor(x)); }
inline int __float2int_ru(float x) { return static_cast<int>(std::ceil(x)); }
inline unsigned __float2uint_rn(float x) { return static_cast<unsigned>(std::nearbyint(x)); }
inline float __int2float_rn(int x) { return static_cast<float>(x); }
inline float __uint2float_rn(unsigned x) { return static_cast<float>(x); }
inline float __double2float_rn(double x) { return static_cast<float>(x); }
inline int __double2hiint(double x) { return static_cast<int>(std::bit_cast<unsigned long long>(x) >> 32); }
inline int __double2loint(double x) { return static_cast<int>(std::bit_cast<unsigned long long>(x)); }
inline double __hiloint2double(int hi, int lo) {
    return std::bit_cast<double>(static_cast<unsigned long long>(static_cast<unsigned>(hi)) << 32 |
                                 static_cast<unsigned>(lo));
}

// ---- integer intrinsics ------------------------------------------------------------
inline int __popc(unsigned x) { return std::popcount(x); }
inline int __popcll(unsigned long long x) { return std::popcount(x); }
inline int __ffs(int x) { return x == 0 ? 0 : std::countr_zero(static_cast<unsigned>(x)) + 1; }
inline int __ffsll(long long x) {
    return x == 0 ? 0 : std::countr_zero(static_cast<unsigned long long>(x)) + 1;
}
inline int __clz(int x) { return std::countl_zero(static_cast<unsigned>(x)); }
inline int __clzll(long long x) { return std::countl_zero(static_cast<unsigned long long>(x)); }
namespace warpdrill::cpu::detail {
// x's bits in the opposite order (brev, of any width).
template <class T>
T reverse_bits(T x) {
    auto bits = static_cast<std::make_unsigned_t<T>>(x);
    decltype(bits) reversed = 0;
    for (unsigned k = 0; k < 8 * sizeof(T); ++k, bits >>= 1)
        reversed = static_cast<decltype(bits)>(reversed << 1 | (bits & 1u));
    return static_cast<T>(reversed);
}
// prmt.b32's default mode: byte n of the result is the byte of y:x (x's
// lowest byte is 0, y's highest 7) that selector nibble n's low three bits
// pick, or, where its high bit is set, that byte's sign bit repeated.
inline unsigned permute_bytes(unsigned x, unsigned y, unsigned selectors) {
    const unsigned long long bytes = static_cast<unsigned long long>(y) << 32 | x;
    unsigned result = 0;
    for (int n = 0; n < 4; ++n) {
        const unsigned nibble = selectors >> (4 * n) & 0xfu;
        unsigned byte = static_cast<unsigned>(bytes >> (8 * (nibble & 7u))) & 0xffu;
        if (nibble & 8u) byte = byte & 0x80u ? 0xffu : 0u;
        result |= byte << (8 * n);
    }
    return result;
}
}  // namespace warpdrill::cpu::detail

inline unsigned __brev(unsigned x) { return warpdrill::cpu::detail::reverse_bits(x); }
inline int __mul24(int a, int b) {  // the low 24 bits of each, sign-extended
    return (static_cast<int>(static_cast<unsigned>(a) << 8) >> 8) *
           (static_cast<int>(static_cast<unsigned>(b) << 8) >> 8);
}
inline unsigned __umul24(unsigned a, unsigned b) { return (a & 0xffffffu) * (b & 0xffffffu); }
inline int __mulhi(int a, int b) { return static_cast<int>((static_cast<long long>(a) * b) >> 32); }
inline unsigned __umulhi(unsigned a, unsigned b) {
    return static_cast<unsigned>((static_cast<unsigned long long>(a) * b) >> 32);
}

// Byte n of the result is byte s[4n+2:4n] of the eight bytes y:x: prmt
// without the selectors' sign bits.
inline unsigned __byte_perm(unsigned x, unsigned y, unsigned s) {
    return warpdrill::cpu::detail::permute_bytes(x, y, s & 0x7777u);
}
// hi:lo shifted left (the high 32 bits) or right (the low 32) by shift % 32,
// or, in the _lc and _rc forms, by min(shift, 32).
inline unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned shift) {
    return static_cast<unsigned>((static_cast<unsigned long long>(hi) << 32 | lo) << (shift & 31u) >> 32);
}
inline unsigned __funnelshift_lc(unsigned lo, unsigned hi, unsigned shift) {
    return shift >= 32 ? lo : __funnelshift_l(lo, hi, shift);
}
inline unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned shift) {
    return static_cast<unsigned>((static_cast<unsigned long long>(hi) << 32 | lo) >> (shift & 31u));
}
inline unsigned __funnelshift_rc(unsigned lo, unsigned hi, unsigned shift) {
    return shift >= 32 ? hi : __funnelshift_r(lo, hi, shift);
}

namespace warpdrill::cpu::detail {
// Part `index` of `bits` as a `Part` (std::int8_t, std::uint16_t, ...), widened to an int or unsigned.
template <class Part, class Bits>
auto part(Bits bits, int index) {
    using Widened = std::conditional_t<std::is_signed_v<Part>, int, unsigned>;
    return static_cast<Widened>(static_cast<Part>(static_cast<unsigned>(bits) >> (8 * sizeof(Part) * index)));
}
// c plus the products of a's two 16-bit halves with two bytes of b, from byte `first`.
template <class Half, class Byte, class T>
T dot_halves_bytes(T a, T b, T c, int first) {
    return c + part<Half>(a, 0) * part<Byte>(b, first) + part<Half>(a, 1) * part<Byte>(b, first + 1);
}
}  // namespace warpdrill::cpu::detail

// c plus the products of a's and b's four bytes, signed or unsigned.
inline int __dp4a(int a, int b, int c) {
    using warpdrill::cpu::detail::part;
    for (int i = 0; i < 4; ++i) c += part<std::int8_t>(a, i) * part<std::int8_t>(b, i);
    return c;
}
inline unsigned __dp4a(unsigned a, unsigned b, unsigned c) {
    using warpdrill::cpu::detail::part;
    for (int i = 0; i < 4; ++i) c += part<std::uint8_t>(a, i) * part<std::uint8_t>(b, i);
    return c;
}
inline int __dp4a(char4 a, char4 b, int c) { return __dp4a(std::bit_cast<int>(a), std::bit_cast<int>(b), c); }
inline unsigned __dp4a(uchar4 a, uchar4 b, unsigned c) {
    return __dp4a(std::bit_cast<unsigned>(a), std::bit_cast<unsigned>(b), c);
}
// c plus the products of a's two 16-bit halves with b's two low (_lo) or high (_hi) bytes.
inline int __dp2a_lo(int a, int b, int c) {
    return warpdrill::cpu::detail::dot_halves_bytes<std::int16_t, std::int8_t>(a, b, c, 0);
}
inline int __dp2a_hi(int a, int b, int c) {
    return warpdrill::cpu::detail::dot_halves_bytes<std::int16_t, std::int8_t>(a, b, c, 2);
}
inline unsigned __dp2a_lo(unsigned a, unsigned b, unsigned c) {
    return warpdrill::cpu::detail::dot_halves_bytes<std::uint16_t, std::uint8_t>(a, b, c, 0);
}
inline unsigned __dp2a_hi(unsigned a, unsigned b, unsigned c) {
    return warpdrill::cpu::detail::dot_halves_bytes<std::uint16_t, std::uint8_t>(a, b, c, 2);
}

// |x - y| + z.
inline unsigned __sad(int x, int y, unsigned z) {
    return z + static_cast<unsigned>(x > y ? static_cast<long long>(x) - y : static_cast<long long>(y) - x);
}
inline unsigned __usad(unsigned x, unsigned y, unsigned z) { return z + (x > y ? x - y : y - x); }
// The average of x and y, rounded down (__hadd) or up (__rhadd), without overflow.
inline int __hadd(int x, int y) { return static_cast<int>((static_cast<long long>(x) + y) >> 1); }
inline int __rhadd(int x, int y) { return static_cast<int>((static_cast<long long>(x) + y + 1) >> 1); }
inline unsigned __uhadd(unsigned x, unsigned y) {
    return static_cast<unsigned>((static_cast<unsigned long long>(x) + y) >> 1);
}
inline unsigned __urhadd(unsigned x, unsigned y) {
    return static_cast<unsigned>((static_cast<unsigned long long>(x) + y + 1) >> 1);
}

// A GPU's thread sleeps for between 0 and twice `ns` nanoseconds; the CPU
// backend's sleeps for 0 (a spin loop around it still yields: access.h).
inline void __nanosleep(unsigned) {}

// ---- loads and stores with cache hints: on the CPU, plain loads and stores -------------
template <class T>
T __ldg(const T* address) {
    return *address;
}
#define WARPDRILL_CACHE_HINTED_LOAD(name) \
    template <class T>                    \
    T name(const T* address) {            \
        return *address;                  \
    }
WARPDRILL_CACHE_HINTED_LOAD(__ldca)
WARPDRILL_CACHE_HINTED_LOAD(__ldcg)
WARPDRILL_CACHE_HINTED_LOAD(__ldcs)
WARPDRILL_CACHE_HINTED_LOAD(__ldlu)
WARPDRILL_CACHE_HINTED_LOAD(__ldcv)
#undef WARPDRILL_CACHE_HINTED_LOAD
#define WARPDRILL_CACHE_HINTED_STORE(name) \
    template <class T>                     \
    void name(T* address, T value) {       \
        *address = value;                  \
    }
WARPDRILL_CACHE_HINTED_STORE(__stwb)
WARPDRILL_CACHE_HINTED_STORE(__stcg)
WARPDRILL_CACHE_HINTED_STORE(__stcs)
WARPDRILL_CACHE_HINTED_STORE(__stwt)
#undef WARPDRILL_CACHE_HINTED_STORE
