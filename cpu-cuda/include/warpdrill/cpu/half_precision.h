// warpdrill's CPU backend: what <cuda_fp16.h> and <cuda_bf16.h> share. Both
// types are 16-bit floats that differ only in how the bits split between
// exponent and fraction (__half: 5 and 10, __nv_bfloat16: 8 and 7), so one
// implementation, a template over that split, computes for both; each header
// then gives the functions CUDA's names (WARPDRILL_HALF_PRECISION_API).
//
// Every result is the one an H100 (sm_90) gives, bit for bit:
// - conversions round as named (_rn to nearest even, _rz, _rd, _ru), with
//   subnormals, overflow to infinity (to the largest finite number where the
//   rounding is toward zero), and NaN becoming the canonical NaN 0x7fff;
// - add, subtract, multiply, divide, fma and the math functions (hsqrt, hexp,
//   hlog, hsin, ...) are correctly rounded. NVIDIA computes some of them in
//   float with approximations (__hdiv, hexp, ...) and corrects the inputs where
//   an approximation misses, so that on sm_90 each result is the correctly
//   rounded one: an H100 agrees with this file on every input of the math
//   functions and every pair of inputs of the binary operations. htanh_approx,
//   an approximation that is not correctly rounded, is left out;
// - every NaN an operation makes is 0x7fff, also from __hneg and __habs.
//
// How: a 16-bit value converts exactly to double, and the exact result of
// +, -, *, / or a math function is rounded to double, then to 16 bits. Double
// has at least 2p + 2 bits for both formats' p (11 and 8), and then rounding
// twice gives what rounding once does, for +, -, *, / and sqrt (Figueroa,
// "When is double rounding innocuous?", 1995); libm's exp, log, sin ... are
// within an ulp of double, and no 16-bit input's result lies that close to a
// midpoint of the 16-bit grid. fma is the exception: its double sum is rounded
// to odd (sum_rounded_to_odd), which makes the second rounding exact.
// Include <cuda_fp16.h> or <cuda_bf16.h>, not this file.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <functional>
#include <limits>

#include "warpdrill/cpu/cuda_runtime.h"

namespace warpdrill::cpu::half_precision {

// ---- the two formats -------------------------------------------------------------------
// A 16-bit binary floating-point format: a sign bit, then the exponent, then the fraction.
struct Format {
    int exponent_bits;
    int fraction_bits;

