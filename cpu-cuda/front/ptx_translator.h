// Inline PTX's statements turned into C++, one at a time (inline_ptx.h).
// Internal to cudacc's front end: each family of instructions has a file of
// its own (ptx_translator.cpp, ptx_memory.cpp, ptx_warp.cpp, ptx_arithmetic.cpp).
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "ptx_text.h"

namespace cudacc::ptx {

// The memory instructions' modifiers: .global or generic addresses only,
// cache hints (which change no result) passed over.
struct MemoryForm {
    std::string type;  // the C++ type
    int vector = 1;
    bool is_volatile = false;
    std::string order;                  // "", "relaxed", "acquire", "release", "acq_rel"
    std::string scope;                  // "", "cta", "gpu", "sys"
    bool cache_policy_operand = false;  // .L2::cache_hint: one more operand, the policy
};

class Translator {
  public:
    explicit Translator(const std::vector<AsmOperand>& operands) : operands_(operands) {}

    // One statement (an instruction and its operands, without the `;`).
    std::string statement(std::string_view text);

  private:
    // ---- operands and the PTX's own registers (ptx_translator.cpp) ----
    struct Local {
        std::string name;  // the C++ variable
        std::string type;  // its C++ type: bool for a predicate
    };
    std::size_t operand_index(std::string_view text) const;
    std::string value(std::string_view text, const std::string& type) const;
    std::string assign(std::string_view destination, const std::string& type,
                       const std::string& result) const;
    // A predicate register of the PTX's own (.reg .pred p), or its negation (!p).
    std::string predicate(std::string_view text) const;
    // [%1], [%1+8], [%rd2-4]: a 64-bit register and a constant.
    std::string address(std::string_view text) const;
    // {%0, %1, %2, %3}: a vector's elements, as many as the instruction moves.
    std::vector<std::string> elements(std::string_view text, int count) const;
    void expect_operands(std::size_t count) const;
    const Local* local_register(std::string_view name) const;
    // .reg .pred p; .reg .b32 r<4>;: C++ variables for the PTX's own registers.
    std::string declare_registers(std::string_view declaration);
    // @p instruction, @!p instruction: the instruction where p holds (does not).
    std::string guarded(std::string_view text);
    // mov.u32 d, a; and mov.b64 d, {lo, hi} / mov.b64 {lo, hi}, d (mov.b32
    // alike, in 16-bit halves), which pack and unpack a register's halves.
    std::string mov() const;

    // ---- ld, st, atom, red, cvta, fences (ptx_memory.cpp) ----
    // ld's and st's modifiers, where the only order besides .relaxed is `order`.
    MemoryForm access_form(std::string_view order) const;
    std::string load() const;
    std::string store() const;
    // atom.add.u32 %0, [%1], %2;  red.global.add.f32 [%0], %1;  atom.cas.b32 %0, [%1], %2, %3;
    std::string atomic(bool returns) const;
    // The C++ type CUDA's atomic function takes for an operation and a PTX
    // type, where it has one (cuda_runtime.h's list).
    std::string atomic_type(const std::string& op, const std::string& type) const;
    std::string memory_fence() const;
    std::string address_conversion() const;

    // ---- shfl.sync, vote.sync, activemask, barriers (ptx_warp.cpp) ----
    // shfl.sync.bfly.b32 d, a, b, c, membermask: c packs the width's segment
    // mask (bits 8-12) and the clamp (bits 0-4) that __shfl_*_sync make.
    std::string shuffle() const;
    // c as a constant: written in the PTX, or an "n" operand's expression.
    std::string constant_control(std::string_view text) const;
    // vote.sync.ballot.b32 d, p, m;  vote.sync.any.pred d, p, m;  activemask.b32 d;
    std::string vote() const;
    // bar.sync 0 and barrier.sync 0 are __syncthreads(); bar.warp.sync is __syncwarp().
    std::string barrier() const;

    // ---- arithmetic, setp, selp, cvt (ptx_arithmetic.cpp) ----
    static bool is_arithmetic(std::string_view name);
    // setp.lt.s32 p, a, b: the comparison's result into a predicate. The
    // float comparisons are ordered (false where either is NaN) but for the
    // ones ending in u (equ, ltu, ...), which are true there too.
    std::string set_predicate() const;
    // selp.b32 d, a, b, p: a where p holds, else b.
    std::string select() const;
    // cvt.DESTINATION.SOURCE: integers to integers (truncated or extended),
    // to floats (.rn), floats to integers (.rzi, .rni, .rmi, .rpi; saturated)
    // and between f32 and f64.
    std::string convert() const;
    // Integer and float arithmetic and bit operations, as the PTX ISA has them
    // (inline_ptx.h's helpers where C++ would leave a case undefined).
    std::string arithmetic() const;
    // Whether `name` takes the mode and the type: bit operations the b types,
    // arithmetic the s, u and f types, as ptxas has them.
    static bool takes(const std::string& name, const std::string& mode, const std::string& ptx_type);
    // and.pred, or.pred, xor.pred, not.pred.
    std::string predicate_logic() const;

    const std::vector<AsmOperand>& operands_;
    std::map<std::string, Local> locals_;
    std::string opcode_;
    std::vector<std::string> parts_;
    std::vector<std::string> args_;
};

}  // namespace cudacc::ptx
