#include "execution_spaces.h"

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "tokens.h"

namespace cudacc {
namespace {

// A function's definition or declaration: its name token and, for a
// definition, its body's braces.
struct Function {
    std::size_t name;
    std::size_t body_open = 0, body_close = 0;  // 0: a declaration only
    bool global = false, device = false, host = false, constexpr_ = false, template_ = false;
    bool in_program_file = false;
};

class ExecutionSpaces {
  public:
    explicit ExecutionSpaces(std::string_view text) : text_(text), tokens_(tokenize(text)) {
        bool in_program_file = false;
        for (const Token& token : tokens_) {
            if (token.kind == Kind::directive)
                in_program_file = program_file_lines(spelling(token), in_program_file);
            program_file_.push_back(in_program_file);
        }
        find_closings();
        for (std::size_t i = 0; i + 1 < tokens_.size(); ++i) {
            if (is(i + 1, "(") && is_function_name(i)) functions_.push_back(function_at(i));
        }
        mark_namespace_scope();
    }

    std::vector<CallAcrossSpaces> calls_across_spaces() const {
        std::vector<CallAcrossSpaces> found;
        find_calls(names_only_of(is_host_only), is_device_caller, found);
        const auto host_caller = [this](const Function& f) { return is_host_caller(f); };
        find_calls(device_only_names(), host_caller, found);
        return found;
    }

    // The host functions that declare a static __shared__ variable (the
    // first one in each).
    std::vector<SharedInHost> shared_in_host() const {
        std::vector<SharedInHost> found;
        for (const Function& f : functions_) {
            if (!f.body_open || !is_host_caller(f)) continue;
            for (std::size_t k = f.body_open + 1; k < f.body_close; ++k) {
                if (!is(k, "__cudacc_shared__") || is_extern_declaration(k)) continue;
                const Place place = place_of(k);
                found.push_back(
                    {place.file, place.line, std::string(declared_name(k)), std::string(text(f.name))});
                break;
            }
        }
        return found;
    }

  private:
    // The program's own functions for one side alone, constexpr ones left
    // out (nvcc takes those on either side with --expt-relaxed-constexpr).
    static bool is_host_only(const Function& f) {
        return f.in_program_file && !f.global && !f.device && !f.constexpr_;
    }
    static bool is_device_only(const Function& f) {
        return f.in_program_file && f.device && !f.host && !f.global && !f.constexpr_;
    }
    // Code that may not call host functions: kernels and __device__ functions
    // (not __host__ __device__ ones: nvcc only warns there).
    static bool is_device_caller(const Function& f) { return f.global || (f.device && !f.host); }
    // Host code of the program's own that may not call __device__ functions:
    // a function at namespace scope (not a class's member, nor what only
    // looks like a function inside another's body), not constexpr, not a
    // template (nvcc judges a template's dependent calls only where it is
    // instantiated), and with no device lambda in its body, whose calls are
    // device code.
    bool is_host_caller(const Function& f) const {
        if (!is_host_only(f) || f.template_ || !at_namespace_scope_[f.name]) return false;
        for (std::size_t k = f.body_open; k < f.body_close; ++k) {
            if (is(k, "__cudacc_device__") || is(k, "__cudacc_global__")) return false;
        }
        return true;
    }

    // The names that `side` is certain to mean: every function of the name
    // is one the program defines or declares for that side alone, and one
    // of them is defined. An overload for the other side, or a library's
    // function of the same name (cg::reduce beside the program's own
    // reduce), leaves the name to nvcc.
    std::set<std::string_view> names_only_of(bool (*side)(const Function&)) const {
        std::set<std::string_view> defined, declared_otherwise;
        for (const Function& f : functions_) {
            if (!side(f)) declared_otherwise.insert(text(f.name));
            if (side(f) && f.body_open) defined.insert(text(f.name));
        }
        std::set<std::string_view> only;
        std::ranges::set_difference(defined, declared_otherwise, std::inserter(only, only.end()));
        return only;
    }

