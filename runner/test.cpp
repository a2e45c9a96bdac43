// `warpdrill test`: the project's whole test suite on the CPU backend (the
// `ci` workflow preset, in build/cpu): every solution passes its checks, every
// lesson as shipped fails them, the backend, the runner, the book.
#include <fmt/core.h>

#include "commands.h"
#include "process.h"

namespace warpdrill::runner {

int run_test(App& app) {
    fmt::print("warpdrill test: building and running every test on the CPU backend "
               "(cmake --workflow --preset ci, in build/cpu) ...\n");
    const int exit_code = run_attached({"cmake", "--workflow", "--preset", "ci"}, app.course.root);
    fmt::print("warpdrill test: {}\n", exit_code == 0 ? "every test passes" : "failed (the reason is above)");
    return exit_code;
}

}  // namespace warpdrill::runner
