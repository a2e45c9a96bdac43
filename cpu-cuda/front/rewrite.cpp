#include "rewrite.h"

#include "inline_ptx.h"
#include "tokens.h"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <string>
#include <vector>

namespace cudacc {
namespace {

struct Edit {
    std::size_t begin, end;
    std::string replacement;
};

class Rewriter {
  public:
    Rewriter(std::string_view text, RewriteOptions options)
        : text_(text), tokens_(tokenize(text)), options_(options) {}

    std::string run() {
        for (std::size_t i = 0; i < tokens_.size(); ++i) {
            track_scope(i);
            if (tokens_[i].kind == Kind::directive) {
                track_file(i);
            } else if (options_.count_branches && in_program_file_ &&
                       (is(i, "if") || is(i, "while") || is(i, "for")) && is(i + 1, "(")) {
                count_branch(i);
            } else if (in_program_file_ && is_asm_statement(i)) {
                i = inline_asm(i);
            } else if (is(i, "__grid_constant__")) {
                grid_constant(i);
            } else if (in_program_file_ && is_call_of_clock(i)) {
                replace(i, i, "::warpdrill::cpu::detail::program_clock");
            } else if (const std::size_t first = min_max_call(i); in_program_file_ && first != kNotACall) {
                replace(first, i, "::warpdrill::cpu::detail::program_" + std::string(text(i)));
            } else if (in_program_file_ && (is_call_of(i, "malloc") || is_call_of(i, "free"))) {
                replace(i, i,
                        is(i, "malloc") ? "::warpdrill::cpu::detail::program_malloc"
                                        : "::warpdrill::cpu::detail::program_free");
            } else if (is_chevron(i, '<')) {
                launch(i);
                i += 2;
            } else if (is(i, "__cudacc_shared__")) {
                shared_variable(i);
            } else if (is(i, "__cudacc_device__") || is(i, "__cudacc_constant__")) {
                device_declaration(i);
            } else if (is(i, "__cudacc_global__") || is(i, "__cudacc_host__")) {
                replace(i, i, "");  // read by the execution spaces' check only
            } else if ((is(i, "cudaLaunchKernel") || is(i, "cudaLaunchCooperativeKernel")) &&
                       is(i + 1, "(")) {
                i = drop_void_pointer_cast(i + 2);
            } else if (in_program_file_ && is(i, "(") && (is(i + 1, "void") || is(i + 1, "const"))) {
                i = untyped_cast(i);
            } else if (in_program_file_ && is(i, "reinterpret_cast") && is(i + 1, "<")) {
                i = untyped_reinterpret_cast(i);
            } else if (const std::string_view call = built_in_call(i); !call.empty()) {
                built_in(i, call);
            }
        }
        return applied();
    }

  private:
    // ---- tokens ----
    std::string_view text(std::size_t i) const {
        return text_.substr(tokens_[i].begin, tokens_[i].end - tokens_[i].begin);
    }
    bool is(std::size_t i, std::string_view spelling) const {
        return i < tokens_.size() && text(i) == spelling;
    }
    bool is_identifier(std::size_t i) const {
        return i < tokens_.size() && tokens_[i].kind == Kind::identifier;
    }
    // `<<<` or `>>>`: three characters with nothing between them.
    bool is_chevron(std::size_t i, char c) const {
        if (i + 2 >= tokens_.size()) return false;
        for (std::size_t k = i; k < i + 3; ++k) {
            if (tokens_[k].kind != Kind::punctuation || text_[tokens_[k].begin] != c) return false;
            if (k > i && tokens_[k].begin != tokens_[k - 1].end) return false;
        }
        return true;
    }
    // The text from token `first` to token `last`, both included.
    std::string_view between(std::size_t first, std::size_t last) const {
        return text_.substr(tokens_[first].begin, tokens_[last].end - tokens_[first].begin);
    }
    // The index of the bracket that closes the one at `open`, or tokens_.size().
    std::size_t closing(std::size_t open) const {
        const char opener = text_[tokens_[open].begin];
        const char closer = opener == '(' ? ')' : opener == '[' ? ']' : opener == '{' ? '}' : '>';
        int depth = 0;
        for (std::size_t k = open; k < tokens_.size(); ++k) {
            if (is(k, std::string_view(&opener, 1))) ++depth;
            if (is(k, std::string_view(&closer, 1)) && --depth == 0) return k;
        }
        return tokens_.size();
    }
    // +1 at an opening bracket, (, [ or {, -1 at a closing one, 0 elsewhere:
    // the nesting a scan over the tokens keeps count of.
    int nesting_step(std::size_t i) const {
        if (is(i, "(") || is(i, "[") || is(i, "{")) return 1;
        if (is(i, ")") || is(i, "]") || is(i, "}")) return -1;
        return 0;
    }
    // The index of the bracket that opens the one closing at `close`.
    std::size_t opening(std::size_t close) const {
        const char closer = text_[tokens_[close].begin];
        const char opener = closer == ')' ? '(' : closer == ']' ? '[' : '<';
        int depth = 0;
        for (std::size_t k = close + 1; k-- > 0;) {
            if (is(k, std::string_view(&closer, 1))) ++depth;
            if (is(k, std::string_view(&opener, 1)) && --depth == 0) return k;
        }
        return tokens_.size();
    }