    // CUDA's built-in functions that nvcc declares for the device alone, which
    // the CPU backend declares as host functions: each one's call from a host
    // function, nvcc 13.0 refuses ("calling a __device__ function("__popc")
    // from a __host__ function"), tried one by one. Not rsqrtf, which CUDA's
    // math library gives host code too.
    static constexpr std::string_view kDeviceBuiltins[] = {
        "__activemask", "__any_sync", "__ballot_sync", "__brev", "__brevll", "__byte_perm", "__clz", "__clzll",
        "__cosf", "__dadd_rn", "__expf", "__fadd_rn", "__fdividef", "__ffs", "__ffsll", "__float2int_rn",
        "__float_as_int", "__fmul_rn", "__frcp_rn", "__fsqrt_rn", "__funnelshift_l", "__funnelshift_lc",
        "__funnelshift_r", "__funnelshift_rc", "__hadd", "__int_as_float", "__logf", "__mul24", "__mul64hi",
        "__mulhi", "__nanosleep", "__popc", "__popcll", "__powf", "__rhadd", "__sad", "__saturatef", "__shfl_sync",
        "__sinf", "__syncthreads", "__syncwarp", "__threadfence", "__threadfence_block", "__uhadd", "__umul24",
        "__umul64hi", "__umulhi", "__urhadd", "__usad", "atomicAdd", "atomicCAS", "atomicExch", "clock64"};
    // The names a host function may not call: the program's own __device__
    // functions (names_only_of) and CUDA's device built-ins, but for one the
    // program gives host code a function of that name of its own.
    std::set<std::string_view> device_only_names() const {
        std::set<std::string_view> names = names_only_of(is_device_only), programs_own;
        for (const Function& f : functions_)
            if (f.in_program_file && !is_device_only(f)) programs_own.insert(text(f.name));
        for (const std::string_view builtin : kDeviceBuiltins)
            if (!programs_own.contains(builtin)) names.insert(builtin);
        return names;
    }

    // Each function that `is_caller` picks and that calls one of `callees`
    // (its first such call).
    template <class IsCaller>
    void find_calls(const std::set<std::string_view>& callees, IsCaller is_caller,
                    std::vector<CallAcrossSpaces>& found) const {
        const std::set<std::string_view> members = only_functions_and_calls(callees);
        for (const Function& f : functions_) {
            if (!f.body_open || !is_caller(f)) continue;
            for (std::size_t k = f.body_open + 1; k < f.body_close; ++k) {
                if (is_unevaluated_operand(k)) k = closing_[k + 1];  // names a call that never runs
                const std::string_view name = text(k);
                const bool call = is_plain_call(k) || (members.contains(name) && is_member_call(k));
                if (callees.contains(name) && call && only_called_in(f, name, members.contains(name))) {
                    found.push_back(located(k, f));
                    break;  // one call a function is enough to name
                }
            }
        }
    }

    std::string_view spelling(const Token& token) const {
        return text_.substr(token.begin, token.end - token.begin);
    }
    std::string_view text(std::size_t i) const { return i < tokens_.size() ? spelling(tokens_[i]) : ""; }
    bool is(std::size_t i, std::string_view s) const { return text(i) == s; }
    bool is_identifier(std::size_t i) const {
        return i < tokens_.size() && tokens_[i].kind == Kind::identifier;
    }

    // Each bracket's partner, (), [] and {} (not <>, which C++ leaves ambiguous).
    void find_closings() {
        closing_.assign(tokens_.size(), tokens_.size());
        std::vector<std::size_t> open;
        for (std::size_t i = 0; i < tokens_.size(); ++i) {
            if (tokens_[i].kind != Kind::punctuation) continue;
            if (is(i, "(") || is(i, "[") || is(i, "{")) open.push_back(i);
            if ((is(i, ")") || is(i, "]") || is(i, "}")) && !open.empty()) {
                closing_[open.back()] = i;
                open.pop_back();
            }
        }
    }

