// What the CPU backend reads from its own executable to name things the way a
// learner wrote them: the __shared__ arrays (static thread_local variables,
// from the ELF symbol table), the source line of a code address (addr2line,
// from the debug information), and the text of a source line.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace warpdrill::cpu::detail {

// A thread_local variable of the executable: its demangled name
// ("reduce(float const*, float*, int)::sdata") and where it lies in every
// thread's TLS block. On the CPU backend __shared__ means static
// thread_local, so every such variable is a kernel's __shared__ variable,
// except the backend's own and the libraries'.
struct TlsVariable {
    std::string name;
    std::uintptr_t tls_offset = 0;
    std::size_t bytes = 0;
    bool shared = false;
};

// The executable's thread_local variables, sorted by offset; read once.
const std::vector<TlsVariable>& tls_variables();
// The calling thread's TLS block of the executable (where its __shared__ variables live).
std::uintptr_t tls_block();

// Code addresses are kept as 32-bit offsets from the executable's load address.
std::uintptr_t executable_load_address();
inline std::uint32_t code_offset(const void* address) {
    // Read once: this runs on every tracked memory access.
    static const std::uintptr_t load_address = executable_load_address();
    return static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(address) - load_address);
}
// A function of the executable by name, without its parameters:
// "reduce_complete_unroll<256u>"; "" when the symbol table lacks it.
std::string function_name(const void* function);

struct SourcePlace {
    std::string file;      // as the compiler saw it, relative to the repository
    unsigned line = 0;
    std::string function;  // the innermost function, demangled
    // The course helper the learner's line called, when it was inlined: its
    // line ("pack.cuh:27") and its function ("warpdrill::load_pack").
    std::string via;
    std::string via_function;
};
// The learner's line for each code offset: the innermost frame outside
// common/include, with the helper it inlined. Asks addr2line once for all.
std::vector<SourcePlace> source_places(const std::vector<std::uint32_t>& offsets);
// The same for the access or call the running thread makes at `code` now:
// where the code's own frames are all library code (an out-of-line
// std::atomic_ref::load, a course helper that was not inlined), its callers on
// the thread's stack are looked through for the learner's line.
SourcePlace running_place(std::uint32_t code);
// The code offsets of the calling thread's stack, innermost first, from the
// caller of the caller of call_stack(); and the learner's place among them.
std::vector<std::uint32_t> call_stack();
SourcePlace place_on_stack(const std::vector<std::uint32_t>& stack);
// A path as the checkout names it ("lessons/03-.../reduce.cuh"), from one the
// debug information or the compiler gave (absolute, or joined to the build
// directory); a file outside the checkout keeps its absolute path.
std::string checkout_path(const std::string& file);
// Code the learner did not write: the course's helpers, the backend's
// headers and its own sources, the system's.
bool is_library_file(const std::string& file);
// "reduce.cuh:14", or "an unknown place" without debug information, in the
// learner's language.
std::string to_string(const SourcePlace& place);
// The source text of a line, trimmed, or "".
std::string source_line(const std::string& file, unsigned line);

struct SourceStatement {
    unsigned line = 0;
    std::string text;
};
// The innermost `if`, `else` or `switch` around `line` within its function:
// what a __syncthreads() at `line` depends on. Read from the source text.
std::optional<SourceStatement> enclosing_branch(const std::string& file, unsigned line);
// The innermost loop whose body holds `line` directly (no block between).
std::optional<SourceStatement> enclosing_loop(const std::string& file, unsigned line);
// The nearest `return` above `line` in its function.
std::optional<SourceStatement> return_before(const std::string& file, unsigned line);

// "sdata" from "reduce(float const*, float*, int)::sdata".
std::string short_name(const std::string& qualified);
// The names of a function's parameters, read from its definition's source text.
std::vector<std::string> parameter_names(const void* function);

}  // namespace warpdrill::cpu::detail