    constexpr bool operator==(const Format&) const = default;
    constexpr int bias() const { return (1 << (exponent_bits - 1)) - 1; }
    // The exponent of the last fraction bit of the smallest numbers (the subnormals).
    constexpr int min_quantum() const { return 1 - bias() - fraction_bits; }
    constexpr std::uint16_t infinity() const {
        return static_cast<std::uint16_t>(((1u << exponent_bits) - 1) << fraction_bits);
    }
    constexpr std::uint16_t one() const { return static_cast<std::uint16_t>(bias() << fraction_bits); }
};
inline constexpr Format binary16{5, 10};  // IEEE 754 half precision: __half
inline constexpr Format bfloat16{8, 7};   // float's exponent with 7 fraction bits: __nv_bfloat16

using Bits = std::uint16_t;
inline constexpr Bits sign_bit = 0x8000;
// The one NaN that sm_90 produces, whatever NaN went in.
inline constexpr Bits canonical_nan = 0x7fff;

template <Format format>
constexpr bool is_nan(Bits bits) {
    return (bits & ~sign_bit) > format.infinity();
}

enum class Rounding { nearest_even, toward_zero, down, up };

// ---- decoding: every 16-bit value is exactly a double -------------------------------------
template <Format format>
double to_double(Bits bits) {
    const int exponent_field = (bits & ~sign_bit) >> format.fraction_bits;
    const int fraction = bits & ((1 << format.fraction_bits) - 1);
    double magnitude;
    if (exponent_field == (1 << format.exponent_bits) - 1) {
        magnitude = fraction != 0 ? std::numeric_limits<double>::quiet_NaN() : HUGE_VAL;
    } else if (exponent_field == 0) {
        magnitude = std::ldexp(fraction, format.min_quantum());
    } else {
        const int significand = fraction | (1 << format.fraction_bits);
        magnitude = std::ldexp(significand, format.min_quantum() + exponent_field - 1);
    }
    return (bits & sign_bit) != 0 ? -magnitude : magnitude;
}

// Widening to float, as sm_90's cvt.f32.f16 and cvt.f32.bf16: a bfloat16 is
// the upper half of a float, so its bits move up, NaN payload and all; a half
// NaN becomes float's canonical NaN.
template <Format format>
float to_float(Bits bits) {
    if constexpr (format == bfloat16) {
        return std::bit_cast<float>(static_cast<std::uint32_t>(bits) << 16);
    } else {
        return is_nan<format>(bits) ? std::bit_cast<float>(0x7fffffffu)
                                    : static_cast<float>(to_double<format>(bits));
    }
}

// ---- encoding: rounding an exact value to 16 bits ---------------------------------------------
// Whether dropping `rest` (below `kept`, whose last bit is worth 2 * halfway) rounds `kept` up.
inline bool rounds_up(std::uint64_t kept, std::uint64_t rest, std::uint64_t halfway, Rounding mode,
                      bool negative) {
    if (rest == 0) return false;
    switch (mode) {
        case Rounding::nearest_even: return rest > halfway || (rest == halfway && (kept & 1) != 0);
        case Rounding::toward_zero: return false;
        case Rounding::down: return negative;
        case Rounding::up: return !negative;
    }
    return false;
}

// (-1)^negative * significand * 2^exponent, rounded to the format.
template <Format format>
Bits encode(bool negative, std::uint64_t significand, int exponent, Rounding mode) {
    const Bits sign = negative ? sign_bit : 0;
    if (significand == 0) return sign;
    // Put the leading bit at bit 62, then keep the bits from the format's last fraction bit up.
    // A 64-bit integer's bit 63 moves down one; its bit 0, far below the kept bits, is then
    // needed only as "something below was set", so it joins bit 1.
    if ((significand >> 63) != 0) {
        significand = (significand >> 1) | (significand & 1);
        ++exponent;
    }
    const int normalize = std::countl_zero(significand) - 1;
    significand <<= normalize;
    exponent -= normalize;
    const int quantum = std::max(62 + exponent - format.fraction_bits, format.min_quantum());
    const int dropped_bits = quantum - exponent;  // at least 62 - fraction_bits
    // Where everything is dropped, what is dropped is below half of the quantum.
    std::uint64_t kept = 0, rest = 1, halfway = 2;
    if (dropped_bits < 64) {
        kept = significand >> dropped_bits;
        rest = significand & ((std::uint64_t{1} << dropped_bits) - 1);
        halfway = std::uint64_t{1} << (dropped_bits - 1);
    }
    if (rounds_up(kept, rest, halfway, mode, negative)) ++kept;
    // The exponent field counts quanta above the subnormals' one; a kept value
    // that carried into a new binade carries into the exponent field by itself.
    const std::uint64_t magnitude =
        (static_cast<std::uint64_t>(quantum - format.min_quantum()) << format.fraction_bits) + kept;
    if (magnitude < format.infinity()) return sign | static_cast<Bits>(magnitude);
    const bool to_infinity = mode == Rounding::nearest_even || (mode == Rounding::up && !negative) ||
                             (mode == Rounding::down && negative);
    return sign | (to_infinity ? format.infinity() : static_cast<Bits>(format.infinity() - 1));
}

template <Format format>
Bits bits_from_double(double value, Rounding mode = Rounding::nearest_even) {
    const auto bits = std::bit_cast<std::uint64_t>(value);
    const bool negative = (bits >> 63) != 0;
    const int exponent_field = static_cast<int>((bits >> 52) & 0x7ff);
    const std::uint64_t fraction = bits & ((std::uint64_t{1} << 52) - 1);
    if (exponent_field == 0x7ff) {
        return fraction != 0 ? canonical_nan
                             : static_cast<Bits>((negative ? sign_bit : 0) | format.infinity());
    }
    if (exponent_field == 0) return encode<format>(negative, fraction, -1074, mode);
    return encode<format>(negative, fraction | (std::uint64_t{1} << 52), exponent_field - 1075, mode);
}

template <Format format, std::integral Int>
Bits bits_from_integer(Int value, Rounding mode) {
    const bool negative = value < 0;
    const auto magnitude = static_cast<std::uint64_t>(value);
    return encode<format>(negative, negative ? 0 - magnitude : magnitude, 0, mode);
}

// x + y, rounded to double so that rounding it again to 16 bits rounds the
// exact sum once: when the sum is inexact its last bit is made 1 (rounding to
// odd, Boldo and Melquiond 2008), so that it cannot land on a midpoint of the
// 16-bit grid that the exact sum is only near.
inline double sum_rounded_to_odd(double x, double y) {
    const double sum = x + y;
    if (!std::isfinite(sum)) return sum;
    // Knuth's TwoSum: the exact error of the rounded sum.
    const double y_in_sum = sum - x;
    const double error = (x - (sum - y_in_sum)) + (y - y_in_sum);
    auto bits = std::bit_cast<std::uint64_t>(sum);
    if (error == 0 || (bits & 1) != 0) return sum;
    const bool exact_is_farther_from_zero = (error > 0) == (sum > 0);
    bits = exact_is_farther_from_zero ? bits + 1 : bits - 1;
    return std::bit_cast<double>(bits);
}

// ---- rounding to an integral value, and to an integer type -----------------------------------
inline double round_to_integral(double value, Rounding mode) {
    switch (mode) {
        case Rounding::toward_zero: return std::trunc(value);
        case Rounding::down: return std::floor(value);
        case Rounding::up: return std::ceil(value);
        case Rounding::nearest_even: break;
    }
    // Not nearbyint: it would follow the thread's floating-point rounding mode.
    const double truncated = std::trunc(value);
    const double fraction = std::fabs(value - truncated);
    const bool odd = std::fmod(truncated, 2.0) != 0;
    if (fraction > 0.5 || (fraction == 0.5 && odd)) return truncated + std::copysign(1.0, value);
    return truncated;
}

// cvt.rni/rzi/rmi/rpi to an integer type: saturates at the type's limits; NaN
// gives 0, except in 64 bits, where it gives the bit pattern 0x8000000000000000.
template <std::integral Int, Format format>
Int bits_to_integer(Bits bits, Rounding mode) {
    if (is_nan<format>(bits)) return sizeof(Int) == 8 ? static_cast<Int>(std::uint64_t{1} << 63) : Int{0};
    const double integral = round_to_integral(to_double<format>(bits), mode);
    using Limits = std::numeric_limits<Int>;
    if (integral <= static_cast<double>(Limits::min())) return Limits::min();
    if (integral >= static_cast<double>(Limits::max())) return Limits::max();
    return static_cast<Int>(integral);
}

// ---- what the types share: __half and __nv_bfloat16 derive from Scalar, __half2 and
// __nv_bfloat162 from Pair (in <cuda_fp16.h> and <cuda_bf16.h>) ------------------------------
// The constructors and conversions that CUDA gives both types: implicit from
// and to float and the integer types (to an integer rounding toward zero),
// explicit between the two formats, and from and to the raw bits.
template <Format format_, class Raw>
class Scalar {
  public:
    static constexpr Format format = format_;