    // Which tokens stand at namespace scope: inside no braces but a
    // namespace's and extern "C"'s.
    void mark_namespace_scope() {
        at_namespace_scope_.assign(tokens_.size(), false);
        std::vector<bool> opened;  // each open brace: whether it opens a namespace
        std::size_t other_braces = 0;
        for (std::size_t k = 0; k < tokens_.size(); ++k) {
            at_namespace_scope_[k] = other_braces == 0;
            if (tokens_[k].kind != Kind::punctuation) continue;
            if (is(k, "{")) {
                opened.push_back(opens_namespace(k));
                other_braces += !opened.back();
            } else if (is(k, "}") && !opened.empty()) {
                other_braces -= !opened.back();
                opened.pop_back();
            }
        }
    }
    // `namespace a {`, `namespace a::b {`, `namespace {`, `extern "C" {`.
    bool opens_namespace(std::size_t brace) const {
        std::size_t k = brace;
        while (k > 0 && ((is_identifier(k - 1) && !is(k - 1, "namespace")) || is(k - 1, ":"))) --k;
        if (k > 0 && is(k - 1, "namespace")) return true;
        return k == brace && brace >= 2 && is(brace - 2, "extern");
    }

    // Token i names a function being declared or defined: `name(...)`
    // followed by `;` or a body (after const, noexcept, override, a
    // trailing return type, ...), with a type or specifier before it. Not
    // a call, a control statement, a member initializer or a lambda.
    bool is_function_name(std::size_t i) const {
        // clang-format off
        static const std::set<std::string_view> not_names = {
            "if", "while", "for", "switch", "catch", "return", "sizeof", "alignof", "typeid", "decltype",
            "noexcept", "requires", "static_assert", "__attribute__", "alignas", "new", "delete", "throw",
            "co_return", "co_await", "co_yield", "operator", "case", "do", "constexpr", "consteval",
            "__cudacc_host__", "__cudacc_device__", "__cudacc_global__"};
        // clang-format on
        if (!is_identifier(i) || not_names.contains(text(i)) || i == 0) return false;
        const std::size_t before = i - 1;
        const bool type_before = is_identifier(before) || is(before, "*") || is(before, "&") ||
                                 is(before, ">") || (is(before, ":") && before > 0 && is(before - 1, ":"));
        if (!type_before || is(before, "return") || is(before, "new") || is(before, "else")) return false;
        const std::size_t after = closing_[i + 1] + 1;
        return is(definition_brace(after), "{") || is(after, ";");
    }

    // The token after a declarator's parameters where its body would begin,
    // past what may stand between: qualifiers, a trailing return type, attributes.
    std::size_t definition_brace(std::size_t k) const {
        while (k < tokens_.size() && !is(k, "{") && !is(k, ";") && !is(k, "=") && !is(k, ":")) {
            if (is(k, "(") || is(k, "[")) k = closing_[k];
            if (is(k, ")") || is(k, "}") || is(k, ",")) return tokens_.size();
            ++k;
        }
        return k;
    }

    Function function_at(std::size_t name) const {
        Function f{name};
        f.in_program_file = program_file_[name];
        const std::size_t brace = definition_brace(closing_[name + 1] + 1);
        if (is(brace, "{")) f.body_open = brace, f.body_close = closing_[brace];
        // The specifiers: back to the end of what came before.
        for (std::size_t k = name; k-- > 0;) {
            if (is(k, ";") || is(k, "{") || is(k, "}") || tokens_[k].kind == Kind::directive) break;
            if (is(k, ")") || is(k, "]")) {  // an attribute's arguments, or the end of a template's head
                continue;
            }
            f.global |= is(k, "__cudacc_global__");
            f.device |= is(k, "__cudacc_device__");
            f.host |= is(k, "__cudacc_host__");
            f.constexpr_ |= is(k, "constexpr") || is(k, "consteval");
            f.template_ |= is(k, "template");
        }
        return f;
    }

    // `decltype(`, `sizeof(`, ...: what the parentheses hold is not run, and
    // nvcc takes a call of either side's function there.
    bool is_unevaluated_operand(std::size_t k) const {
        static const std::set<std::string_view> operators = {"decltype", "sizeof", "alignof", "noexcept",
                                                             "typeid"};
        return operators.contains(text(k)) && is(k + 1, "(");
    }