    // The line breaks in a stretch that a rewrite replaces: the replacement
    // keeps them, so that every later line stays where it was.
    std::string line_breaks(std::size_t begin, std::size_t end) const {
        return std::string(std::count(text_.begin() + begin, text_.begin() + end, '\n'), '\n');
    }
    void replace(std::size_t first, std::size_t last, std::string replacement) {
        const std::size_t begin = tokens_[first].begin, end = tokens_[last].end;
        edits_.push_back({begin, end, std::move(replacement) + line_breaks(begin, end)});
    }
    void insert_before(std::size_t i, std::string text) {
        edits_.push_back({tokens_[i].begin, tokens_[i].begin, text});
    }
    void insert_after(std::size_t i, std::string text) {
        edits_.push_back({tokens_[i].end, tokens_[i].end, text});
    }
    // Stops the build at token i's line, saying what the CPU backend lacks.
    void unsupported(std::size_t first, std::size_t last, const std::string& what) {
        replace(first, last, "static_assert(false, \"not supported on the CPU backend: " + what + "\");");
    }

    std::string applied() {
        std::ranges::stable_sort(edits_, {}, &Edit::begin);
        std::string out;
        std::size_t at = 0;
        for (const Edit& edit : edits_) {
            out.append(text_.substr(at, edit.begin - at));
            out += edit.replacement;
            at = edit.end;
        }
        out.append(text_.substr(at));
        return out;
    }

    // ---- scopes: is a declaration inside a function, or at namespace scope? ----
    void track_scope(std::size_t i) {
        if (is(i, "{")) {
            std::size_t k = i;
            while (k > 0 && (is_identifier(k - 1) || is(k - 1, ":")) && !is(k - 1, "namespace")) --k;
            const bool namespace_body =
                (k > 0 && is(k - 1, "namespace")) ||
                (i >= 2 && tokens_[i - 1].kind == Kind::literal && is(i - 2, "extern"));
            scopes_.push_back(namespace_body);
            for (const ParameterName& parameter : parameter_names_) {
                if (parameter.body == i) own_names_.push_back({parameter.name, scopes_.size()});
            }
            std::erase_if(parameter_names_,
                          [&](const ParameterName& parameter) { return parameter.body <= i; });
        } else if (is(i, "}") && !scopes_.empty()) {
            scopes_.pop_back();
            std::erase_if(own_names_, [&](const OwnName& own) { return own.depth > scopes_.size(); });
        }
    }
    bool at_namespace_scope() const {
        return std::ranges::all_of(scopes_, [](bool ns) { return ns; });
    }

    // ---- threadIdx, blockIdx, blockDim, gridDim ----
    // A built-in variable's name becomes the backend's call for it, unless it
    // names a member (after `.`, `->` or `::`) or something the program
    // declared under that name (a variable, a parameter, a member: nvcc lets
    // host code do so), within the braces that declaration lives in.
    std::string_view built_in_call(std::size_t i) const {
        static constexpr std::pair<std::string_view, std::string_view> kCalls[] = {
            {"threadIdx", "(::warpdrill::cpu::detail::thread_idx())"},
            {"blockIdx", "(::warpdrill::cpu::detail::block_idx())"},
            {"blockDim", "(::warpdrill::cpu::detail::block_dim())"},
            {"gridDim", "(::warpdrill::cpu::detail::grid_dim())"}};
        if (tokens_[i].kind != Kind::identifier) return {};
        for (const auto& [name, call] : kCalls) {
            if (text(i) == name) return call;
        }
        return {};
    }
    void built_in(std::size_t i, std::string_view call) {
        const bool member = i >= 2 && (is(i - 1, ".") || (is(i - 1, ">") && is(i - 2, "-")) ||
                                       (is(i - 1, ":") && is(i - 2, ":")));
        if (member) return;
        if (declares(i)) return own_name(i);
        const bool own =
            std::ranges::any_of(own_names_, [&](const OwnName& own) { return own.name == text(i); });
        if (!own) replace(i, i, std::string(call));
    }
    // Whether the name at i is being declared: after a type (a name that is
    // no keyword of an expression, `>`, or a `*` or `&` after one) and before
    // what follows a declarator. A use of a built-in either has a member
    // after it or stands where no type does (`= gridDim`, `f(blockDim)`).
    bool declares(std::size_t i) const {
        static constexpr std::string_view kExpressionKeywords[] = {
            "return", "case", "throw", "sizeof", "new", "delete", "co_return", "co_yield", "else", "do"};
        auto is_type_end = [&](std::size_t k) {
            return (is_identifier(k) &&
                    std::ranges::find(kExpressionKeywords, text(k)) == std::end(kExpressionKeywords)) ||
                   is(k, ">");
        };
        const bool after_type =
            i >= 1 && (is_type_end(i - 1) || (i >= 2 && (is(i - 1, "*") || is(i - 1, "&")) &&
                                              (is_type_end(i - 2) || is(i - 2, "*") || is(i - 2, "&"))));
        return after_type && (is(i + 1, "(") || is(i + 1, "{") || is(i + 1, "=") || is(i + 1, ";") ||
                              is(i + 1, ",") || is(i + 1, ")") || is(i + 1, "[") || is(i + 1, ":"));
    }
    // The declaration at i names the program's own variable: in the braces it
    // stands in, or, for a parameter, in the body of its function.
    void own_name(std::size_t i) {
        int depth = 0;
        for (std::size_t k = i; k-- > 0;) {
            if (is(k, ")")) ++depth;
            if (is(k, "(") && depth-- == 0) {
                std::size_t body = closing(k) + 1;
                while (body < tokens_.size() && (is_identifier(body) || is(body, "&")))
                    ++body;  // const, noexcept, ...
                if (is(body, "{")) parameter_names_.push_back({text(i), body});
                return;
            }
            if (depth == 0 && (is(k, "{") || is(k, "}") || is(k, ";"))) break;
        }
        own_names_.push_back({text(i), scopes_.size()});
    }