    Scalar() = default;
    constexpr Scalar(Raw raw) : __x(raw.x) {}
    Scalar(float value) : __x(bits_from_double<format>(value)) {}
    Scalar(double value) : __x(bits_from_double<format>(value)) {}
    Scalar(short value) : __x(from_integer(value)) {}
    Scalar(unsigned short value) : __x(from_integer(value)) {}
    Scalar(int value) : __x(from_integer(value)) {}
    Scalar(unsigned value) : __x(from_integer(value)) {}
    Scalar(long value) : __x(from_integer(value)) {}
    Scalar(unsigned long value) : __x(from_integer(value)) {}
    Scalar(long long value) : __x(from_integer(value)) {}
    Scalar(unsigned long long value) : __x(from_integer(value)) {}
    // __half(bfloat16) and __nv_bfloat16(half), as cvt.rn.f16.bf16 and cvt.rn.bf16.f16.
    template <Format other, class OtherRaw>
    requires(other != format) explicit Scalar(Scalar<other, OtherRaw> value)
        : __x(bits_from_double<format>(to_double<other>(std::bit_cast<Bits>(value)))) {}

    constexpr operator Raw() const { return {__x}; }
    operator float() const { return to_float<format>(__x); }
    operator signed char() const { return to_integer<signed char>(); }
    operator unsigned char() const { return to_integer<unsigned char>(); }
    operator char() const { return to_integer<char>(); }
    operator short() const { return to_integer<short>(); }
    operator unsigned short() const { return to_integer<unsigned short>(); }
    operator int() const { return to_integer<int>(); }
    operator unsigned() const { return to_integer<unsigned>(); }
    operator long() const { return to_integer<long>(); }
    operator unsigned long() const { return to_integer<unsigned long>(); }
    operator long long() const { return to_integer<long long>(); }
    operator unsigned long long() const { return to_integer<unsigned long long>(); }
    // True for anything but ±0, NaN included.
    constexpr operator bool() const { return (__x & ~sign_bit) != 0; }

  protected:
    unsigned short __x;  // the bits, by CUDA's name

  private:
    template <class Int>
    static Bits from_integer(Int value) {
        return bits_from_integer<format>(value, Rounding::nearest_even);
    }
    template <class Int>
    Int to_integer() const {
        return bits_to_integer<Int, format>(__x, Rounding::toward_zero);
    }
};

// Two values in 32 bits: x in the low half, y in the high half.
template <class Half, class Raw>
struct Pair {
    Half x;
    Half y;