    // A call by the name alone: not `a.f(`, `p->f(`, `ns::f(`, nor a declaration.
    bool is_plain_call(std::size_t k) const {
        if (!is(k + 1, "(") || k == 0) return false;
        const bool qualified = is(k - 1, ":") && is(k - 2, ":");
        const bool keyword_before = is(k - 1, "return") || is(k - 1, "else") || is(k - 1, "do");
        return !is_member_call(k) && !qualified && (keyword_before || !is_identifier(k - 1));
    }
    // `a.f(` or `p->f(`.
    bool is_member_call(std::size_t k) const {
        return k >= 2 && is(k + 1, "(") && (is(k - 1, ".") || (is(k - 1, ">") && is(k - 2, "-")));
    }

    // Of `names`, those that the whole translation unit spells nowhere but as
    // the name of a function in `functions_` and in calls: a member call by
    // such a name can mean nothing else (no library type has a member of
    // that name, no variable holds a callable of it).
    std::set<std::string_view> only_functions_and_calls(const std::set<std::string_view>& names) const {
        std::set<std::size_t> function_names;
        for (const Function& f : functions_) function_names.insert(f.name);
        std::set<std::string_view> other_use;
        for (std::size_t k = 0; k < tokens_.size(); ++k) {
            if (is_identifier(k) && names.contains(text(k)) && !function_names.contains(k) &&
                !is_plain_call(k) && !is_member_call(k)) {
                other_use.insert(text(k));
            }
        }
        std::set<std::string_view> only;
        std::ranges::set_difference(names, other_use, std::inserter(only, only.end()));
        return only;
    }

    // Every use of `name` in f's body is a call (a member call too where
    // `members` says so): the body declares nothing of that name (a lambda,
    // a variable, a parameter) that the call could mean instead.
    bool only_called_in(const Function& f, std::string_view name, bool members) const {
        for (std::size_t k = f.name + 1; k < f.body_close; ++k) {
            if (text(k) == name && !is_plain_call(k) && !(members && is_member_call(k))) return false;
        }
        return true;
    }

    // `extern` among the specifiers before the marker of a __shared__
    // declaration: dynamic shared memory, which nvcc words otherwise.
    bool is_extern_declaration(std::size_t marker) const {
        for (std::size_t k = marker; k-- > 0 && !is(k, ";") && !is(k, "{") && !is(k, "}");) {
            if (is(k, "extern")) return true;
        }
        return false;
    }
    // The name a declaration declares: the last identifier before its
    // declarator ends (`[`, `=`, `;`, `{`, `(`, `,`).
    std::string_view declared_name(std::size_t marker) const {
        std::string_view name;
        for (std::size_t k = marker + 1; k < tokens_.size(); ++k) {
            if (is(k, "[") || is(k, "=") || is(k, ";") || is(k, "{") || is(k, "(") || is(k, ",")) break;
            if (is_identifier(k)) name = text(k);
        }
        return name;
    }

    struct Place {
        std::string file;  // as the line markers name it
        int line = 0;
    };
    // Where token k stands: the last line marker before it names its file
    // and the line after it.
    Place place_of(std::size_t k) const {
        std::size_t marker = k;
        std::optional<LineMarker> line;
        while (marker-- > 0 &&
               !(tokens_[marker].kind == Kind::directive && (line = line_marker(text(marker))))) {
        }
        if (!line) return {};
        const std::size_t from = tokens_[marker].end, to = tokens_[k].begin;
        const auto lines_between =
            static_cast<int>(std::count(text_.begin() + from, text_.begin() + to, '\n'));
        return {std::string(line->file), line->line - 1 + lines_between};
    }

    CallAcrossSpaces located(std::size_t call, const Function& caller) const {
        const Place place = place_of(call);
        const std::string_view caller_space = caller.global   ? "__global__"
                                              : caller.device ? "__device__"
                                                              : "__host__";
        return {place.file, place.line, std::string(text(call)), std::string(text(caller.name)),
                std::string(caller_space)};
    }

    std::string_view text_;
    std::vector<Token> tokens_;
    std::vector<bool> program_file_;  // each token's
    std::vector<std::size_t> closing_;
    std::vector<Function> functions_;
    std::vector<bool> at_namespace_scope_;  // each token's
};

}  // namespace

ExecutionSpaceErrors execution_space_errors(std::string_view preprocessed) {
    const ExecutionSpaces spaces(preprocessed);
    return {spaces.calls_across_spaces(), spaces.shared_in_host()};
}

}  // namespace cudacc