    // ---- kernel<<<grid, block, shared_bytes, stream>>>(args) ----
    void launch(std::size_t open) {
        const std::size_t kernel = kernel_start(open);
        std::size_t close = open + 3;
        for (int depth = 0; close < tokens_.size(); ++close) {
            depth += nesting_step(close);
            if (depth == 0 && is_chevron(close, '>')) break;
        }
        if (kernel == open || close >= tokens_.size() || !is(close + 3, "(")) {
            unsupported(open, open + 2, "a launch <<<...>>> that is not kernel<<<config>>>(arguments)");
            return;
        }
        const bool zero_argument = null_pointer_constants(close + 3);
        std::string name(between(kernel, open - 1));
        std::ranges::replace(name, '\n', ' ');
        replace(kernel, open + 2, "::warpdrill::cpu::detail::chevrons(");
        replace(close, close + 2,
                ").launch(" + quoted(name) + ", " + thread_body(name, zero_argument) + ", " +
                    address_of(name) + ")");
    }

    // The arguments that are null pointer constants: the call in every
    // thread sees a stored copy, which is no longer a constant. NULL (GCC's
    // __null, which the preprocessor writes between line markers of its own)
    // is passed on as nullptr; a literal 0 as ZeroLiteral (nvcc_syntax.h),
    // which is stored as an int where the kernel takes one. Returns whether
    // there was a 0.
    bool null_pointer_constants(std::size_t open) {
        const std::size_t close = closing(open);
        bool zero = false;
        for (std::size_t k = open + 1; k < close; ++k) {
            if (is(k, "(") || is(k, "[") || is(k, "{")) k = closing(k);
            if (!is(k, "__null") && !is(k, "0")) continue;
            const std::size_t before = skip_line_markers(k, -1), after = skip_line_markers(k, +1);
            if (!(is(before, "(") || is(before, ",")) || !(is(after, ")") || is(after, ","))) continue;
            zero |= is(k, "0");
            replace(k, k, is(k, "0") ? "::warpdrill::cpu::detail::ZeroLiteral{}" : "nullptr");
        }
        return zero;
    }
    // The token next to token i in `direction` (+1 or -1) that is not a line marker.
    std::size_t skip_line_markers(std::size_t i, int direction) const {
        do i += direction;
        while (i < tokens_.size() && tokens_[i].kind == Kind::directive);
        return i;
    }

    // The first token of the kernel before `<<<`: a name, qualified or with
    // template arguments, or an expression in parentheses.
    std::size_t kernel_start(std::size_t open) const {
        std::size_t k = open;
        if (k > 0 && is(k - 1, ")")) return opening(k - 1);
        while (k > 0) {
            if (is(k - 1, ">")) {
                const std::size_t angle = opening(k - 1);
                if (angle >= tokens_.size() || angle == 0 || !is_identifier(angle - 1)) return open;
                k = angle - 1;
            } else if (is_identifier(k - 1)) {
                --k;
            } else {
                return open;
            }
            if (k > 0 && is(k - 1, "template")) --k;
            if (k >= 2 && is(k - 1, ":") && is(k - 2, ":")) {
                k -= 2;
                if (k == 0 || !(is_identifier(k - 1) || is(k - 1, ">"))) return k;  // ::kernel
                continue;
            }
            return k;
        }
        return open;
    }

