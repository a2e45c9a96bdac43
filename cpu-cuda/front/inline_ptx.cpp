#include "inline_ptx.h"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <initializer_list>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "tokens.h"
#include "warpdrill/messages.h"

namespace cudacc {
namespace {

namespace messages = warpdrill::messages;

constexpr std::string_view kPtx = "::warpdrill::cpu::ptx::";

// Why one PTX statement cannot run: its reason's message, thrown while the
// statement is read and caught where its text is known.
struct Refusal {
    std::string reason;
};

[[noreturn]] void refuse(std::string_view reason_id, std::initializer_list<messages::Field> fields = {}) {
    throw Refusal{messages::text(reason_id, fields)};
}

std::string trimmed(std::string_view text) {
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos) return {};
    const auto last = text.find_last_not_of(" \t\r\n");
    return std::string(text.substr(first, last - first + 1));
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
            if (std::stoul(number) >= operands.size())
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
        if (!trimmed(current).empty()) found.push_back(trimmed(current));
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
    static const std::map<std::string_view, std::string> kRegisters = [] {
        std::map<std::string_view, std::string> registers;
        for (const char* own :
             {"laneid", "warpid", "nwarpid", "smid", "nsmid", "lanemask_eq", "lanemask_lt", "lanemask_le",
              "lanemask_ge", "lanemask_gt", "dynamic_smem_size", "globaltimer"})
            registers[own] = std::string(kPtx) + own + "()";
        registers["clock"] = "static_cast<std::uint32_t>(::clock64())";
        registers["clock64"] = "::clock64()";
        const std::pair<std::string_view, std::string_view> kBuiltIns[] = {
            {"tid", "thread_idx"}, {"ntid", "block_dim"}, {"ctaid", "block_idx"}, {"nctaid", "grid_dim"}};
        static const std::vector<std::string> kNames = [&] {
            std::vector<std::string> names;
            for (const auto& [ptx, call] : kBuiltIns)
                for (const char* axis : {"x", "y", "z"}) names.push_back(std::string(ptx) + "." + axis);
            return names;
        }();
        for (const std::string& name : kNames) {
            const std::string_view ptx = std::string_view(name).substr(0, name.size() - 2);
            const auto call =
                std::ranges::find(kBuiltIns, ptx, &std::pair<std::string_view, std::string_view>::first);
            registers[name] = "::warpdrill::cpu::detail::" + std::string(call->second) + "()." + name.back();
        }
        return registers;
    }();
    const auto found = kRegisters.find(name);
    if (found == kRegisters.end())
        refuse("cudacc.inline_ptx.reason.special_register", {{"register", "%" + std::string(name)}});
    return found->second;
}

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

bool is_cache_hint(std::string_view part) {
    static constexpr std::string_view kHints[] = {"nc", "ca", "cg", "cs", "lu", "cv", "wb", "wt", "weak"};
    return std::ranges::find(kHints, part) != std::end(kHints) || part.starts_with("L1::") ||
           part.starts_with("L2::") || part.starts_with("level::");
}

// Reads `parts` from `first` on, each a modifier of a memory instruction;
// `op` takes the operation's own word (atom's add), where there is one.
MemoryForm memory_form(const std::vector<std::string>& parts, std::size_t first, std::string* op = nullptr) {
    static constexpr std::string_view kOrders[] = {"relaxed", "acquire", "release", "acq_rel"};
    static constexpr std::string_view kScopes[] = {"cta", "gpu", "sys"};
    static constexpr std::string_view kOtherSpaces[] = {"shared", "local", "const", "param"};
    static constexpr std::string_view kOps[] = {"add",  "min", "max", "inc", "dec",
                                                "exch", "cas", "and", "or",  "xor"};
    MemoryForm form;
    for (std::size_t i = first; i < parts.size(); ++i) {
        const std::string& part = parts[i];
        if (part == "global") continue;
        if (std::ranges::find(kOtherSpaces, part) != std::end(kOtherSpaces) || part.starts_with("shared::"))
            refuse("cudacc.inline_ptx.reason.state_space", {{"space", "." + part}});
        if (part == "L2::cache_hint") {
            form.cache_policy_operand = true;
        } else if (is_cache_hint(part)) {
        } else if (part == "volatile") {
            form.is_volatile = true;
        } else if (std::ranges::find(kOrders, part) != std::end(kOrders)) {
            form.order = part;
        } else if (std::ranges::find(kScopes, part) != std::end(kScopes)) {
            form.scope = part;
        } else if (part == "v2" || part == "v4") {
            form.vector = part[1] - '0';
        } else if (is_type(part) && form.type.empty()) {
            form.type = cpp_type(part);
        } else if (op && op->empty() && std::ranges::find(kOps, part) != std::end(kOps)) {
            *op = part;
        } else {
            refuse("cudacc.inline_ptx.reason.qualifier", {{"qualifier", "." + part}});
        }
    }
    if (form.type.empty()) refuse("cudacc.inline_ptx.reason.qualifier", {{"qualifier", parts.back()}});
    if (form.vector > 1 && (form.is_volatile || !form.order.empty()))
        refuse("cudacc.inline_ptx.reason.qualifier",
               {{"qualifier", "." + (form.is_volatile ? std::string("volatile") : form.order)}});
    return form;
}

// The C++ type one access moves: the element's, or a Vector of them.
std::string accessed_type(const MemoryForm& form) {
    if (form.vector == 1) return form.type;
    return std::string(kPtx) + "Vector<" + form.type + ", " + std::to_string(form.vector) + ">";
}

// The object at `address` as the access sees it (`qualifiers`: "const ", "volatile ", ...).
std::string object_at(std::string_view qualifiers, const MemoryForm& form, const std::string& address) {
    return "(*reinterpret_cast<" + std::string(qualifiers) + accessed_type(form) + "*>" + address + ")";
}

// The fence that orders memory for a scope, as CUDA's functions name it.
std::string fence(std::string_view scope) {
    if (scope == "cta") return "__threadfence_block();";
    if (scope == "sys") return "__threadfence_system();";
    return "__threadfence();";
}

// The instructions Translator::arithmetic() takes.
const std::set<std::string, std::less<>> kArithmetic = {"add", "sub",  "mul", "mad",  "fma", "min",
                                                        "max", "and",  "or",  "xor",  "not", "shl",
                                                        "shr", "popc", "clz", "brev", "prmt"};

class Translator {
  public:
    explicit Translator(const std::vector<AsmOperand>& operands) : operands_(operands) {}

