#include "inline_ptx.h"

#include <algorithm>
#include <string>
#include <vector>

#include "ptx_translator.h"

namespace cudacc {

namespace messages = warpdrill::messages;
using ptx::as_written;
using ptx::Refusal;
using ptx::statements;
using ptx::Translator;
using ptx::with_operand_numbers;

bool is_ptx(std::string_view asm_text) {
    static constexpr std::string_view kOneWord[] = {"trap", "exit", "ret", "brkpt"};
    for (const std::string& statement : statements(asm_text)) {
        std::string_view text = statement;
        if (text == "{" || text.starts_with(".reg")) return true;
        if (text.starts_with("@")) text = text.substr(std::min(text.size(), text.find_first_of(" \t") + 1));
        const std::string_view word = text.substr(0, text.find_first_of(" \t\r\n"));
        if (word.empty() || word.starts_with(".")) continue;
        if (word.find('.') != std::string_view::npos ||
            std::ranges::find(kOneWord, word) != std::end(kOneWord))
            return true;
    }
    return false;
}

std::string register_name(std::size_t index) { return "__wd_ptx_" + std::to_string(index); }

std::string register_type(std::string_view constraint) {
    while (!constraint.empty() && (constraint[0] == '=' || constraint[0] == '+' || constraint[0] == '&'))
        constraint.remove_prefix(1);
    if (constraint == "r") return "std::uint32_t";
    if (constraint == "l") return "std::uint64_t";
    if (constraint == "h") return "std::uint16_t";
    if (constraint == "f") return "float";
    if (constraint == "d") return "double";
    if (constraint == "n") return "std::int64_t";
    return {};
}

PtxTranslation translate_ptx(std::string_view asm_text, const std::vector<AsmOperand>& operands) {
    const auto refused = [](std::string_view ptx, const Refusal& refusal) {
        return PtxTranslation{
            {}, messages::text("cudacc.inline_ptx", {{"ptx", as_written(ptx)}, {"reason", refusal.reason}})};
    };
    for (const AsmOperand& operand : operands) {
        if (register_type(operand.constraint).empty()) {
            return refused(asm_text, Refusal{messages::text("cudacc.inline_ptx.reason.constraint",
                                                            {{"constraint", operand.constraint}})});
        }
    }
    std::string numbered;
    try {
        numbered = with_operand_numbers(asm_text, operands);
    } catch (const Refusal& refusal) {
        return refused(asm_text, refusal);
    }
    Translator translator(operands);
    std::string code;
    for (const std::string& statement : statements(numbered)) {
        try {
            code += translator.statement(statement) + " ";
        } catch (const Refusal& refusal) {
            return refused(statement, refusal);
        }
    }
    return {code, {}};
}

}  // namespace cudacc