    static std::string quoted(const std::string& text) {
        std::string out = "\"";
        for (char c : text) {
            if (c == '"' || c == '\\') out += '\\';
            out += c;
        }
        return out + "\"";
    }
    // What every thread runs: the kernel called with the launch's arguments,
    // so that default arguments and conversions apply as in a call.
    // With a literal 0 among the arguments, the launch asks whether the call
    // takes an int there, so the body says which calls it takes.
    static std::string thread_body(const std::string& kernel, bool zero_argument) {
        const std::string call = kernel + "(cudacc_arguments...)";
        return "[=](const auto&... cudacc_arguments)" + (zero_argument ? " -> decltype(" + call + ")" : "") +
               " { " + call + "; }";
    }
    // The kernel's address where C++ can name it without the call (a function,
    // a pointer to one, a template with its arguments or deduced from the
    // arguments' types as they are); otherwise faults name it by its text.
    static std::string address_of(const std::string& kernel) {
        const std::string exact =
            "static_cast<void (*)(std::decay_t<decltype(cudacc_arguments)>...)>(" + kernel + ")";
        const std::string address =
            "::warpdrill::cpu::detail::kernel_address<decltype(cudacc_arguments)...>(";
        return "[=](const auto&... cudacc_arguments) -> const void* { "
               "if constexpr (requires { " +
               address + kernel + "); }) return " + address + kernel +
               "); "
               "else if constexpr (requires { " +
               exact + "; }) return " + address + exact +
               "); "
               "else return nullptr; }";
    }

    // ---- cudaLaunchKernel((void*)kernel, ...) ----
    // NVIDIA's samples cast the kernel to void*, which loses the parameter
    // types that the backend reads the argument pointers as: the cast goes.
    // Returns the last token it dropped, or the one before `first`.
    std::size_t drop_void_pointer_cast(std::size_t first) {
        if (is(first, "(")) {  // (void*)kernel, (const void *)kernel
            const std::size_t close = closing(first);
            if (close < tokens_.size() && is_void_pointer(first + 1, close)) {
                replace(first, close, "");
                return close;
            }
        } else if (is(first, "reinterpret_cast") && is(first + 1, "<")) {  // reinterpret_cast<void*>(kernel)
            const std::size_t angle = closing(first + 1);
            if (angle >= tokens_.size() || !is_void_pointer(first + 2, angle) || !is(angle + 1, "("))
                return first - 1;
            replace(first, angle + 1, "");
            const std::size_t paren = closing(angle + 1);
            if (paren < tokens_.size()) replace(paren, paren, "");
            return angle + 1;
        }
        return first - 1;
    }

    // ---- (void*)name ----
    // Any other cast of a name to void* (`params.func = (void*)reduce;`, as
    // NVIDIA's samples make a graph's kernel node) becomes untyped<void*>(name),
    // the same pointer, which remembers a kernel's parameter types by its
    // address (untyped_kernels.h). Only a cast of a whole name: in
    // `(void*)a[i]` or `(void*)f(x)` the cast applies to more than a name, and
    // stays. Returns the last token of the cast, or `open` where it stays.
    std::size_t untyped_cast(std::size_t open) {
        const std::size_t close = closing(open);
        if (close >= tokens_.size() || !is_void_pointer(open + 1, close)) return open;
        const std::size_t last = whole_name_end(close + 1);
        if (last == 0) return open;
        replace(open, close,
                "::warpdrill::cpu::detail::untyped<" + std::string(between(open + 1, close - 1)) + ">(");
        insert_after(last, ")");
        return close;
    }

    // reinterpret_cast<void*>(name) likewise; returns the cast's `(`, or
    // `first` where it stays.
    std::size_t untyped_reinterpret_cast(std::size_t first) {
        const std::size_t angle = closing(first + 1);
        if (angle >= tokens_.size() || !is_void_pointer(first + 2, angle) || !is(angle + 1, "("))
            return first;
        const std::size_t last = whole_name_end(angle + 2);
        if (last == 0 || !is(last + 1, ")")) return first;
        replace(first, angle + 1,
                "::warpdrill::cpu::detail::untyped<" + std::string(between(first + 2, angle - 1)) + ">(");
        return angle + 1;
    }

    // The last token of a name from `first` (`&name`, `ns::name`,
    // `name<256>`), where nothing after it binds tighter than a cast; 0 where
    // no such name starts there.
    std::size_t whole_name_end(std::size_t first) const {
        std::size_t k = first + (is(first, "&") ? 1 : 0);
        if (is(k, ":") && is(k + 1, ":")) k += 2;
        // After a parameter list `(void*)` the words that may follow are no names.
        for (std::string_view word : {"const", "volatile", "noexcept", "override", "final", "throw",
                                      "requires", "mutable", "__attribute__", "asm", "__asm__", "try"}) {
            if (is(k, word)) return 0;
        }
        if (!is_identifier(k)) return 0;
        std::size_t last = k;
        while (true) {
            if (is(last + 1, "<")) {
                const std::size_t angle = closing(last + 1);
                if (angle >= tokens_.size() || !within_statement(last + 1, angle)) return 0;
                last = angle;
            }
            if (!(is(last + 1, ":") && is(last + 2, ":") && is_identifier(last + 3))) break;
            last += 3;
        }
        const std::size_t next = last + 1;
        const bool binds_tighter =
            is(next, "(") || is(next, "[") || is(next, ".") || (is(next, "-") && is(next + 1, ">")) ||
            (is(next, "+") && is(next + 1, "+")) || (is(next, "-") && is(next + 1, "-"));
        return binds_tighter ? 0 : last;
    }