    // One statement (an instruction and its operands, without the `;`).
    std::string statement(std::string_view text) {
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
        if (kArithmetic.contains(name)) return arithmetic();
        if (name == "membar" || name == "fence") return memory_fence();
        if (name == "bar" || name == "barrier") return barrier();
        if (name == "cvta") return address_conversion();
        if (name == "prefetch" || name == "prefetchu") return "(void)0;";
        if (opcode_ == "nanosleep.u32" && args_.size() == 1)
            return "__nanosleep(" + value(args_[0], "unsigned") + ");";
        if (opcode_ == "trap" && args_.empty()) return "__trap();";
        refuse("cudacc.inline_ptx.reason.instruction", {{"instruction", opcode_}});
    }

  private:
    // ---- operands ----
    std::size_t operand_index(std::string_view text) const {
        if (!text.starts_with("$"))
            refuse("cudacc.inline_ptx.reason.operand", {{"operand", std::string(text)}});
        return std::stoul(std::string(text.substr(1)));
    }
    std::string value(std::string_view text, const std::string& type) const {
        if (text.starts_with("$"))
            return std::string(kPtx) + "as<" + type + ">(" + register_name(operand_index(text)) + ")";
        if (const Local* local = local_register(text)) {
            if (local->type == "bool") return "static_cast<" + type + ">(" + local->name + ")";
            return std::string(kPtx) + "as<" + type + ">(" + local->name + ")";
        }
        if (text.starts_with("%"))
            return "static_cast<" + type + ">(" + special_register(text.substr(1)) + ")";
        return "static_cast<" + type + ">(" + constant(text) + ")";
    }
    std::string assign(std::string_view destination, const std::string& type,
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
    std::string predicate(std::string_view text) const {
        const bool negated = text.starts_with("!");
        const Local* local = local_register(negated ? text.substr(1) : text);
        if (!local || local->type != "bool")
            refuse("cudacc.inline_ptx.reason.operand", {{"operand", std::string(text)}});
        return (negated ? "!" : "") + local->name;
    }
    // [%1], [%1+8], [%rd2-4]: a 64-bit register and a constant.
    std::string address(std::string_view text) const {
        const std::string inside = trimmed(text.substr(1, text.size() - 2));
        if (!text.starts_with("[") || !text.ends_with("]"))
            refuse("cudacc.inline_ptx.reason.address", {{"operand", std::string(text)}});
        const std::size_t sign = inside.find_first_of("+-", 1);
        const std::string base = trimmed(inside.substr(0, sign));
        const Local* local = local_register(base);
        const bool wide =
            local ? local->type.ends_with("64_t")
                  : base.starts_with("$") &&
                        register_type(operands_[operand_index(base)].constraint) == "std::uint64_t";
        if (!wide) refuse("cudacc.inline_ptx.reason.address", {{"operand", std::string(text)}});
        std::string address = value(base, "std::uint64_t");
        if (sign != std::string::npos)
            address += " " + std::string(1, inside[sign]) + " " + constant(trimmed(inside.substr(sign + 1)));
        return "(" + address + ")";
    }
    // {%0, %1, %2, %3}: a vector's elements, as many as the instruction moves.
    std::vector<std::string> elements(std::string_view text, int count) const {
        if (count == 1) return {std::string(text)};
        if (!text.starts_with("{") || !text.ends_with("}"))
            refuse("cudacc.inline_ptx.reason.operand", {{"operand", std::string(text)}});
        std::vector<std::string> list = split(text.substr(1, text.size() - 2), ',');
        if (static_cast<int>(list.size()) != count)
            refuse("cudacc.inline_ptx.reason.operand", {{"operand", std::string(text)}});
        return list;
    }
    void expect_operands(std::size_t count) const {
        if (args_.size() != count) refuse("cudacc.inline_ptx.reason.instruction", {{"instruction", opcode_}});
    }

    // ---- the PTX's own registers: .reg .pred p; .reg .b32 r<4>; ----
    struct Local {
        std::string name;  // the C++ variable
        std::string type;  // its C++ type: bool for a predicate
    };
    const Local* local_register(std::string_view name) const {
        const auto found = locals_.find(std::string(name));
        return found == locals_.end() ? nullptr : &found->second;
    }
    std::string declare_registers(std::string_view declaration) {
        std::string text(declaration);
        std::ranges::replace_if(
            text, [](char c) { return std::isspace(static_cast<unsigned char>(c)); }, ' ');
        const std::vector<std::string> words = split(trimmed(text.substr(4)), ' ');
        const std::string ptx_type = words.empty() ? "" : words[0];
        const std::string type = ptx_type == ".pred"
                                     ? "bool"
                                     : cpp_type(ptx_type.substr(std::min<std::size_t>(1, ptx_type.size())));
        if (words.size() < 2 || type.empty())
            refuse("cudacc.inline_ptx.reason.operand", {{"operand", std::string(text)}});
        std::string declarations;
        const std::string names = trimmed(text.substr(text.find(ptx_type) + ptx_type.size()));
        for (const std::string& declared : split(names, ',')) {
            const std::size_t angle = declared.find('<');
            const int count = angle == std::string::npos ? 0 : std::stoi(declared.substr(angle + 1));
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
    std::string guarded(std::string_view text) {
        const std::size_t space = text.find_first_of(" \t\r\n");
        if (space == std::string_view::npos)
            refuse("cudacc.inline_ptx.reason.operand", {{"operand", std::string(text)}});
        const std::string condition = predicate(trimmed(text.substr(1, space - 1)));
        return "if (" + condition + ") { " + statement(trimmed(text.substr(space))) + " }";
    }

    // ---- instructions ----
    // mov.u32 d, a; and mov.b64 d, {lo, hi} / mov.b64 {lo, hi}, d (mov.b32
    // alike, in 16-bit halves), which pack and unpack a register's halves.
    std::string mov() const {
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
        return assign(halves[0], half, whole) + " " +
               assign(halves[1], half, "(" + whole + " >> " + bits + ")");
    }
    // ld's and st's modifiers, where the only order besides .relaxed is `order`.
    MemoryForm access_form(std::string_view order) const {
        const MemoryForm form = memory_form(parts_, 1);
        expect_operands(form.cache_policy_operand ? 3 : 2);
        if (!form.order.empty() && form.order != "relaxed" && form.order != order)
            refuse("cudacc.inline_ptx.reason.qualifier", {{"qualifier", "." + form.order}});
        return form;
    }
    std::string load() const {
        const MemoryForm form = access_form("acquire");
        const std::string at = address(args_[1]);
        const std::string loaded = form.is_volatile ? object_at("const volatile ", form, at)
                                   : form.order.empty()
                                       ? object_at("const ", form, at)
                                       : "::std::atomic_ref<" + form.type + ">(" + object_at("", form, at) +
                                             ").load(::std::memory_order_relaxed)";
        std::string code;
        if (form.vector == 1) {
            code = assign(args_[0], form.type, loaded);
        } else {
            code = "{ const auto __wd_ptx_v = " + loaded + ";";
            const std::vector<std::string> targets = elements(args_[0], form.vector);
            for (std::size_t k = 0; k < targets.size(); ++k)
                code += " " + assign(targets[k], form.type, "__wd_ptx_v.element[" + std::to_string(k) + "]");
            code += " }";
        }
        return form.order == "acquire" ? code + " " + fence(form.scope) : code;
    }
    std::string store() const {
        const MemoryForm form = access_form("release");
        const std::string at = address(args_[0]);
        std::string stored;
        for (const std::string& element : elements(args_[1], form.vector))
            stored += (stored.empty() ? "" : ", ") + value(element, form.type);
        if (form.vector > 1) stored = accessed_type(form) + "{{" + stored + "}}";
        if (form.order.empty())
            return object_at(form.is_volatile ? "volatile " : "", form, at) + " = " + stored + ";";
        const std::string store = "::std::atomic_ref<" + form.type + ">(" + object_at("", form, at) +
                                  ").store(" + stored + ", ::std::memory_order_relaxed);";
        return form.order == "release" ? fence(form.scope) + " " + store : store;
    }
    // atom.add.u32 %0, [%1], %2;  red.global.add.f32 [%0], %1;  atom.cas.b32 %0, [%1], %2, %3;
    std::string atomic(bool returns) const {
        std::string op;
        const MemoryForm form = memory_form(parts_, 1, &op);
        if (op.empty() || form.vector > 1 || form.is_volatile)
            refuse("cudacc.inline_ptx.reason.instruction", {{"instruction", opcode_}});
        const std::string type = atomic_type(op, form.type);
        const std::size_t sources = op == "cas" ? 2 : 1;
        expect_operands((returns ? 2 : 1) + sources + (form.cache_policy_operand ? 1 : 0));
        const std::size_t first = returns ? 1 : 0;
        const std::string function =
            op == "cas" ? "CAS" : std::string(1, static_cast<char>(std::toupper(op[0]))) + op.substr(1);
        std::string call = "atomic" + function +
                           (form.scope == "cta"   ? "_block"
                            : form.scope == "sys" ? "_system"
                                                  : "") +
                           "(reinterpret_cast<" + type + "*>" + address(args_[first]);
        for (std::size_t k = 0; k < sources; ++k) call += ", " + value(args_[first + 1 + k], type);
        call += ")";
        const bool releases = form.order == "release" || form.order == "acq_rel";
        const bool acquires = form.order == "acquire" || form.order == "acq_rel";
        return (releases ? fence(form.scope) + " " : "") +
               (returns ? assign(args_[0], type, call) : "(void)" + call + ";") +
               (acquires ? " " + fence(form.scope) : "");
    }
    // The C++ type CUDA's atomic function takes for an operation and a PTX
    // type, where it has one (cuda_runtime.h's list).
    std::string atomic_type(const std::string& op, const std::string& type) const {
        static const std::map<std::string, std::string> kCudaTypes = {
            {"std::uint32_t", "unsigned"}, {"std::int32_t", "int"}, {"std::uint64_t", "unsigned long long"},
            {"std::int64_t", "long long"}, {"float", "float"},      {"double", "double"}};
        static const std::map<std::string, std::vector<std::string>> kOperations = {
            {"add", {"int", "unsigned", "unsigned long long", "float", "double"}},
            {"min", {"int", "unsigned", "long long", "unsigned long long"}},
            {"max", {"int", "unsigned", "long long", "unsigned long long"}},
            {"inc", {"unsigned"}},
            {"dec", {"unsigned"}},
            {"exch", {"int", "unsigned", "unsigned long long", "float"}},
            {"cas", {"int", "unsigned", "unsigned long long"}},
            {"and", {"int", "unsigned", "unsigned long long"}},
            {"or", {"int", "unsigned", "unsigned long long"}},
            {"xor", {"int", "unsigned", "unsigned long long"}}};
        const auto cuda = kCudaTypes.find(type);
        const std::vector<std::string>& allowed = kOperations.at(op);
        if (cuda == kCudaTypes.end() || std::ranges::find(allowed, cuda->second) == allowed.end())
            refuse("cudacc.inline_ptx.reason.instruction", {{"instruction", opcode_}});
        return cuda->second;
    }
    // shfl.sync.bfly.b32 d, a, b, c, membermask: c packs the width's segment
    // mask (bits 8-12) and the clamp (bits 0-4) that __shfl_*_sync make.
    std::string shuffle() const {
        static const std::map<std::string, std::string> kKinds = {
            {"up", "shfl_up"}, {"down", "shfl_down"}, {"bfly", "shfl_xor"}, {"idx", "shfl_idx"}};
        if (parts_.size() != 4 || parts_[1] != "sync" || !kKinds.contains(parts_[2]) || parts_[3] != "b32")
            refuse("cudacc.inline_ptx.reason.instruction", {{"instruction", opcode_}});
        expect_operands(5);
        if (args_[0].find('|') != std::string::npos) refuse("cudacc.inline_ptx.reason.predicate");
        const std::string c = shuffle_control(args_[3]);
        const std::string clamp = parts_[2] == "up" ? "0" : "31";
        const std::string width = "(32 - ((" + c + ") >> 8 & 31))";
        const std::string check =
            "static_assert(((" + c + ") & 31) == " + clamp + " && ((" + c + ") >> 13) == 0 && (" + width +
            " & (" + width + " - 1)) == 0, \"" +
            escaped_for_literal(messages::text(
                "cudacc.inline_ptx",
                {{"ptx", opcode_}, {"reason", messages::text("cudacc.inline_ptx.reason.shuffle_c")}})) +
            "\");";
        const std::string call =
            "::warpdrill::cpu::detail::warp_shuffle(::warpdrill::cpu::detail::SyncKind::" +
            kKinds.at(parts_[2]) + ", " + value(args_[4], "unsigned") + ", " +
            value(args_[1], "std::uint32_t") + ", static_cast<int>(" + value(args_[2], "std::uint32_t") +
            "), " + width + ", ::std::source_location::current())";
        return check + " " + assign(args_[0], "std::uint32_t", call);
    }
    // c as a constant: written in the PTX, or an "n" operand's expression.
    std::string shuffle_control(std::string_view text) const {
        if (!text.starts_with("$")) return "(" + constant(text) + ")";
        const AsmOperand& operand = operands_[operand_index(text)];
        if (operand.constraint != "n") refuse("cudacc.inline_ptx.reason.shuffle_c");
        return "(" + operand.expression + ")";
    }
    // vote.sync.ballot.b32 d, p, m;  vote.sync.any.pred d, p, m;  activemask.b32 d;
    std::string vote() const {
        if (opcode_ == "activemask.b32" && args_.size() == 1)
            return assign(args_[0], "std::uint32_t", "__activemask()");
        expect_operands(3);
        const std::string call = "(" + value(args_[2], "unsigned") + ", " + predicate(args_[1]) + ")";
        if (opcode_ == "vote.sync.ballot.b32")
            return assign(args_[0], "std::uint32_t", "__ballot_sync" + call);
        if (opcode_ == "vote.sync.any.pred") return assign(args_[0], "bool", "__any_sync" + call);
        if (opcode_ == "vote.sync.all.pred") return assign(args_[0], "bool", "__all_sync" + call);
        refuse("cudacc.inline_ptx.reason.instruction", {{"instruction", opcode_}});
    }
    // setp.lt.s32 p, a, b: the comparison's result into a predicate. The
    // float comparisons are ordered (false where either is NaN) but for the
    // ones ending in u (equ, ltu, ...), which are true there too.
    std::string set_predicate() const {
        if (parts_.size() != 3 || !is_type(parts_[2]) || parts_[2] == "f16")
            refuse("cudacc.inline_ptx.reason.instruction", {{"instruction", opcode_}});
        expect_operands(3);
        if (args_[0].find('|') != std::string::npos) refuse("cudacc.inline_ptx.reason.predicate");
        const std::string type = cpp_type(parts_[2]);
        const std::string a = value(args_[1], type), b = value(args_[2], type);
        const std::string& cmp = parts_[1];
        const char family = parts_[2][0];  // b, s, u or f
        static const std::map<std::string, std::string, std::less<>> kOperators = {
            {"eq", "=="}, {"ne", "!="}, {"lt", "<"},  {"le", "<="}, {"gt", ">"},
            {"ge", ">="}, {"lo", "<"},  {"ls", "<="}, {"hi", ">"},  {"hs", ">="}};
        const auto compare = [&](std::string_view op) {
            return "(" + a + " " + kOperators.find(op)->second + " " + b + ")";
        };
        std::string result;
        if (family != 'f') {
            const bool allowed =
                cmp == "eq" || cmp == "ne" ||
                (family != 'b' && (cmp == "lt" || cmp == "le" || cmp == "gt" || cmp == "ge")) ||
                (family == 'u' && (cmp == "lo" || cmp == "ls" || cmp == "hi" || cmp == "hs"));
            if (!allowed) refuse("cudacc.inline_ptx.reason.instruction", {{"instruction", opcode_}});
            result = compare(cmp);
        } else if (cmp == "eq" || cmp == "lt" || cmp == "le" || cmp == "gt" || cmp == "ge") {
            result = compare(cmp);
        } else if (cmp == "ne" || cmp == "equ") {
            result =
                std::string(cmp == "equ" ? "!" : "") + "(" + compare("lt") + " || " + compare("gt") + ")";
        } else if (cmp == "neu" || cmp == "ltu" || cmp == "leu" || cmp == "gtu" || cmp == "geu") {
            static const std::map<std::string, std::string_view> kOrderedOpposite = {
                {"neu", "eq"}, {"ltu", "ge"}, {"leu", "gt"}, {"gtu", "le"}, {"geu", "lt"}};
            result = "!" + compare(kOrderedOpposite.at(cmp));
        } else if (cmp == "num" || cmp == "nan") {
            result =
                std::string(cmp == "nan" ? "!" : "") + "(" + a + " == " + a + " && " + b + " == " + b + ")";
        } else {
            refuse("cudacc.inline_ptx.reason.instruction", {{"instruction", opcode_}});
        }
        return assign(args_[0], "bool", result);
    }
    // selp.b32 d, a, b, p: a where p holds, else b.
    std::string select() const {
        if (parts_.size() != 2 || !is_type(parts_[1]))
            refuse("cudacc.inline_ptx.reason.instruction", {{"instruction", opcode_}});
        expect_operands(4);
        const std::string type = cpp_type(parts_[1]);
        return assign(
            args_[0], type,
            "(" + predicate(args_[3]) + " ? " + value(args_[1], type) + " : " + value(args_[2], type) + ")");
    }
    // cvt.DESTINATION.SOURCE: integers to integers (truncated or extended),
    // to floats (.rn), floats to integers (.rzi, .rni, .rmi, .rpi; saturated)
    // and between f32 and f64.
    std::string convert() const {
        expect_operands(2);
        if (parts_.size() < 3) refuse("cudacc.inline_ptx.reason.instruction", {{"instruction", opcode_}});
        const std::string& to = parts_[parts_.size() - 2];
        const std::string& from = parts_.back();
        const std::string rounding = parts_.size() == 4 ? parts_[1] : "";
        const bool from_float = from == "f32" || from == "f64", to_float = to == "f32" || to == "f64";
        if (parts_.size() > 4 || !is_type(to) || !is_type(from) || to == "f16" || from == "f16")
            refuse("cudacc.inline_ptx.reason.instruction", {{"instruction", opcode_}});
        const std::string source = value(args_[1], cpp_type(from));
        static const std::map<std::string, std::string> kRoundings = {{"rzi", "::std::trunc"},
                                                                      {"rni", "::std::nearbyint"},
                                                                      {"rmi", "::std::floor"},
                                                                      {"rpi", "::std::ceil"}};
        std::string result;
        if (!from_float && !to_float && rounding.empty()) {
            result = source;
        } else if (!from_float && to_float && rounding == "rn") {
            result = source;
        } else if (from_float && !to_float && kRoundings.contains(rounding)) {
            result = std::string(kPtx) + "to_integer<" + cpp_type(to) + ">(" + source +
                     ", [](auto x) { return " + kRoundings.at(rounding) + "(x); })";
        } else if (from_float && to_float && (rounding == "rn" || (rounding.empty() && to == "f64"))) {
            result = source;
        } else {
            refuse("cudacc.inline_ptx.reason.qualifier",
                   {{"qualifier", "." + (rounding.empty() ? to : rounding)}});
        }
        return assign(args_[0], cpp_type(to), result);
    }
    // Integer and float arithmetic and bit operations, as the PTX ISA has them
    // (inline_ptx.h's helpers where C++ would leave a case undefined).
    std::string arithmetic() const {
        const std::string& name = parts_[0];
        const std::string& ptx_type = parts_.back();
        if (ptx_type == "pred") return predicate_logic();
        const std::string mode = parts_.size() == 3 ? parts_[1] : "";
        if (parts_.size() > 3 || !is_type(ptx_type) || ptx_type == "f16" || !takes(name, mode, ptx_type))
            refuse("cudacc.inline_ptx.reason.instruction", {{"instruction", opcode_}});
        const bool floating = ptx_type[0] == 'f';
        const std::string T = cpp_type(ptx_type), helper(kPtx);
        const auto arg = [&](std::size_t k, const std::string& type) { return value(args_[k], type); };
        if (name == "not" || name == "popc" || name == "clz" || name == "brev") {
            expect_operands(2);
            if (name == "not") return assign(args_[0], T, "~" + arg(1, T));
            return assign(args_[0], name == "brev" ? T : "std::uint32_t",
                          helper + name + "(" + arg(1, T) + ")");
        }
        if (name == "mad" || name == "fma" || name == "prmt") {
            expect_operands(4);
            const std::string a = arg(1, T), b = arg(2, T), c = arg(3, T);
            if (name == "prmt") return assign(args_[0], T, helper + "prmt(" + a + ", " + b + ", " + c + ")");
            if (floating) return assign(args_[0], T, "::std::fma(" + a + ", " + b + ", " + c + ")");
            return assign(args_[0], T, helper + "add(" + helper + "mul_lo(" + a + ", " + b + "), " + c + ")");
        }
        expect_operands(3);
        const std::string a = arg(1, T);
        if (name == "shl" || name == "shr")
            return assign(args_[0], T, helper + name + "(" + a + ", " + arg(2, "std::uint32_t") + ")");
        const std::string b = arg(2, T);
        if (name == "and" || name == "or" || name == "xor") {
            const std::string op = name == "and" ? " & " : name == "or" ? " | " : " ^ ";
            return assign(args_[0], T, a + op + b);
        }
        if (name == "min" || name == "max") {
            if (!floating) return assign(args_[0], T, "::std::" + name + "(" + a + ", " + b + ")");
            return assign(args_[0], T,
                          helper + "min_max(" + a + ", " + b + (name == "max" ? ", true)" : ", false)"));
        }
        if (mode == "wide") {  // the product of two 16- or 32-bit integers, twice as wide
            const std::string wide =
                cpp_type(ptx_type.substr(0, 1) + std::to_string(2 * std::stoi(ptx_type.substr(1))));
            return assign(args_[0], wide, helper + "mul_wide(" + a + ", " + b + ")");
        }
        if (name == "mul")
            return assign(args_[0], T, helper + (mode == "hi" ? "mul_hi(" : "mul_lo(") + a + ", " + b + ")");
        return assign(args_[0], T, helper + name + "(" + a + ", " + b + ")");
    }
    // Whether `name` takes the mode and the type: bit operations the b types,
    // arithmetic the s, u and f types, as ptxas has them.
    static bool takes(const std::string& name, const std::string& mode, const std::string& ptx_type) {
        const char family = ptx_type[0];
        const bool bits = name == "and" || name == "or" || name == "xor" || name == "not" || name == "popc" ||
                          name == "clz" || name == "brev" || name == "shl";
        if (bits) return family == 'b' && mode.empty();
        if (name == "prmt") return ptx_type == "b32" && mode.empty();
        if (name == "shr") return family != 'f' && mode.empty();
        if (family == 'b') return false;
        if (family == 'f') {
            if (name == "fma" || name == "mad") return mode == "rn";
            return name == "min" || name == "max" ? mode.empty() : mode.empty() || mode == "rn";
        }
        if (name == "mul")
            return mode == "lo" || mode == "hi" ||
                   (mode == "wide" && (ptx_type.ends_with("16") || ptx_type.ends_with("32")));
        if (name == "mad") return mode == "lo";
        return mode.empty() && name != "fma";
    }
    // and.pred, or.pred, xor.pred, not.pred.
    std::string predicate_logic() const {
        const std::string& name = parts_[0];
        if (parts_.size() != 2) refuse("cudacc.inline_ptx.reason.instruction", {{"instruction", opcode_}});
        if (name == "not") {
            expect_operands(2);
            return assign(args_[0], "bool", "!" + predicate(args_[1]));
        }
        expect_operands(3);
        const std::string op = name == "and" ? " && " : name == "or" ? " || " : name == "xor" ? " != " : "";
        if (op.empty()) refuse("cudacc.inline_ptx.reason.instruction", {{"instruction", opcode_}});
        return assign(args_[0], "bool", predicate(args_[1]) + op + predicate(args_[2]));
    }
    std::string memory_fence() const {
        expect_operands(0);
        const std::string& scope = parts_.back();
        const bool known_form =
            parts_[0] == "membar" ? parts_.size() == 2 && (scope == "cta" || scope == "gl" || scope == "sys")
                                  : parts_.size() == 3 && (parts_[1] == "sc" || parts_[1] == "acq_rel") &&
                                        (scope == "cta" || scope == "gpu" || scope == "sys");
        if (!known_form) refuse("cudacc.inline_ptx.reason.instruction", {{"instruction", opcode_}});
        return fence(scope);
    }
    // bar.sync 0 and barrier.sync 0 are __syncthreads(); bar.warp.sync is __syncwarp().
    std::string barrier() const {
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
    std::string address_conversion() const {
        expect_operands(2);
        if (opcode_ != "cvta.to.global.u64" && opcode_ != "cvta.global.u64")
            refuse("cudacc.inline_ptx.reason.state_space", {{"space", opcode_}});
        return assign(args_[0], "std::uint64_t", value(args_[1], "std::uint64_t"));
    }

    const std::vector<AsmOperand>& operands_;
    std::map<std::string, Local> locals_;
    std::string opcode_;
    std::vector<std::string> parts_;
    std::vector<std::string> args_;
};

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

}  // namespace

bool is_ptx(std::string_view asm_text) {
    static constexpr std::string_view kOneWord[] = {"trap", "exit", "ret", "brkpt"};
    for (const std::string& statement : split(asm_text, ';')) {
        std::string_view text = statement;
        if (text.starts_with("{") || text.starts_with(".reg")) return true;
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
        if (statement.empty()) continue;
        try {
            code += translator.statement(statement) + " ";
        } catch (const Refusal& refusal) {
            return refused(statement, refusal);
        }
    }
    return {code, {}};
}

}  // namespace cudacc
