// Inline PTX, asm("..." : outputs : inputs), on the CPU backend. cudacc's
// front end (cpu-cuda/front/inline_ptx.h) turns each such statement of a
// program's own files into C++ that does what the PTX does, through the
// helpers below, or stops the build naming the instruction it cannot run.
//
// An operand is held as the register its constraint letter asks for ("r"
// 32 bits, "l" 64, "h" 16, "f" a float, "d" a double, "n" a constant), and
// each instruction reads and writes those registers' bits as its own type
// says (.u32, .f32, .s8, ...), as PTX does.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <source_location>
#include <type_traits>

namespace warpdrill::cpu::ptx {

// The register a constraint letter makes of an operand's value: a pointer
// as its address, anything else converted as C++ converts it.
template <class Register, class Value>
Register in(const Value& value) {
    if constexpr (std::is_pointer_v<Value>) {
        return static_cast<Register>(reinterpret_cast<std::uintptr_t>(value));
    } else {
        return static_cast<Register>(value);
    }
}

// A register's bits read as an instruction's type: the same bits where the
// sizes match, else the value narrowed or widened (st.u8 of an "r" register).
template <class Type, class Register>
Type as(Register value) {
    if constexpr (sizeof(Type) == sizeof(Register)) {
        return std::bit_cast<Type>(value);
    } else {
        return static_cast<Type>(value);
    }
}

// An instruction's result into a register: its bits where the sizes match,
// else widened by the result type's sign (ld.s8 into an "r" register).
template <class Register, class Type>
void set(Register& target, Type value) {
    if constexpr (sizeof(Type) == sizeof(Register)) {
        target = std::bit_cast<Register>(value);
    } else {
        target = static_cast<Register>(value);
    }
}

// An output register back into the program's variable.
template <class Target, class Register>
void out(Target& target, Register value) {
    if constexpr (std::is_pointer_v<Target>) {
        target = reinterpret_cast<Target>(static_cast<std::uintptr_t>(value));
    } else {
        target = static_cast<Target>(value);
    }
}

// N elements that ld.v2, ld.v4, st.v2 and st.v4 move as one access, aligned
// to their size as the GPU requires.
template <class T, int N>
struct alignas(sizeof(T) * N) Vector {
    T element[N];
};

// Arithmetic as the PTX ISA defines it, where C++ would leave it undefined:
// integers wrap, shifts past the width give 0 (or the sign), and a float
// converted to an integer saturates (NaN gives 0).
template <class T>
using Unsigned = std::make_unsigned_t<std::conditional_t<(sizeof(T) < 4), std::uint32_t, T>>;

template <class T>
T add(T a, T b) {
    if constexpr (std::is_integral_v<T>)
        return static_cast<T>(static_cast<Unsigned<T>>(a) + static_cast<Unsigned<T>>(b));
    else
        return a + b;
}
template <class T>
T sub(T a, T b) {
    if constexpr (std::is_integral_v<T>)
        return static_cast<T>(static_cast<Unsigned<T>>(a) - static_cast<Unsigned<T>>(b));
    else
        return a - b;
}
template <class T>
T mul_lo(T a, T b) {
    if constexpr (std::is_integral_v<T>)
        return static_cast<T>(static_cast<Unsigned<T>>(a) * static_cast<Unsigned<T>>(b));
    else
        return a * b;
}
// The full product of two 32-bit (or 16-bit) integers, twice as wide.
template <class T>
auto mul_wide(T a, T b) {
    using Wide = std::conditional_t<std::is_signed_v<T>,
                                    std::conditional_t<sizeof(T) == 4, std::int64_t, std::int32_t>,
                                    std::conditional_t<sizeof(T) == 4, std::uint64_t, std::uint32_t>>;
    return static_cast<Wide>(static_cast<Wide>(a) * static_cast<Wide>(b));
}
// The high half of the full product.
template <class T>
T mul_hi(T a, T b) {
    if constexpr (sizeof(T) == 8) {
        using Wide = std::conditional_t<std::is_signed_v<T>, __int128, unsigned __int128>;
        return static_cast<T>((static_cast<Wide>(a) * static_cast<Wide>(b)) >> 64);
    } else {
        return static_cast<T>(mul_wide(a, b) >> (8 * sizeof(T)));
    }
}
template <class T>
T shl(T a, std::uint32_t bits) {
    return bits >= 8 * sizeof(T) ? T{0} : static_cast<T>(static_cast<Unsigned<T>>(a) << bits);
}
template <class T>
T shr(T a, std::uint32_t bits) {
    if constexpr (std::is_signed_v<T>)
        return a >> (bits >= 8 * sizeof(T) ? 8 * sizeof(T) - 1 : bits);
    else
        return bits >= 8 * sizeof(T) ? T{0} : static_cast<T>(a >> bits);
}
template <class T>
std::uint32_t popc(T a) {
    return static_cast<std::uint32_t>(std::popcount(static_cast<std::make_unsigned_t<T>>(a)));
}
template <class T>
std::uint32_t clz(T a) {
    return static_cast<std::uint32_t>(std::countl_zero(static_cast<std::make_unsigned_t<T>>(a)));
}
// bfe: the field of `len` bits from bit `pos` of a, to the right; past the
// register's top bit, and for a signed type above the field, the field's
// sign bit (0 for an unsigned type or an empty field). pos and len are their
// operands' low bytes.
template <class T>
T extract_bits(T a, std::uint32_t pos_operand, std::uint32_t len_operand) {
    constexpr std::uint32_t msb = 8 * sizeof(T) - 1;
    const std::uint32_t pos = pos_operand & 0xff, len = len_operand & 0xff;
    const auto bits = static_cast<Unsigned<T>>(a);
    const auto bit = [&](std::uint32_t i) { return static_cast<Unsigned<T>>(bits >> i & 1u); };
    const Unsigned<T> sign = std::is_unsigned_v<T> || len == 0 ? 0 : bit(std::min(pos + len - 1, msb));
    Unsigned<T> field = 0;
    for (std::uint32_t i = 0; i <= msb; ++i)
        field |= static_cast<Unsigned<T>>(i < len && pos + i <= msb ? bit(pos + i) : sign) << i;
    return static_cast<T>(field);
}
// bfi: b with the `len` bits from bit `pos` replaced by a's lowest ones (as
// far as b's top bit); pos and len are their operands' low bytes.
template <class T>
T insert_bits(T a, T b, std::uint32_t pos_operand, std::uint32_t len_operand) {
    constexpr std::uint32_t msb = 8 * sizeof(T) - 1;
    const std::uint32_t pos = pos_operand & 0xff, len = len_operand & 0xff;
    T result = b;
    for (std::uint32_t i = 0; i < len && pos + i <= msb; ++i) {
        const T one{1};
        result = (result & ~(one << (pos + i))) | ((a >> i & one) << (pos + i));
    }
    return result;
}
// min and max of floats as min.f32 and max.f32 compute them, which CUDA's min
// and max share (device_functions.h).
using detail::min_max;
// brev and prmt, which CUDA's __brev and __byte_perm share (device_functions.h).
using detail::permute_bytes;
using detail::reverse_bits;
// cvt.rzi, .rni, .rmi and .rpi of a float to an integer: rounded as `round` does, then saturated.
template <class Integer, class Float, class Round>
Integer to_integer(Float value, Round round) {
    if (std::isnan(value)) return 0;
    const Float rounded = round(value);
    if (rounded <= static_cast<Float>(std::numeric_limits<Integer>::min()))
        return std::numeric_limits<Integer>::min();
    if (rounded >= static_cast<Float>(std::numeric_limits<Integer>::max()))
        return std::numeric_limits<Integer>::max();
    return static_cast<Integer>(rounded);
}

// Special registers. The thread's own ones are worked out from threadIdx
// and blockDim; the rest come from the backend (src/inline_ptx.cpp).
std::uint32_t laneid();
std::uint32_t warpid();  // the warp's rank in its block, as long as it runs
std::uint32_t nwarpid();
std::uint32_t smid();  // the SM the backend says the block runs on
std::uint32_t nsmid();
std::uint32_t dynamic_smem_size();
std::uint64_t globaltimer();  // nanoseconds
// The lanes of a shuffle whose c operand (a register) packs a width's
// segment mask and `clamp` as __shfl_*_sync make them; any other c stops the
// kernel, saying so (the backend's shuffles take widths).
int shuffle_width(std::uint32_t c, std::uint32_t clamp,
                  std::source_location where = std::source_location::current());
inline std::uint32_t lanemask_eq() { return 1u << laneid(); }
inline std::uint32_t lanemask_lt() { return lanemask_eq() - 1; }
inline std::uint32_t lanemask_le() { return lanemask_lt() | lanemask_eq(); }
inline std::uint32_t lanemask_ge() { return ~lanemask_lt(); }
inline std::uint32_t lanemask_gt() { return ~lanemask_le(); }

}  // namespace warpdrill::cpu::ptx