    // Whether no `;`, `{` or `}` stands from token `first` to `last`: `<` and
    // `>` there may be template brackets, not two comparisons.
    bool within_statement(std::size_t first, std::size_t last) const {
        for (std::size_t k = first; k <= last; ++k) {
            if (is(k, ";") || is(k, "{") || is(k, "}")) return false;
        }
        return true;
    }

    // Whether the tokens from `first` up to `end` spell void* or const void*
    // (in either order of const and void).
    bool is_void_pointer(std::size_t first, std::size_t end) const {
        if (end < first + 2 || !is(end - 1, "*")) return false;
        bool named_void = false;
        for (std::size_t k = first; k + 1 < end; ++k) {
            if (is(k, "void") && !named_void) {
                named_void = true;
            } else if (!is(k, "const")) {
                return false;
            }
        }
        return named_void;
    }

    // ---- __shared__ ----
    // `__shared__` may stand anywhere among the declaration's specifiers:
    // `extern __shared__ float s[]` and `extern float __shared__ s[]` alike.
    void shared_variable(std::size_t marker) {
        const std::size_t first = declaration_start(marker);
        const std::size_t stop = declarator_end(marker + 1);
        if (has_specifier(first, stop, "extern")) {
            dynamic_shared(first, marker);
        } else {
            hoist_alignas(first, stop);
            replace(marker, marker,
                    has_specifier(first, stop, "static") ? "thread_local" : "static thread_local");
        }
    }

    // nvcc takes `__shared__ alignas(16) float s[n]`; GCC takes an alignas
    // among a declaration's specifiers only before them: it moves there.
    void hoist_alignas(std::size_t first, std::size_t stop) {
        for (std::size_t k = first; k < stop; ++k) {
            if (!is(k, "alignas") || !is(k + 1, "(")) continue;
            const std::size_t close = closing(k + 1);
            insert_before(first, std::string(between(k, close)) + " ");
            replace(k, close, "");
            k = close;
        }
    }

    // The first token of the declaration that holds token `marker`.
    std::size_t declaration_start(std::size_t marker) const {
        std::size_t k = marker;
        while (k > 0 && !is(k - 1, ";") && !is(k - 1, "{") && !is(k - 1, "}") &&
               tokens_[k - 1].kind != Kind::directive) {
            --k;
        }
        return k;
    }

    bool has_specifier(std::size_t first, std::size_t stop, std::string_view specifier) const {
        for (std::size_t k = first; k < stop; ++k) {
            if (is(k, specifier)) return true;
        }
        return false;
    }

    // extern __shared__ [attributes] T name[]; from `first` (the declaration's
    // first token) with the marker at `marker`.
    void dynamic_shared(std::size_t first, std::size_t marker) {
        std::size_t end = first;
        while (end < tokens_.size() && !is(end, ";")) ++end;
        const bool shape = end >= 5 && is(end - 1, "]") && is(end - 2, "[") && is_identifier(end - 3);
        if (!shape) {
            unsupported(first, std::min(end, tokens_.size() - 1),
                        "extern __shared__ declares one array of unknown size: extern __shared__ T name[];");
            return;
        }
        const std::string name(text(end - 3));
        if (at_namespace_scope()) {
            unsupported(first, end,
                        "extern __shared__ " + name +
                            "[] at namespace scope; declare it inside the kernel or function that uses it");
            return;
        }
        const std::string type = element_type(first, end - 4, marker);
        replace(
            first, end,
            type + " (&" + name + ")[] = ::warpdrill::cpu::detail::dynamic_shared_array<" + type + ">();");
    }

    // The array's element type: the tokens from `first` to `last` without
    // `extern`, the marker and alignment attributes (the dynamic shared memory
    // is aligned to 16 bytes anyway).
    std::string element_type(std::size_t first, std::size_t last, std::size_t marker) const {
        std::string out;
        for (std::size_t k = first; k <= last && k < tokens_.size(); ++k) {
            if ((is(k, "__attribute__") || is(k, "alignas")) && is(k + 1, "(")) {
                k = closing(k + 1);
                continue;
            }
            if (k == marker || is(k, "extern")) continue;
            if (!out.empty()) out += ' ';
            out += text(k);
        }
        return out;
    }

    // ---- __device__ and __constant__: a function, or a variable in device memory ----
    void device_declaration(std::size_t marker) {
        // __device__ __constant__: the last of the two rewrites the variable.
        const bool lambda = marker > 0 && (is(marker - 1, "]") || is(marker - 1, ")"));
        const bool another_follows =
            is(marker + 1, "__cudacc_device__") || is(marker + 1, "__cudacc_constant__");
        const std::size_t stop = declarator_end(marker + 1);
        if (lambda || another_follows || stop >= tokens_.size() || is(stop, "(") ||
            declares_type(marker + 1, stop)) {
            replace(marker, marker, "");  // a function: nothing to change
            return;
        }
        const std::string space = is(marker, "__cudacc_device__") ? "__device__" : "__constant__";
        if (!is_identifier(stop - 1)) {
            unsupported(marker, marker, space + " variable whose name the front end cannot find");
            return;
        }
        replace(marker, marker, "");
        const bool declaration_only = is_extern(marker);
        for (std::size_t at = stop; at < tokens_.size();) {
            const std::size_t name = at - 1;
            if (!is_identifier(name)) return;  // the compiler names what is wrong
            replace(name, name, "(&" + std::string(text(name)) + ")");
            while (is(at, "[")) at = closing(at) + 1;
            if (!declaration_only) at = define_variable(std::string(text(name)), space, at);
            if (!is(at, ",")) return;
            at = declarator_end(at + 1);
        }
    }

