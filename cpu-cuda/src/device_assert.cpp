// assert() in kernel code. <assert.h>'s assert() calls the C library's
// __assert_fail, which this definition takes the place of (the backend is
// linked before the C library): in a kernel thread the launch ends, as a GPU
// ends a kernel whose thread fails an assert; anywhere else it does what the
// C library's does.
#include <cerrno>  // program_invocation_short_name
#include <cstdio>
#include <cstdlib>

#include "scheduler.h"

extern "C" [[noreturn]] void __assert_fail(const char* assertion, const char* file, unsigned line,
                                           const char* function) noexcept {
    warpdrill::cpu::detail::assert_failed_in_kernel(assertion, file, line, function);
    std::fflush(nullptr);
    std::fprintf(stderr, "%s: %s:%u: %s: Assertion `%s' failed.\n", program_invocation_short_name, file, line,
                 function, assertion);
    std::abort();
}
