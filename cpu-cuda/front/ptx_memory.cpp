// ld, st, atom, red, cvta and the fences: the instructions that touch memory.
#include <algorithm>
#include <map>

#include "ptx_translator.h"

namespace cudacc::ptx {
namespace {

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

}  // namespace

// ld's and st's modifiers, where the only order besides .relaxed is `order`.
MemoryForm Translator::access_form(std::string_view order) const {
    const MemoryForm form = memory_form(parts_, 1);
    expect_operands(form.cache_policy_operand ? 3 : 2);
    if (!form.order.empty() && form.order != "relaxed" && form.order != order)
        refuse("cudacc.inline_ptx.reason.qualifier", {{"qualifier", "." + form.order}});
    return form;
}

std::string Translator::load() const {
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

std::string Translator::store() const {
    const MemoryForm form = access_form("release");
    const std::string at = address(args_[0]);
    std::string stored;
    for (const std::string& element : elements(args_[1], form.vector))
        stored += (stored.empty() ? "" : ", ") + value(element, form.type);
    if (form.vector > 1) stored = accessed_type(form) + "{{" + stored + "}}";
    if (form.order.empty())
        return object_at(form.is_volatile ? "volatile " : "", form, at) + " = " + stored + ";";
    const std::string store = "::std::atomic_ref<" + form.type + ">(" + object_at("", form, at) + ").store(" +
                              stored + ", ::std::memory_order_relaxed);";
    return form.order == "release" ? fence(form.scope) + " " + store : store;
}

// atom.add.u32 %0, [%1], %2;  red.global.add.f32 [%0], %1;  atom.cas.b32 %0, [%1], %2, %3;
std::string Translator::atomic(bool returns) const {
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
std::string Translator::atomic_type(const std::string& op, const std::string& type) const {
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

std::string Translator::memory_fence() const {
    expect_operands(0);
    const std::string& scope = parts_.back();
    const bool known_form = parts_[0] == "membar"
                                ? parts_.size() == 2 && (scope == "cta" || scope == "gl" || scope == "sys")
                                : parts_.size() == 3 && (parts_[1] == "sc" || parts_[1] == "acq_rel") &&
                                      (scope == "cta" || scope == "gpu" || scope == "sys");
    if (!known_form) refuse("cudacc.inline_ptx.reason.instruction", {{"instruction", opcode_}});
    return fence(scope);
}

std::string Translator::address_conversion() const {
    expect_operands(2);
    if (opcode_ != "cvta.to.global.u64" && opcode_ != "cvta.global.u64")
        refuse("cudacc.inline_ptx.reason.state_space", {{"space", opcode_}});
    return assign(args_[0], "std::uint64_t", value(args_[1], "std::uint64_t"));
}

}  // namespace cudacc::ptx