    // From `first`, the first of ( ; = { [ , outside brackets, skipping
    // attributes and template arguments.
    std::size_t declarator_end(std::size_t first) const {
        int angles = 0;
        for (std::size_t k = first; k < tokens_.size(); ++k) {
            const bool attribute = is(k, "__attribute__") || is(k, "alignas") || is(k, "decltype") ||
                                   is(k, "__launch_bounds__") || is(k, "sizeof");
            if (attribute && is(k + 1, "(")) {
                k = closing(k + 1);
            } else if (is(k, "operator")) {
                return tokens_.size();
            } else if (is(k, "<") && k > 0 && is_identifier(k - 1)) {
                ++angles;
            } else if (is(k, ">") && angles > 0) {
                --angles;
            } else if (angles == 0 &&
                       (is(k, "(") || is(k, ";") || is(k, "=") || is(k, "{") || is(k, "[") || is(k, ","))) {
                return k;
            }
        }
        return tokens_.size();
    }

    bool declares_type(std::size_t first, std::size_t last) const {
        for (std::size_t k = first; k < last; ++k) {
            if (is(k, "struct") || is(k, "class") || is(k, "union") || is(k, "enum")) return true;
        }
        return false;
    }

    // Whether the declaration around `marker` says extern (a variable defined elsewhere).
    bool is_extern(std::size_t marker) const {
        for (std::size_t k = marker; k-- > 0;) {
            if (is(k, ";") || is(k, "{") || is(k, "}") || tokens_[k].kind == Kind::directive) return false;
            if (is(k, "extern")) return true;
        }
        return false;
    }

    // Gives the variable whose declarator ends before `at` its device memory
    // and its initial value; returns the token after its initializer.
    std::size_t define_variable(const std::string& name, const std::string& space, std::size_t at) {
        const std::string allocate =
            "::warpdrill::cpu::detail::device_variable(\"" + name + "\", \"" + space + "\"";
        const std::string construct =
            ", [](auto cudacc_type, void* cudacc_at) { ::new (cudacc_at) "
            "typename decltype(cudacc_type)::type";
        if (is(at, ";") || is(at, ",")) {
            insert_before(at, " = " + allocate + ")");
            return at;
        }
        if (is(at, "{")) {  // T name{...}
            insert_before(at, " = " + allocate + construct);
            const std::size_t close = closing(at);
            insert_after(close, "; })");
            return close + 1;
        }
        if (!is(at, "=")) return at;
        if (is(at + 1, "{")) {  // T name = {...}
            replace(at, at, "= " + allocate + construct);
            const std::size_t close = closing(at + 1);
            insert_after(close, "; })");
            return close + 1;
        }
        std::size_t end = at + 1;  // T name = expression
        for (int depth = 0; end < tokens_.size(); ++end) {
            depth += nesting_step(end);
            if (depth == 0 && (is(end, ",") || is(end, ";"))) break;
        }
        replace(at, at, "= " + allocate + construct + "(");
        insert_after(end - 1, "); })");
        return end;
    }

    // ---- the program's own files ----
    // A line marker, `# 12 "lessons/01-x/reduce.cuh" 2 3`: the file the lines
    // after it come from. Flag 3 marks a system header; the backend's headers
    // are its own business, as CUB's code is on a GPU.
    void track_file(std::size_t i) { in_program_file_ = program_file_lines(text(i), in_program_file_); }