    Pair() = default;
    constexpr Pair(Half low, Half high) : x(low), y(high) {}
    Pair(Raw raw) : x(std::bit_cast<Half>(raw.x)), y(std::bit_cast<Half>(raw.y)) {}
    operator Raw() const { return {std::bit_cast<Bits>(x), std::bit_cast<Bits>(y)}; }
};

// ---- the operations, on either type ---------------------------------------------------------
template <class Half>
Bits bits_of(Half value) {
    return std::bit_cast<Bits>(value);
}
template <class Half>
Half from_bits(Bits bits) {
    return std::bit_cast<Half>(bits);
}
template <class Half>
bool is_nan(Half value) {
    return is_nan<Half::format>(bits_of(value));
}
template <class Half>
double value_of(Half value) {
    return to_double<Half::format>(bits_of(value));
}
template <class Half>
float float_of(Half value) {
    return to_float<Half::format>(bits_of(value));
}
template <class Half>
Half rounded(double value, Rounding mode) {
    return from_bits<Half>(bits_from_double<Half::format>(value, mode));
}
template <class Half>
Half nearest(double value) {
    return rounded<Half>(value, Rounding::nearest_even);
}
template <class Half, std::integral Int>
Half from_integer(Int value, Rounding mode) {
    return from_bits<Half>(bits_from_integer<Half::format>(value, mode));
}
template <std::integral Int, class Half>
Int to_integer(Half value, Rounding mode) {
    return bits_to_integer<Int, Half::format>(bits_of(value), mode);
}

template <class Half>
Half add(Half a, Half b) {
    return nearest<Half>(value_of(a) + value_of(b));
}
template <class Half>
Half subtract(Half a, Half b) {
    return nearest<Half>(value_of(a) - value_of(b));
}
template <class Half>
Half multiply(Half a, Half b) {
    return nearest<Half>(value_of(a) * value_of(b));  // exact in double
}
template <class Half>
Half divide(Half a, Half b) {
    return nearest<Half>(value_of(a) / value_of(b));
}
template <class Half>
Half fma(Half a, Half b, Half c) {
    return nearest<Half>(sum_rounded_to_odd(value_of(a) * value_of(b), value_of(c)));  // the product is exact
}

// What .sat does to a result: clamps it to [+0, 1], and NaN to +0.
template <class Half>
Half saturate(Half value) {
    if (is_nan(value) || (bits_of(value) & sign_bit) != 0) return from_bits<Half>(0);
    return from_bits<Half>(std::min(bits_of(value), Half::format.one()));
}
// What .relu does: a negative result becomes +0, a NaN the canonical NaN.
template <class Half>
Half relu(Half value) {
    if (is_nan(value)) return from_bits<Half>(canonical_nan);
    return (bits_of(value) & sign_bit) != 0 ? from_bits<Half>(0) : value;
}

template <class Half>
Half negate(Half value) {
    return from_bits<Half>(is_nan(value) ? canonical_nan : static_cast<Bits>(bits_of(value) ^ sign_bit));
}
template <class Half>
Half absolute(Half value) {
    return from_bits<Half>(is_nan(value) ? canonical_nan : static_cast<Bits>(bits_of(value) & ~sign_bit));
}

// max and min as sm_80 and later compute them: -0 is below +0, a NaN loses to a
// number (with .NaN, a NaN wins), and two NaNs give the canonical NaN. The bits,
// read as a sign-magnitude integer, order the numbers that way.
inline int ordering_key(Bits bits) {
    const int magnitude = bits & ~sign_bit;
    return (bits & sign_bit) != 0 ? -magnitude - 1 : magnitude;
}
template <class Half, class Pick>
Half max_or_min(Half a, Half b, bool nan_wins, Pick pick_a) {
    const bool any_nan = is_nan(a) || is_nan(b);
    if ((is_nan(a) && is_nan(b)) || (nan_wins && any_nan)) return from_bits<Half>(canonical_nan);
    if (any_nan) return is_nan(a) ? b : a;
    return pick_a(ordering_key(bits_of(a)), ordering_key(bits_of(b))) ? a : b;
}
template <class Half>
Half maximum(Half a, Half b, bool nan_wins = false) {
    return max_or_min(a, b, nan_wins, std::greater_equal<>());
}
template <class Half>
Half minimum(Half a, Half b, bool nan_wins = false) {
    return max_or_min(a, b, nan_wins, std::less_equal<>());
}

// An IEEE comparison: `relation` on the two values, and `if_unordered` where either is NaN.
template <class Half, class Relation>
bool compare(Half a, Half b, Relation relation, bool if_unordered) {
    const double x = value_of(a), y = value_of(b);
    return std::isunordered(x, y) ? if_unordered : relation(x, y);
}

// A predicate on each lane of a pair, as set.*.f16x2 gives it (1.0 or 0.0 per
// lane), and as a mask (0xffff or 0 per lane).
template <class Half2>
Half2 as_ones(bool low, bool high) {
    using Half = decltype(Half2::x);
    return {from_bits<Half>(low ? Half::format.one() : 0), from_bits<Half>(high ? Half::format.one() : 0)};
}
inline unsigned as_mask(bool low, bool high) { return (low ? 0xffffu : 0u) | (high ? 0xffff0000u : 0u); }

}  // namespace warpdrill::cpu::half_precision

// ---- CUDA's names, for one type ----------------------------------------------------------------
// <cuda_fp16.h> expands WARPDRILL_HALF_PRECISION_API(__half, __half2, half, half2) and <cuda_bf16.h>
// WARPDRILL_HALF_PRECISION_API(__nv_bfloat16, __nv_bfloat162, bfloat16, bfloat162): the scalar and
// pair types, and how the function names spell them (__float2half_rn, __float2bfloat16_rn, ...).
// The functions are plain overloads, as CUDA's are, so that arguments convert as they do with nvcc.
#define WARPDRILL_HP ::warpdrill::cpu::half_precision

