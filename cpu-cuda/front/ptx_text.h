// Reading inline PTX's text (inline_ptx.h): its statements, operands,
// types, constants and special registers, and the refusal that names what
// the CPU backend cannot run. Internal to cudacc's front end.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "inline_ptx.h"
#include "warpdrill/messages.h"

namespace cudacc::ptx {

namespace messages = warpdrill::messages;

// Where the backend's side of inline PTX lives (warpdrill/cpu/inline_ptx.h).
constexpr std::string_view kPtx = "::warpdrill::cpu::ptx::";

// Why one PTX statement cannot run: its reason's message, thrown while the
// statement is read and caught where its text is known.
struct Refusal {
    std::string reason;
};
[[noreturn]] void refuse(std::string_view reason_id, std::initializer_list<messages::Field> fields = {});

std::string trimmed(std::string_view text);
// One to nine decimal digits (a count or an operand's number).
bool is_number(std::string_view text);
// `text` cut at each `separator` outside braces and brackets.
std::vector<std::string> split(std::string_view text, char separator);
// The operand references of the template, %0, as $0; %% as %.
std::string with_operand_numbers(std::string_view text, const std::vector<AsmOperand>& operands);
// The template's statements, each without its `;`; a brace that opens or
// closes a scope is a statement of its own.
std::vector<std::string> statements(std::string_view text);
// PTX's types, as C++ holds them (.f16 as its bits); empty for another word.
std::string cpp_type(std::string_view ptx_type);
bool is_type(std::string_view part);
// A constant of the PTX, as C++ spells it.
std::string constant(std::string_view text);
// A special register's value (name without the %), as the backend gives it.
std::string special_register(std::string_view name);
// The statement as the PTX spells it, for a message.
std::string as_written(std::string_view statement);

}  // namespace cudacc::ptx