    // ---- asm("..." : outputs : inputs : clobbers) ----
    // Inline PTX (inline_ptx.h): each operand's expression stays where the
    // program wrote it (so the rest of the rewrite still reads it), bound to
    // a register variable; the PTX's C++ follows them, and the outputs are
    // written back last, all in one do { } while (0). The host's own
    // assembly is left to the host's compiler. Returns the token to go on from.
    bool is_asm_statement(std::size_t i) const {
        return (is(i, "asm") || is(i, "__asm__") || is(i, "__asm")) && is(asm_open(i), "(");
    }
    std::size_t asm_open(std::size_t keyword) const {
        std::size_t k = keyword + 1;
        while (is(k, "volatile") || is(k, "__volatile__") || is(k, "__volatile") || is(k, "inline")) ++k;
        return k;
    }
    struct AsmPlace {
        std::size_t expression_open, expression_close;  // the operand's ( expression )
    };
    std::size_t inline_asm(std::size_t keyword) {
        const std::size_t open = asm_open(keyword), close = closing(open);
        std::size_t k = open + 1;
        std::string asm_text;
        while (k < close && tokens_[k].kind == Kind::literal) asm_text += string_literal_value(text(k++));
        if (close >= tokens_.size() || !is_ptx(asm_text)) return keyword;
        std::vector<AsmOperand> operands;
        std::vector<AsmPlace> places;
        for (int section = 0; k < close;) {
            if (is(k, ":")) ++section;
            if (is(k, ":") || is(k, ",") || section > 2) {  // clobbers are nothing to the CPU
                ++k;
                continue;
            }
            AsmOperand operand;
            if (tokens_[k].kind != Kind::literal || !is(k + 1, "(")) return keyword;  // the compiler will say
            operand.constraint = string_literal_value(text(k));
            operand.output = section == 1;
            const AsmPlace place{k + 1, closing(k + 1)};
            operand.expression = std::string(between(place.expression_open, place.expression_close));
            operands.push_back(std::move(operand));
            places.push_back(place);
            k = place.expression_close + 1;
        }
        const PtxTranslation ptx = translate_ptx(asm_text, operands);
        if (!ptx.error.empty()) {
            replace(keyword, close,
                    "do { static_assert(false, \"" + escaped_for_literal(ptx.error) + "\"); } while (0)");
            return close;
        }
        std::string written_back;
        for (std::size_t j = 0; j < operands.size(); ++j) {
            if (operands[j].output)
                written_back += "::warpdrill::cpu::ptx::out(__wd_out_" + std::to_string(j) + ", " +
                                register_name(j) + "); ";
        }
        if (places.empty()) {
            replace(keyword, close, "do { " + ptx.code + "} while (0)");
            return close;
        }
        replace(keyword, places[0].expression_open - 1, "do { " + operand_binding(operands, 0));
        for (std::size_t j = 1; j < places.size(); ++j) {
            replace(places[j - 1].expression_close + 1, places[j].expression_open - 1,
                    operand_register(operands, j - 1) + operand_binding(operands, j));
        }
        replace(places.back().expression_close + 1, close,
                operand_register(operands, places.size() - 1) + ptx.code + written_back + "} while (0)");
        return keyword;
    }
    // What goes before operand j's ( expression ): its binding.
    static std::string operand_binding(const std::vector<AsmOperand>& operands, std::size_t j) {
        const std::string type = register_type(operands[j].constraint);
        if (operands[j].output) return "auto& __wd_out_" + std::to_string(j) + " = ";
        return "[[maybe_unused]] const " + type + " " + register_name(j) + " = ::warpdrill::cpu::ptx::in<" +
               type + ">";
    }
    // What goes after it: an output's register, the program's value in it for "+".
    static std::string operand_register(const std::vector<AsmOperand>& operands, std::size_t j) {
        if (!operands[j].output) return "; ";
        const std::string type = register_type(operands[j].constraint);
        const std::string name = register_name(j);
        if (operands[j].constraint.starts_with("+"))
            return "; " + type + " " + name + " = ::warpdrill::cpu::ptx::in<" + type + ">(__wd_out_" +
                   std::to_string(j) + "); ";
        return "; " + type + " " + name + "{}; ";
    }

    // ---- __grid_constant__ ----
    // A kernel's parameter that stays in the launch's parameter memory, one
    // copy for all threads, whose address may be taken. Here the mark goes;
    // a parameter it marks that is not const stops the build, as nvcc's
    // "must have const-qualified type" does.
    void grid_constant(std::size_t i) {
        replace(i, i, is_const_parameter(i) ? "" : "a_grid_constant_parameter_must_be_const");
    }
    // Whether the parameter around token i is itself const: a `const` after
    // its last `*` or `&` (`const T t`, `T* const p`; not `const T* p`).
    bool is_const_parameter(std::size_t i) const {
        std::size_t first = i, last = i;
        for (int depth = 0; first > 0; --first) {
            if (is(first - 1, ")") || is(first - 1, ">")) ++depth;
            if (is(first - 1, "(") || is(first - 1, "<")) --depth;
            if (depth < 0 || (depth == 0 && is(first - 1, ","))) break;
        }
        for (int depth = 0; last + 1 < tokens_.size(); ++last) {
            if (is(last + 1, "(") || is(last + 1, "<")) ++depth;
            if (is(last + 1, ")") || is(last + 1, ">")) --depth;
            if (depth < 0 || (depth == 0 && is(last + 1, ","))) break;
        }
        bool is_const = false;
        for (std::size_t k = first; k <= last; ++k) {
            if (is(k, "*") || is(k, "&")) is_const = false;
            if (is(k, "const")) is_const = true;
        }
        return is_const;
    }

    // ---- clock() ----
    // A call of clock() (not std::clock(), not a member, not a declaration):
    // in a kernel it is the GPU's cycle counter, in host code the C
    // library's, one function for both under nvcc. program_clock() asks the
    // backend which one runs (device_functions.h).
    bool is_call_of_clock(std::size_t i) const { return is_call_of(i, "clock") && is(i + 2, ")"); }