// From the integer type Int (I in the names: __int2half_rn, __ll2bfloat16_rz) and back, rounding
// as `mode`, which the names spell `suffix` (rn, rz, rd or ru).
#define WARPDRILL_HP_INTEGER_CONVERSION(Half, S, Int, I, suffix, mode)                \
    inline Half __##I##2##S##_##suffix(Int value) {                                   \
        return WARPDRILL_HP::from_integer<Half>(value, WARPDRILL_HP::Rounding::mode); \
    }                                                                                 \
    inline Int __##S##2##I##_##suffix(Half value) {                                   \
        return WARPDRILL_HP::to_integer<Int>(value, WARPDRILL_HP::Rounding::mode);    \
    }
// Both directions in each of the four rounding modes.
#define WARPDRILL_HP_INTEGER_CONVERSIONS(Half, S, Int, I)              \
    WARPDRILL_HP_INTEGER_CONVERSION(Half, S, Int, I, rn, nearest_even) \
    WARPDRILL_HP_INTEGER_CONVERSION(Half, S, Int, I, rz, toward_zero)  \
    WARPDRILL_HP_INTEGER_CONVERSION(Half, S, Int, I, rd, down)         \
    WARPDRILL_HP_INTEGER_CONVERSION(Half, S, Int, I, ru, up)

// The conversions whose names spell the type: __float2half_rn, __half2float, __halves2half2 ...
#define WARPDRILL_HP_NAMED_CONVERSIONS(Half, Half2, S, S2)                                               \
    inline Half __float2##S(float value) { return WARPDRILL_HP::nearest<Half>(value); }                  \
    inline Half __float2##S##_rn(float value) { return WARPDRILL_HP::nearest<Half>(value); }             \
    inline Half __float2##S##_rz(float value) {                                                          \
        return WARPDRILL_HP::rounded<Half>(value, WARPDRILL_HP::Rounding::toward_zero);                  \
    }                                                                                                    \
    inline Half __float2##S##_rd(float value) {                                                          \
        return WARPDRILL_HP::rounded<Half>(value, WARPDRILL_HP::Rounding::down);                         \
    }                                                                                                    \
    inline Half __float2##S##_ru(float value) {                                                          \
        return WARPDRILL_HP::rounded<Half>(value, WARPDRILL_HP::Rounding::up);                           \
    }                                                                                                    \
    /* Rounded once, from double to 16 bits (cvt.rn.f16.f64), not through float. */                      \
    inline Half __double2##S(double value) { return WARPDRILL_HP::nearest<Half>(value); }                \
    inline float __##S##2float(Half value) { return WARPDRILL_HP::float_of(value); }                     \
    inline Half2 __float2##S2##_rn(float value) {                                                        \
        return {__float2##S##_rn(value), __float2##S##_rn(value)};                                       \
    }                                                                                                    \
    inline Half2 __floats2##S2##_rn(float low, float high) {                                             \
        return {__float2##S##_rn(low), __float2##S##_rn(high)};                                          \
    }                                                                                                    \
    inline Half2 __float22##S2##_rn(float2 value) { return __floats2##S2##_rn(value.x, value.y); }       \
    inline float2 __##S2##2float2(Half2 value) {                                                         \
        return make_float2(__##S##2float(value.x), __##S##2float(value.y));                              \
    }                                                                                                    \
    inline Half2 make_##S2(Half low, Half high) { return {low, high}; }                                  \
    inline Half2 __halves2##S2(Half low, Half high) { return {low, high}; }                              \
    inline Half2 __##S##2##S2(Half value) { return {value, value}; }                                     \
    inline Half __low2##S(Half2 value) { return value.x; }                                               \
    inline Half __high2##S(Half2 value) { return value.y; }                                              \
    inline Half2 __low2##S2(Half2 value) { return {value.x, value.x}; }                                  \
    inline Half2 __high2##S2(Half2 value) { return {value.y, value.y}; }                                 \
    inline Half2 __lows2##S2(Half2 low, Half2 high) { return {low.x, high.x}; }                          \
    inline Half2 __highs2##S2(Half2 low, Half2 high) { return {low.y, high.y}; }                         \
    inline short __##S##_as_short(Half value) { return std::bit_cast<short>(value); }                    \
    inline unsigned short __##S##_as_ushort(Half value) { return std::bit_cast<unsigned short>(value); } \
    inline Half __short_as_##S(short bits) { return std::bit_cast<Half>(bits); }                         \
    inline Half __ushort_as_##S(unsigned short bits) { return std::bit_cast<Half>(bits); }               \
    inline signed char __##S##2char_rz(Half value) {                                                     \
        return WARPDRILL_HP::to_integer<signed char>(value, WARPDRILL_HP::Rounding::toward_zero);        \
    }                                                                                                    \
    inline unsigned char __##S##2uchar_rz(Half value) {                                                  \
        return WARPDRILL_HP::to_integer<unsigned char>(value, WARPDRILL_HP::Rounding::toward_zero);      \
    }                                                                                                    \
    WARPDRILL_HP_INTEGER_CONVERSIONS(Half, S, short, short)                                              \
    WARPDRILL_HP_INTEGER_CONVERSIONS(Half, S, unsigned short, ushort)                                    \
    WARPDRILL_HP_INTEGER_CONVERSIONS(Half, S, int, int)                                                  \
    WARPDRILL_HP_INTEGER_CONVERSIONS(Half, S, unsigned, uint)                                            \
    WARPDRILL_HP_INTEGER_CONVERSIONS(Half, S, long long, ll)                                             \
    WARPDRILL_HP_INTEGER_CONVERSIONS(Half, S, unsigned long long, ull)

