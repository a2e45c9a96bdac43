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

#include <bit>
#include <cstdint>
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

// Special registers. The thread's own ones are worked out from threadIdx
// and blockDim; the rest come from the backend (special_registers.cpp).
std::uint32_t laneid();
std::uint32_t warpid();  // the warp's rank in its block, as long as it runs
std::uint32_t nwarpid();
std::uint32_t smid();  // the SM the backend says the block runs on
std::uint32_t nsmid();
std::uint32_t dynamic_smem_size();
std::uint64_t globaltimer();  // nanoseconds
inline std::uint32_t lanemask_eq() { return 1u << laneid(); }
inline std::uint32_t lanemask_lt() { return lanemask_eq() - 1; }
inline std::uint32_t lanemask_le() { return lanemask_lt() | lanemask_eq(); }
inline std::uint32_t lanemask_ge() { return ~lanemask_lt(); }
inline std::uint32_t lanemask_gt() { return ~lanemask_le(); }

}  // namespace warpdrill::cpu::ptx
