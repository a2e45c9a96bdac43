#include "ptx_text.h"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <map>

namespace cudacc::ptx {

[[noreturn]] void refuse(std::string_view reason_id, std::initializer_list<messages::Field> fields) {
    throw Refusal{messages::text(reason_id, fields)};
}

std::string trimmed(std::string_view text) {
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos) return {};
    const auto last = text.find_last_not_of(" \t\r\n");
    return std::string(text.substr(first, last - first + 1));
}

bool is_number(std::string_view text) {
    return !text.empty() && text.size() <= 9 &&
           std::ranges::all_of(text, [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

// `text` cut at each `separator` outside braces and brackets.
std::vector<std::string> split(std::string_view text, char separator) {
    std::vector<std::string> parts;
    int depth = 0;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= text.size(); ++i) {
        if (i < text.size() && (text[i] == '{' || text[i] == '[')) ++depth;
        if (i < text.size() && (text[i] == '}' || text[i] == ']')) --depth;
        if (i == text.size() || (text[i] == separator && depth == 0)) {
            parts.push_back(trimmed(text.substr(start, i - start)));
            start = i + 1;
        }
    }
    return parts;
}

// The operand references of the template, %0, as $0; %% as %. (nvcc has no
// named operands, %[name]: "symbolic operand reference not supported".)
std::string with_operand_numbers(std::string_view text, const std::vector<AsmOperand>& operands) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '%') {
            out += text[i];
        } else if (i + 1 < text.size() && text[i + 1] == '%') {
            out += '%';
            ++i;
        } else if (i + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[i + 1]))) {
            std::size_t end = i + 1;
            while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end]))) ++end;
            const std::string number(text.substr(i + 1, end - i - 1));
            if (!is_number(number) || std::stoul(number) >= operands.size())
                refuse("cudacc.inline_ptx.reason.operand", {{"operand", "%" + number}});
            out += "$" + number;
            i = end - 1;
        } else {
            refuse("cudacc.inline_ptx.reason.operand", {{"operand", std::string(text.substr(i, 2))}});
        }
    }
    return out;
}

// The template's statements, each without its `;`, and each brace that opens
// or closes a scope ({ .reg .pred p; ... }) as a statement of its own. (A
// brace within a statement, {%0, %1}, is a vector's.)
std::vector<std::string> statements(std::string_view text) {
    std::vector<std::string> found;
    std::string current;
    const auto end_statement = [&] {
        if (std::string statement = trimmed(current); !statement.empty())
            found.push_back(std::move(statement));
        current.clear();
    };
    int vector_depth = 0;
    for (const char c : text) {
        if ((c == '{' || c == '}') && trimmed(current).empty()) {
            found.emplace_back(1, c);
        } else if (c == ';' && vector_depth == 0) {
            end_statement();
        } else {
            vector_depth += c == '{' ? 1 : c == '}' ? -1 : 0;
            current += c;
        }
    }
    end_statement();
    return found;
}

// PTX's types, as C++ holds them (.f16 as its bits).
std::string cpp_type(std::string_view ptx_type) {
    static const std::map<std::string_view, std::string_view> kTypes = {
        {"b8", "std::uint8_t"},   {"u8", "std::uint8_t"},  {"s8", "std::int8_t"},    {"b16", "std::uint16_t"},
        {"u16", "std::uint16_t"}, {"s16", "std::int16_t"}, {"f16", "std::uint16_t"}, {"b32", "std::uint32_t"},
        {"u32", "std::uint32_t"}, {"s32", "std::int32_t"}, {"f32", "float"},         {"b64", "std::uint64_t"},
        {"u64", "std::uint64_t"}, {"s64", "std::int64_t"}, {"f64", "double"}};
    const auto found = kTypes.find(ptx_type);
    return found == kTypes.end() ? std::string() : std::string(found->second);
}

bool is_type(std::string_view part) { return !cpp_type(part).empty(); }

// A constant of the PTX: decimal or hexadecimal integers (a U suffix
// allowed), floats, and floats given by their bits (0f3f800000, 0d...).
std::string constant(std::string_view text) {
    const bool bits = text.size() > 2 && text[0] == '0' &&
                      (text[1] == 'f' || text[1] == 'F' || text[1] == 'd' || text[1] == 'D');
    if (bits) {
        const bool single = text[1] == 'f' || text[1] == 'F';
        return std::string("::std::bit_cast<") + (single ? "float" : "double") + ">(0x" +
               std::string(text.substr(2)) + (single ? "u" : "ull") + ")";
    }
    std::string number(text);
    if (!number.empty() && (number.back() == 'U' || number.back() == 'u')) number.pop_back();
    const bool valid = !number.empty() && std::ranges::all_of(number, [](char c) {
        return std::isxdigit(static_cast<unsigned char>(c)) || c == 'x' || c == 'X' || c == '-' || c == '.' ||
               c == '+';
    });
    if (!valid) refuse("cudacc.inline_ptx.reason.operand", {{"operand", std::string(text)}});
    const bool floating = number.find('.') != std::string::npos && number.find('x') == std::string::npos;
    return floating ? number : number + (number[0] == '-' ? "ll" : "ull");
}

// A special register's value, as the backend gives it.
std::string special_register(std::string_view name) {
    static const std::map<std::string, std::string, std::less<>> kRegisters = [] {
        std::map<std::string, std::string, std::less<>> registers;
        for (const char* own :
             {"laneid", "warpid", "nwarpid", "smid", "nsmid", "lanemask_eq", "lanemask_lt", "lanemask_le",
              "lanemask_ge", "lanemask_gt", "dynamic_smem_size", "globaltimer"})
            registers[own] = std::string(kPtx) + own + "()";
        registers["clock"] = "static_cast<std::uint32_t>(::clock64())";
        registers["clock64"] = "::clock64()";
        // %tid.x is threadIdx.x; %ntid, blockDim; %ctaid, blockIdx; %nctaid, gridDim.
        for (const auto& [ptx, call] : {std::pair{"tid", "thread_idx"}, std::pair{"ntid", "block_dim"},
                                        std::pair{"ctaid", "block_idx"}, std::pair{"nctaid", "grid_dim"}}) {
            for (const char* axis : {"x", "y", "z"})
                registers[std::string(ptx) + "." + axis] =
                    "::warpdrill::cpu::detail::" + std::string(call) + "()." + axis;
        }
        return registers;
    }();
    const auto found = kRegisters.find(name);
    if (found == kRegisters.end())
        refuse("cudacc.inline_ptx.reason.special_register", {{"register", "%" + std::string(name)}});
    return found->second;
}

// The statement as the PTX spells it, for a message.
std::string as_written(std::string_view statement) {
    std::string text;
    for (const char c : statement) {
        const bool space = std::isspace(static_cast<unsigned char>(c));
        if (space && (text.empty() || text.back() == ' ')) continue;
        text += space ? ' ' : c == '$' ? '%' : c;
    }
    return trimmed(text);
}

}  // namespace cudacc::ptx