// An operation on one value, two or three, and its twin on pairs, lane by lane.
#define WARPDRILL_HP_UNARY(Half, Half2, name, name2, operation)  \
    inline Half name(Half a) { return WARPDRILL_HP::operation; } \
    inline Half2 name2(Half2 a) { return {name(a.x), name(a.y)}; }
#define WARPDRILL_HP_BINARY(Half, Half2, name, name2, operation)         \
    inline Half name(Half a, Half b) { return WARPDRILL_HP::operation; } \
    inline Half2 name2(Half2 a, Half2 b) { return {name(a.x, b.x), name(a.y, b.y)}; }
#define WARPDRILL_HP_TERNARY(Half, Half2, name, name2, operation)                \
    inline Half name(Half a, Half b, Half c) { return WARPDRILL_HP::operation; } \
    inline Half2 name2(Half2 a, Half2 b, Half2 c) { return {name(a.x, b.x, c.x), name(a.y, b.y, c.y)}; }

// A math function: the exact function of x, correctly rounded (see the top of this file).
#define WARPDRILL_HP_MATH(Half, Half2, name, name2, function_of_x) \
    inline Half name(Half a) {                                     \
        const double x = WARPDRILL_HP::value_of(a);                \
        return WARPDRILL_HP::nearest<Half>(function_of_x);         \
    }                                                              \
    inline Half2 name2(Half2 a) { return {name(a.x), name(a.y)}; }

// A comparison in its four forms: __heq (bool), __heq2 (1.0 or 0.0 in each lane),
// __heq2_mask (0xffff or 0 in each lane) and __hbeq2 (whether it holds in both lanes).
#define WARPDRILL_HP_COMPARISON(Half, Half2, suffix, relation, if_unordered)                                \
    inline bool __h##suffix(Half a, Half b) { return WARPDRILL_HP::compare(a, b, relation, if_unordered); } \
    inline Half2 __h##suffix##2(Half2 a, Half2 b) {                                                         \
        return WARPDRILL_HP::as_ones<Half2>(__h##suffix(a.x, b.x), __h##suffix(a.y, b.y));                  \
    }                                                                                                       \
    inline unsigned __h##suffix##2_mask(Half2 a, Half2 b) {                                                 \
        return WARPDRILL_HP::as_mask(__h##suffix(a.x, b.x), __h##suffix(a.y, b.y));                         \
    }                                                                                                       \
    inline bool __hb##suffix##2(Half2 a, Half2 b) { return __h##suffix(a.x, b.x) && __h##suffix(a.y, b.y); }

