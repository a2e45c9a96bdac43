// Inline PTX in a program's own files, asm("..." : outputs : inputs), turned
// into C++ that does on the CPU what the PTX does on a GPU (the runtime's
// half is warpdrill/cpu/inline_ptx.h). The rewrite (rewrite.cpp) keeps each
// operand's expression where the program wrote it, binds it to a register
// variable named by register_name(), and puts translate_ptx()'s code after
// them (ptx_translator.h, one file for each family of instructions). What
// the backend cannot run stops the build, naming the PTX.
//
// It runs:
//   mov                      registers, constants and special registers
//                            (%laneid, %warpid, %nwarpid, %smid, %nsmid,
//                            %lanemask_*, %tid, %ntid, %ctaid, %nctaid,
//                            %clock, %clock64, %globaltimer, %dynamic_smem_size);
//                            .b64 and .b32 packed from and unpacked into halves
//   ld, st                   global and generic addresses, scalars and .v2/.v4,
//                            with any cache hint; .volatile, .relaxed, .acquire
//                            and .release as the C++ memory model has them
//   atom, red                the operations CUDA's atomic functions have, in
//                            each scope, with .relaxed, .acquire, .release
//                            and .acq_rel
//   shfl.sync                up, down, bfly and idx, c a constant
//   vote.sync, activemask    ballot, any and all
//   add, sub, mul, mad, fma, min, max, and, or, xor, not, shl, shr, popc,
//   clz, brev, prmt, bfe, bfi  integers wrap, shifts clamp, .lo/.hi/.wide, .rn
//   setp, selp, cvt          every comparison; conversions between integers,
//                            to and from f32 and f64 (saturating, as PTX's)
//   membar, fence            cta, gl/gpu, sys
//   bar.sync 0, barrier.sync 0, bar.warp.sync
//   cvta.to.global, cvta.global, prefetch, prefetchu, nanosleep, trap
// and { } scopes with registers of their own (.reg .pred p; .reg .b32 r<4>;),
// predicates and instructions under a guard (@p, @!p).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace cudacc {

struct AsmOperand {
    std::string constraint;  // as written: "=r", "+l", "f", "n", ...
    std::string expression;  // the C++ expression's text (an "n" operand's value)
    bool output = false;
};

// Whether an asm statement's text is PTX rather than the host's assembly: an
// instruction whose name has a PTX type or modifier (mov.u32, membar.gl), or
// a PTX instruction of one word.
bool is_ptx(std::string_view asm_text);

// The C++ variable that holds operand `index`'s register.
std::string register_name(std::size_t index);
// The C++ type of a constraint's register ("=r": std::uint32_t), or empty
// for a constraint PTX does not have.
std::string register_type(std::string_view constraint);

struct PtxTranslation {
    std::string code;   // C++ statements over the operands' registers
    std::string error;  // or why the CPU backend cannot run it (the message, in the learner's language)
};

PtxTranslation translate_ptx(std::string_view asm_text, const std::vector<AsmOperand>& operands);

}  // namespace cudacc
