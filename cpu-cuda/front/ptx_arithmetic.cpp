// Arithmetic, bit operations, comparisons, selections and conversions.
#include <algorithm>
#include <cctype>
#include <map>

#include "ptx_translator.h"

namespace cudacc::ptx {

bool Translator::is_arithmetic(std::string_view name) {
    static constexpr std::string_view kNames[] = {"add", "sub",  "mul",  "mad", "fma", "min", "max",
                                                  "and", "or",   "xor",  "not", "shl", "shr", "popc",
                                                  "clz", "brev", "prmt", "bfe", "bfi"};
    return std::ranges::find(kNames, name) != std::end(kNames);
}

// setp.lt.s32 p, a, b: the comparison's result into a predicate. The
// float comparisons are ordered (false where either is NaN) but for the
// ones ending in u (equ, ltu, ...), which are true there too.
std::string Translator::set_predicate() const {
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
        const bool allowed = cmp == "eq" || cmp == "ne" ||
                             (family != 'b' && (cmp == "lt" || cmp == "le" || cmp == "gt" || cmp == "ge")) ||
                             (family == 'u' && (cmp == "lo" || cmp == "ls" || cmp == "hi" || cmp == "hs"));
        if (!allowed) refuse("cudacc.inline_ptx.reason.instruction", {{"instruction", opcode_}});
        result = compare(cmp);
    } else if (cmp == "eq" || cmp == "lt" || cmp == "le" || cmp == "gt" || cmp == "ge") {
        result = compare(cmp);
    } else if (cmp == "ne" || cmp == "equ") {
        result = std::string(cmp == "equ" ? "!" : "") + "(" + compare("lt") + " || " + compare("gt") + ")";
    } else if (cmp == "neu" || cmp == "ltu" || cmp == "leu" || cmp == "gtu" || cmp == "geu") {
        static const std::map<std::string, std::string_view> kOrderedOpposite = {
            {"neu", "eq"}, {"ltu", "ge"}, {"leu", "gt"}, {"gtu", "le"}, {"geu", "lt"}};
        result = "!" + compare(kOrderedOpposite.at(cmp));
    } else if (cmp == "num" || cmp == "nan") {
        result = std::string(cmp == "nan" ? "!" : "") + "(" + a + " == " + a + " && " + b + " == " + b + ")";
    } else {
        refuse("cudacc.inline_ptx.reason.instruction", {{"instruction", opcode_}});
    }
    return assign(args_[0], "bool", result);
}

// selp.b32 d, a, b, p: a where p holds, else b.
std::string Translator::select() const {
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
std::string Translator::convert() const {
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
        result = std::string(kPtx) + "to_integer<" + cpp_type(to) + ">(" + source + ", [](auto x) { return " +
                 kRoundings.at(rounding) + "(x); })";
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
std::string Translator::arithmetic() const {
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
        if (name == "brev") return assign(args_[0], T, helper + "reverse_bits(" + arg(1, T) + ")");
        return assign(args_[0], "std::uint32_t", helper + name + "(" + arg(1, T) + ")");
    }
    if (name == "bfe") {
        expect_operands(4);
        return assign(args_[0], T,
                      helper + "extract_bits(" + arg(1, T) + ", " + arg(2, "std::uint32_t") + ", " +
                          arg(3, "std::uint32_t") + ")");
    }
    if (name == "bfi") {
        expect_operands(5);
        return assign(args_[0], T,
                      helper + "insert_bits(" + arg(1, T) + ", " + arg(2, T) + ", " +
                          arg(3, "std::uint32_t") + ", " + arg(4, "std::uint32_t") + ")");
    }
    if (name == "mad" || name == "fma" || name == "prmt") {
        expect_operands(4);
        const std::string a = arg(1, T), b = arg(2, T), c = arg(3, T);
        if (name == "prmt")
            return assign(args_[0], T, helper + "permute_bytes(" + a + ", " + b + ", " + c + ")");
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
bool Translator::takes(const std::string& name, const std::string& mode, const std::string& ptx_type) {
    const char family = ptx_type[0];
    const bool bits = name == "and" || name == "or" || name == "xor" || name == "not" || name == "popc" ||
                      name == "clz" || name == "brev" || name == "shl";
    if (bits) return family == 'b' && mode.empty();
    if (name == "prmt") return ptx_type == "b32" && mode.empty();
    const bool wide = ptx_type.ends_with("32") || ptx_type.ends_with("64");
    if (name == "bfe") return (family == 's' || family == 'u') && wide && mode.empty();
    if (name == "bfi") return family == 'b' && wide && mode.empty();
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
std::string Translator::predicate_logic() const {
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

}  // namespace cudacc::ptx