// The functions whose names are the same for both types.
#define WARPDRILL_HP_FUNCTIONS(Half, Half2)                                                                \
    inline float __low2float(Half2 value) { return WARPDRILL_HP::float_of(value.x); }                      \
    inline float __high2float(Half2 value) { return WARPDRILL_HP::float_of(value.y); }                     \
    inline Half2 __lowhigh2highlow(Half2 value) { return {value.y, value.x}; }                             \
    WARPDRILL_HP_BINARY(Half, Half2, __hadd, __hadd2, add(a, b))                                           \
    WARPDRILL_HP_BINARY(Half, Half2, __hsub, __hsub2, subtract(a, b))                                      \
    WARPDRILL_HP_BINARY(Half, Half2, __hmul, __hmul2, multiply(a, b))                                      \
    WARPDRILL_HP_BINARY(Half, Half2, __hdiv, __h2div, divide(a, b))                                        \
    /* nvcc never contracts the _rn forms into an fma; here nothing is contracted. */                      \
    WARPDRILL_HP_BINARY(Half, Half2, __hadd_rn, __hadd2_rn, add(a, b))                                     \
    WARPDRILL_HP_BINARY(Half, Half2, __hsub_rn, __hsub2_rn, subtract(a, b))                                \
    WARPDRILL_HP_BINARY(Half, Half2, __hmul_rn, __hmul2_rn, multiply(a, b))                                \
    WARPDRILL_HP_BINARY(Half, Half2, __hadd_sat, __hadd2_sat, saturate(WARPDRILL_HP::add(a, b)))           \
    WARPDRILL_HP_BINARY(Half, Half2, __hsub_sat, __hsub2_sat, saturate(WARPDRILL_HP::subtract(a, b)))      \
    WARPDRILL_HP_BINARY(Half, Half2, __hmul_sat, __hmul2_sat, saturate(WARPDRILL_HP::multiply(a, b)))      \
    WARPDRILL_HP_BINARY(Half, Half2, __hmax, __hmax2, maximum(a, b))                                       \
    WARPDRILL_HP_BINARY(Half, Half2, __hmin, __hmin2, minimum(a, b))                                       \
    WARPDRILL_HP_BINARY(Half, Half2, __hmax_nan, __hmax2_nan, maximum(a, b, /*nan_wins=*/true))            \
    WARPDRILL_HP_BINARY(Half, Half2, __hmin_nan, __hmin2_nan, minimum(a, b, /*nan_wins=*/true))            \
    WARPDRILL_HP_TERNARY(Half, Half2, __hfma, __hfma2, fma(a, b, c))                                       \
    WARPDRILL_HP_TERNARY(Half, Half2, __hfma_sat, __hfma2_sat, saturate(WARPDRILL_HP::fma(a, b, c)))       \
    WARPDRILL_HP_TERNARY(Half, Half2, __hfma_relu, __hfma2_relu, relu(WARPDRILL_HP::fma(a, b, c)))         \
    WARPDRILL_HP_UNARY(Half, Half2, __hneg, __hneg2, negate(a))                                            \
    WARPDRILL_HP_UNARY(Half, Half2, __habs, __habs2, absolute(a))                                          \
    /* a * b + c on complex numbers (x the real part, y the imaginary), as CUDA's four fmas. */            \
    inline Half2 __hcmadd(Half2 a, Half2 b, Half2 c) {                                                     \
        const Half real = __hfma(__hneg(a.y), b.y, __hfma(a.x, b.x, c.x));                                 \
        const Half imaginary = __hfma(a.y, b.x, __hfma(a.x, b.y, c.y));                                    \
        return {real, imaginary};                                                                          \
    }                                                                                                      \
    inline bool __hisnan(Half a) { return WARPDRILL_HP::is_nan(a); }                                       \
    inline Half2 __hisnan2(Half2 a) { return WARPDRILL_HP::as_ones<Half2>(__hisnan(a.x), __hisnan(a.y)); } \
    /* 1 for +infinity, -1 for -infinity, else 0. */                                                       \
    inline int __hisinf(Half a) {                                                                          \
        const double x = WARPDRILL_HP::value_of(a);                                                        \
        return std::isinf(x) ? (x > 0 ? 1 : -1) : 0;                                                       \
    }                                                                                                      \
    WARPDRILL_HP_COMPARISON(Half, Half2, eq, std::equal_to<>(), false)                                     \
    WARPDRILL_HP_COMPARISON(Half, Half2, ne, std::not_equal_to<>(), false)                                 \
    WARPDRILL_HP_COMPARISON(Half, Half2, lt, std::less<>(), false)                                         \
    WARPDRILL_HP_COMPARISON(Half, Half2, le, std::less_equal<>(), false)                                   \
    WARPDRILL_HP_COMPARISON(Half, Half2, gt, std::greater<>(), false)                                      \
    WARPDRILL_HP_COMPARISON(Half, Half2, ge, std::greater_equal<>(), false)                                \
    WARPDRILL_HP_COMPARISON(Half, Half2, equ, std::equal_to<>(), true)                                     \
    WARPDRILL_HP_COMPARISON(Half, Half2, neu, std::not_equal_to<>(), true)                                 \
    WARPDRILL_HP_COMPARISON(Half, Half2, ltu, std::less<>(), true)                                         \
    WARPDRILL_HP_COMPARISON(Half, Half2, leu, std::less_equal<>(), true)                                   \
    WARPDRILL_HP_COMPARISON(Half, Half2, gtu, std::greater<>(), true)                                      \
    WARPDRILL_HP_COMPARISON(Half, Half2, geu, std::greater_equal<>(), true)                                \
    WARPDRILL_HP_MATH(Half, Half2, hsqrt, h2sqrt, std::sqrt(x))                                            \
    WARPDRILL_HP_MATH(Half, Half2, hrsqrt, h2rsqrt, 1 / std::sqrt(x))                                      \
    WARPDRILL_HP_MATH(Half, Half2, hrcp, h2rcp, 1 / x)                                                     \
    WARPDRILL_HP_MATH(Half, Half2, hexp, h2exp, std::exp(x))                                               \
    WARPDRILL_HP_MATH(Half, Half2, hexp2, h2exp2, std::exp2(x))                                            \
    WARPDRILL_HP_MATH(Half, Half2, hexp10, h2exp10, std::pow(10.0, x))                                     \
    WARPDRILL_HP_MATH(Half, Half2, hlog, h2log, std::log(x))                                               \
    WARPDRILL_HP_MATH(Half, Half2, hlog2, h2log2, std::log2(x))                                            \
    WARPDRILL_HP_MATH(Half, Half2, hlog10, h2log10, std::log10(x))                                         \
    WARPDRILL_HP_MATH(Half, Half2, hsin, h2sin, std::sin(x))                                               \
    WARPDRILL_HP_MATH(Half, Half2, hcos, h2cos, std::cos(x))                                               \
    WARPDRILL_HP_MATH(Half, Half2, htanh, h2tanh, std::tanh(x))                                            \
    WARPDRILL_HP_MATH(Half, Half2, htrunc, h2trunc, std::trunc(x))                                         \
    WARPDRILL_HP_MATH(Half, Half2, hceil, h2ceil, std::ceil(x))                                            \
    WARPDRILL_HP_MATH(Half, Half2, hfloor, h2floor, std::floor(x))                                         \
    WARPDRILL_HP_MATH(Half, Half2, hrint, h2rint,                                                          \
                      WARPDRILL_HP::round_to_integral(x, WARPDRILL_HP::Rounding::nearest_even))

