// A statement of inline PTX: its operands, the registers it declares, the
// guard before it, and the instruction it names (the families have files of
// their own: ptx_memory.cpp, ptx_warp.cpp, ptx_arithmetic.cpp).
#include <algorithm>
#include <cctype>
#include <map>

#include "ptx_translator.h"

namespace cudacc::ptx {

// One statement (an instruction and its operands, without the `;`).
std::string Translator::statement(std::string_view text) {
    if (text == "{" || text == "}") return std::string(text);
    if (text.starts_with(".reg")) return declare_registers(text);
    if (text.starts_with("@")) return guarded(text);
    const std::size_t space = text.find_first_of(" \t\r\n");
    opcode_ = std::string(text.substr(0, space));
    parts_ = split(opcode_, '.');
    args_ = space == std::string_view::npos ? std::vector<std::string>{} : split(text.substr(space), ',');
    const std::string& name = parts_[0];
    if (name == "mov") return mov();
    if (name == "ld") return load();
    if (name == "st") return store();
    if (name == "atom" || name == "red") return atomic(name == "atom");
    if (name == "shfl") return shuffle();
    if (name == "vote" || name == "activemask") return vote();
    if (name == "setp") return set_predicate();
    if (name == "selp") return select();
    if (name == "cvt") return convert();
    if (is_arithmetic(name)) return arithmetic();
    if (name == "membar" || name == "fence") return memory_fence();
    if (name == "bar" || name == "barrier") return barrier();
    if (name == "cvta") return address_conversion();
    if (name == "prefetch" || name == "prefetchu") return "(void)0;";
    if (opcode_ == "nanosleep.u32" && args_.size() == 1)
        return "__nanosleep(" + value(args_[0], "unsigned") + ");";
    if (opcode_ == "trap" && args_.empty()) return "__trap();";
    refuse("cudacc.inline_ptx.reason.instruction", {{"instruction", opcode_}});
}

std::size_t Translator::operand_index(std::string_view text) const {
    if (!text.starts_with("$") || !is_number(text.substr(1)))
        refuse("cudacc.inline_ptx.reason.operand", {{"operand", std::string(text)}});
    return std::stoul(std::string(text.substr(1)));
}

std::string Translator::value(std::string_view text, const std::string& type) const {
    if (text.starts_with("$"))
        return std::string(kPtx) + "as<" + type + ">(" + register_name(operand_index(text)) + ")";
    if (const Local* local = local_register(text)) {
        if (local->type == "bool") return "static_cast<" + type + ">(" + local->name + ")";
        return std::string(kPtx) + "as<" + type + ">(" + local->name + ")";
    }
    if (text.starts_with("%")) return "static_cast<" + type + ">(" + special_register(text.substr(1)) + ")";
    return "static_cast<" + type + ">(" + constant(text) + ")";
}

std::string Translator::assign(std::string_view destination, const std::string& type,
                               const std::string& result) const {
    if (const Local* local = local_register(destination)) {
        if (local->type == "bool") return local->name + " = static_cast<bool>(" + result + ");";
        return std::string(kPtx) + "set(" + local->name + ", static_cast<" + type + ">(" + result + "));";
    }
    const std::size_t index = operand_index(destination);
    if (!operands_[index].output)
        refuse("cudacc.inline_ptx.reason.destination", {{"operand", "%" + std::to_string(index)}});
    return std::string(kPtx) + "set(" + register_name(index) + ", static_cast<" + type + ">(" + result +
           "));";
}

// A predicate register of the PTX's own (.reg .pred p), or its negation (!p).
std::string Translator::predicate(std::string_view text) const {
    const bool negated = text.starts_with("!");
    const Local* local = local_register(negated ? text.substr(1) : text);
    if (!local || local->type != "bool")
        refuse("cudacc.inline_ptx.reason.operand", {{"operand", std::string(text)}});
    return (negated ? "!" : "") + local->name;
}

// [%1], [%1+8], [%rd2-4]: a 64-bit register and a constant.
std::string Translator::address(std::string_view text) const {
    if (text.size() < 2 || !text.starts_with("[") || !text.ends_with("]"))
        refuse("cudacc.inline_ptx.reason.address", {{"operand", std::string(text)}});
    const std::string inside = trimmed(text.substr(1, text.size() - 2));
    const std::size_t sign = inside.find_first_of("+-", 1);
    const std::string base = trimmed(inside.substr(0, sign));
    const Local* local = local_register(base);
    const bool wide = local ? local->type.ends_with("64_t")
                            : base.starts_with("$") &&
                                  register_type(operands_[operand_index(base)].constraint) == "std::uint64_t";
    if (!wide) refuse("cudacc.inline_ptx.reason.address", {{"operand", std::string(text)}});
    std::string address = value(base, "std::uint64_t");
    if (sign != std::string::npos)
        address += " " + std::string(1, inside[sign]) + " " + constant(trimmed(inside.substr(sign + 1)));
    return "(" + address + ")";
}

// {%0, %1, %2, %3}: a vector's elements, as many as the instruction moves.
std::vector<std::string> Translator::elements(std::string_view text, int count) const {
    if (count == 1) return {std::string(text)};
    if (!text.starts_with("{") || !text.ends_with("}"))
        refuse("cudacc.inline_ptx.reason.operand", {{"operand", std::string(text)}});
    std::vector<std::string> list = split(text.substr(1, text.size() - 2), ',');
    if (static_cast<int>(list.size()) != count)
        refuse("cudacc.inline_ptx.reason.operand", {{"operand", std::string(text)}});
    return list;
}

void Translator::expect_operands(std::size_t count) const {
    if (args_.size() != count) refuse("cudacc.inline_ptx.reason.instruction", {{"instruction", opcode_}});
}

const Translator::Local* Translator::local_register(std::string_view name) const {
    const auto found = locals_.find(std::string(name));
    return found == locals_.end() ? nullptr : &found->second;
}

std::string Translator::declare_registers(std::string_view declaration) {
    std::string text(declaration);
    std::ranges::replace_if(
        text, [](char c) { return std::isspace(static_cast<unsigned char>(c)); }, ' ');
    const std::vector<std::string> words = split(trimmed(text.substr(4)), ' ');
    const std::string ptx_type = words.empty() ? "" : words[0];
    const std::string type =
        ptx_type == ".pred" ? "bool" : cpp_type(ptx_type.substr(std::min<std::size_t>(1, ptx_type.size())));
    if (words.size() < 2 || type.empty())
        refuse("cudacc.inline_ptx.reason.operand", {{"operand", std::string(text)}});
    std::string declarations;
    const std::string names = trimmed(text.substr(text.find(ptx_type) + ptx_type.size()));
    for (const std::string& declared : split(names, ',')) {
        const std::size_t angle = declared.find('<');
        const std::string counted = angle == std::string::npos ? "" : declared.substr(angle + 1);
        if (angle != std::string::npos &&
            (!counted.ends_with(">") || !is_number(counted.substr(0, counted.size() - 1))))
            refuse("cudacc.inline_ptx.reason.operand", {{"operand", std::string(declaration)}});
        const int count = angle == std::string::npos ? 0 : std::stoi(counted);
        const std::string stem = declared.substr(0, angle);
        for (int k = 0; k < std::max(count, 1); ++k) {
            const std::string name = count == 0 ? stem : stem + std::to_string(k);
            std::string cpp = "__wd_reg_";
            for (const char c : name) cpp += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
            locals_[name] = Local{cpp, type};
            declarations += type + " " + cpp + "{}; ";
        }
    }
    return declarations;
}

// @p instruction, @!p instruction: the instruction where p holds (does not).
std::string Translator::guarded(std::string_view text) {
    const std::size_t space = text.find_first_of(" \t\r\n");
    if (space == std::string_view::npos)
        refuse("cudacc.inline_ptx.reason.operand", {{"operand", std::string(text)}});
    const std::string condition = predicate(trimmed(text.substr(1, space - 1)));
    return "if (" + condition + ") { " + statement(trimmed(text.substr(space))) + " }";
}

// mov.u32 d, a; and mov.b64 d, {lo, hi} / mov.b64 {lo, hi}, d (mov.b32
// alike, in 16-bit halves), which pack and unpack a register's halves.
std::string Translator::mov() const {
    expect_operands(2);
    if (parts_.size() != 2 || !is_type(parts_[1]))
        refuse("cudacc.inline_ptx.reason.instruction", {{"instruction", opcode_}});
    const std::string type = cpp_type(parts_[1]);
    const bool packs = args_[1].starts_with("{"), unpacks = args_[0].starts_with("{");
    if (!packs && !unpacks) return assign(args_[0], type, value(args_[1], type));
    if (parts_[1] != "b64" && parts_[1] != "b32")
        refuse("cudacc.inline_ptx.reason.instruction", {{"instruction", opcode_}});
    const std::string half = parts_[1] == "b64" ? "std::uint32_t" : "std::uint16_t";
    const std::string bits = parts_[1] == "b64" ? "32" : "16";
    if (packs) {
        const std::vector<std::string> halves = elements(args_[1], 2);
        return assign(args_[0], type,
                      "static_cast<" + type + ">(" + value(halves[1], half) + ") << " + bits + " | " +
                          value(halves[0], half));
    }
    const std::vector<std::string> halves = elements(args_[0], 2);
    const std::string whole = value(args_[1], type);
    return assign(halves[0], half, whole) + " " + assign(halves[1], half, "(" + whole + " >> " + bits + ")");
}

}  // namespace cudacc::ptx