    // ---- fminf, fmaxf, fmin and fmax ----
    // A call of one, plain, `::` or `std::` qualified: in a kernel they are
    // min.f32 and max.f32 (.f64), which differ from the C library's in the
    // zero and the NaN they give, in host code the C library's.
    // program_fminf() and the rest ask the backend which one runs
    // (device_functions.h). Returns the call's first token (its qualifier's),
    // or kNotACall.
    static constexpr std::size_t kNotACall = ~std::size_t{0};
    std::size_t min_max_call(std::size_t i) const {
        if (!(is(i, "fminf") || is(i, "fmaxf") || is(i, "fmin") || is(i, "fmax")) || !is(i + 1, "("))
            return kNotACall;
        if (is_call_of(i, text(i))) return i;
        if (i < 2 || !is_pair(i - 2, ':', ':')) return kNotACall;
        const auto unqualified = [&](std::size_t k) { return k == 0 || !is(k - 1, ":"); };
        if (i >= 3 && is(i - 3, "std")) return unqualified(i - 3) ? i - 3 : kNotACall;  // not cuda::std::
        const bool global = i == 2 || (!is_identifier(i - 3) && !is(i - 3, ">"));
        return global ? i - 2 : kNotACall;
    }
    // A call of the function `name` that is not qualified, not a member's,
    // and not its declaration.
    bool is_call_of(std::size_t i, std::string_view name) const {
        if (!is(i, name) || !is(i + 1, "(")) return false;
        if (i == 0) return true;
        const bool qualified = is_pair(i - 2, ':', ':') || is_pair(i - 2, '-', '>') || is(i - 1, ".");
        return !qualified && (!is_identifier(i - 1) || is(i - 1, "return"));
    }
    // Tokens k and k + 1 are the characters `first` and `second`, touching
    // (`::`, `->`: the lexer gives punctuation a character at a time).
    bool is_pair(std::size_t k, char first, char second) const {
        return k + 1 < tokens_.size() && is(k, std::string_view(&first, 1)) &&
               is(k + 1, std::string_view(&second, 1)) && tokens_[k].end == tokens_[k + 1].begin;
    }

    // ---- branches (RewriteOptions::count_branches) ----

    // `keyword` (if, while, for) at token i, its parenthesis at i + 1.
    void count_branch(std::size_t i) {
        const std::size_t open = i + 1, close = closing(open);
        if (close == tokens_.size()) return;
        std::vector<std::size_t> semicolons;  // at the parenthesis' own depth
        int depth = 0;
        for (std::size_t k = open + 1; k < close; ++k) {
            depth += nesting_step(k);
            if (depth == 0 && is(k, ";")) semicolons.push_back(k);
        }
        std::size_t first = open + 1, last = close - 1;  // the condition's tokens
        if (is(i, "for")) {
            if (semicolons.size() != 2) return;  // a range for
            first = semicolons[0] + 1;
            last = semicolons[1] - 1;
        } else if (!semicolons.empty()) {
            first = semicolons.back() + 1;  // if (init; condition)
        }
        if (first > last) return;  // for (;;)
        const bool constant =
            first == last && (tokens_[first].kind != Kind::identifier || is(first, "true") ||
                              is(first, "false"));  // while (0), while (true)
        if (constant || assigns(first, last)) return;
        insert_before(first, "::warpdrill::cpu::detail::branch(static_cast<bool>(");
        insert_after(last, "), \"" + std::string(text(i)) + "\")");
    }

    // Whether the tokens [first, last] hold an `=` of their own (a declaration
    // or an assignment), not one of ==, !=, <= or >=, nor one inside brackets.
    bool assigns(std::size_t first, std::size_t last) const {
        int depth = 0;
        for (std::size_t k = first; k <= last; ++k) {
            depth += nesting_step(k);
            if (depth != 0 || !is(k, "=")) continue;
            const bool joined_before =
                k > first && tokens_[k - 1].end == tokens_[k].begin &&
                std::string_view("=!<>").find(text_[tokens_[k - 1].begin]) != std::string_view::npos;
            const bool joined_after = k < last && is(k + 1, "=") && tokens_[k].end == tokens_[k + 1].begin;
            if (!joined_before && !joined_after) return true;
        }
        return false;
    }

    std::string_view text_;
    std::vector<Token> tokens_;
    std::vector<Edit> edits_;
    std::vector<bool> scopes_;  // one per open brace: whether it opens a namespace (or extern "C")
    // The program's own variables named as built-ins, and the brace depth
    // they live at; parameters so named, and the brace of their function's body.
    struct OwnName {
        std::string_view name;
        std::size_t depth;
    };
    std::vector<OwnName> own_names_;
    struct ParameterName {
        std::string_view name;
        std::size_t body;
    };
    std::vector<ParameterName> parameter_names_;
    RewriteOptions options_;
    bool in_program_file_ = false;  // in the program's own files: not a system or backend header
};

}  // namespace

std::string rewrite(std::string_view preprocessed, RewriteOptions options) {
    return Rewriter(preprocessed, options).run();
}

}  // namespace cudacc