// The arithmetic operators of a type T (a scalar or a pair), through its h-functions.
#define WARPDRILL_HP_ARITHMETIC_OPERATORS(T, one, add, subtract, multiply, divide, negate) \
    inline T operator+(const T& a, const T& b) { return add(a, b); }                       \
    inline T operator-(const T& a, const T& b) { return subtract(a, b); }                  \
    inline T operator*(const T& a, const T& b) { return multiply(a, b); }                  \
    inline T operator/(const T& a, const T& b) { return divide(a, b); }                    \
    inline T& operator+=(T& a, const T& b) { return a = add(a, b); }                       \
    inline T& operator-=(T& a, const T& b) { return a = subtract(a, b); }                  \
    inline T& operator*=(T& a, const T& b) { return a = multiply(a, b); }                  \
    inline T& operator/=(T& a, const T& b) { return a = divide(a, b); }                    \
    inline T& operator++(T& a) { return a += one; }                                        \
    inline T& operator--(T& a) { return a -= one; }                                        \
    inline T operator++(T& a, int) {                                                       \
        const T before = a;                                                                \
        a += one;                                                                          \
        return before;                                                                     \
    }                                                                                      \
    inline T operator--(T& a, int) {                                                       \
        const T before = a;                                                                \
        a -= one;                                                                          \
        return before;                                                                     \
    }                                                                                      \
    inline T operator+(const T& a) { return a; }                                           \
    inline T operator-(const T& a) { return negate(a); }

// The comparison operators of a type T: a scalar compares as IEEE says (!= is the one that holds
// for NaN), a pair where both lanes do (__hbeq2 ..., and __hbneu2 for !=).
#define WARPDRILL_HP_COMPARISON_OPERATORS(T, prefix, suffix)                             \
    inline bool operator==(const T& a, const T& b) { return prefix##eq##suffix(a, b); }  \
    inline bool operator!=(const T& a, const T& b) { return prefix##neu##suffix(a, b); } \
    inline bool operator<(const T& a, const T& b) { return prefix##lt##suffix(a, b); }   \
    inline bool operator<=(const T& a, const T& b) { return prefix##le##suffix(a, b); }  \
    inline bool operator>(const T& a, const T& b) { return prefix##gt##suffix(a, b); }   \
    inline bool operator>=(const T& a, const T& b) { return prefix##ge##suffix(a, b); }

// atom.add.noftz.f16 (.bf16, and the x2 forms, one 32-bit atomic) adds as __hadd does.
#define WARPDRILL_HP_ATOMICS(Half, Half2)                                                                   \
    [[gnu::always_inline]] inline Half atomicAdd(Half* address, Half value) {                               \
        return ::warpdrill::cpu::detail::atomic_update(address,                                             \
                                                       [value](Half old) { return __hadd(old, value); });   \
    }                                                                                                       \
    [[gnu::always_inline]] inline Half2 atomicAdd(Half2* address, Half2 value) {                            \
        return ::warpdrill::cpu::detail::atomic_update(address,                                             \
                                                       [value](Half2 old) { return __hadd2(old, value); }); \
    }

#define WARPDRILL_HALF_PRECISION_API(Half, Half2, S, S2)                                               \
    WARPDRILL_HP_NAMED_CONVERSIONS(Half, Half2, S, S2)                                                 \
    WARPDRILL_HP_FUNCTIONS(Half, Half2)                                                                \
    WARPDRILL_HP_ARITHMETIC_OPERATORS(Half, Half(1.0f), __hadd, __hsub, __hmul, __hdiv, __hneg)        \
    WARPDRILL_HP_ARITHMETIC_OPERATORS(Half2, Half2(Half(1.0f), Half(1.0f)), __hadd2, __hsub2, __hmul2, \
                                      __h2div, __hneg2)                                                \
    WARPDRILL_HP_COMPARISON_OPERATORS(Half, __h, )                                                     \
    WARPDRILL_HP_COMPARISON_OPERATORS(Half2, __hb, 2)                                                  \
    WARPDRILL_HP_ATOMICS(Half, Half2)
