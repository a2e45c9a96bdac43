// shfl.sync, vote.sync, activemask and the barriers: the instructions of a
// warp or a block together.
#include <algorithm>
#include <cctype>
#include <map>

#include "ptx_translator.h"
#include "tokens.h"

namespace cudacc::ptx {

// shfl.sync.bfly.b32 d, a, b, c, membermask: c packs the width's segment
// mask (bits 8-12) and the clamp (bits 0-4) that __shfl_*_sync make.
std::string Translator::shuffle() const {
    static const std::map<std::string, std::string> kKinds = {
        {"up", "shfl_up"}, {"down", "shfl_down"}, {"bfly", "shfl_xor"}, {"idx", "shfl_idx"}};
    if (parts_.size() != 4 || parts_[1] != "sync" || !kKinds.contains(parts_[2]) || parts_[3] != "b32")
        refuse("cudacc.inline_ptx.reason.instruction", {{"instruction", opcode_}});
    expect_operands(5);
    if (args_[0].find('|') != std::string::npos) refuse("cudacc.inline_ptx.reason.predicate");
    const std::string clamp = parts_[2] == "up" ? "0" : "31";
    std::string width, check;
    if (const std::string c = constant_control(args_[3]); !c.empty()) {
        width = "(32 - ((" + c + ") >> 8 & 31))";
        check = "static_assert(((" + c + ") & 31) == " + clamp + " && ((" + c + ") >> 13) == 0 && (" + width +
                " & (" + width + " - 1)) == 0, \"" +
                escaped_for_literal(messages::text(
                    "cudacc.inline_ptx",
                    {{"ptx", opcode_}, {"reason", messages::text("cudacc.inline_ptx.reason.shuffle_c")}})) +
                "\");";
    } else {  // in a register: checked as the kernel runs
        width = std::string(kPtx) + "shuffle_width(" + value(args_[3], "std::uint32_t") + ", " + clamp + ")";
    }
    const std::string call =
        "::warpdrill::cpu::detail::warp_shuffle(::warpdrill::cpu::detail::SyncKind::" + kKinds.at(parts_[2]) +
        ", " + value(args_[4], "unsigned") + ", " + value(args_[1], "std::uint32_t") + ", static_cast<int>(" +
        value(args_[2], "std::uint32_t") + "), " + width + ", ::std::source_location::current())";
    return check + " " + assign(args_[0], "std::uint32_t", call);
}

// c as a constant: written in the PTX, or an "n" operand's expression; empty
// where a register holds it.
std::string Translator::constant_control(std::string_view text) const {
    if (!text.starts_with("$")) return "(" + constant(text) + ")";
    const AsmOperand& operand = operands_[operand_index(text)];
    return operand.constraint == "n" ? "(" + operand.expression + ")" : "";
}

// vote.sync.ballot.b32 d, p, m;  vote.sync.any.pred d, p, m;  activemask.b32 d;
std::string Translator::vote() const {
    if (opcode_ == "activemask.b32" && args_.size() == 1)
        return assign(args_[0], "std::uint32_t", "__activemask()");
    expect_operands(3);
    const std::string call = "(" + value(args_[2], "unsigned") + ", " + predicate(args_[1]) + ")";
    if (opcode_ == "vote.sync.ballot.b32") return assign(args_[0], "std::uint32_t", "__ballot_sync" + call);
    if (opcode_ == "vote.sync.any.pred") return assign(args_[0], "bool", "__any_sync" + call);
    if (opcode_ == "vote.sync.all.pred") return assign(args_[0], "bool", "__all_sync" + call);
    refuse("cudacc.inline_ptx.reason.instruction", {{"instruction", opcode_}});
}

// bar.sync 0 and barrier.sync 0 are __syncthreads(); bar.warp.sync is __syncwarp().
std::string Translator::barrier() const {
    if (opcode_ == "bar.warp.sync") {
        expect_operands(1);
        return "__syncwarp(" + value(args_[0], "unsigned") + ");";
    }
    static constexpr std::string_view kBlockBarriers[] = {"bar.sync",         "bar.cta.sync",
                                                          "barrier.sync",     "barrier.sync.aligned",
                                                          "barrier.cta.sync", "barrier.cta.sync.aligned"};
    if (std::ranges::find(kBlockBarriers, opcode_) == std::end(kBlockBarriers))
        refuse("cudacc.inline_ptx.reason.instruction", {{"instruction", opcode_}});
    if (args_.size() != 1 || args_[0] != "0") refuse("cudacc.inline_ptx.reason.barrier");
    return "__syncthreads();";
}

}  // namespace cudacc::ptx
