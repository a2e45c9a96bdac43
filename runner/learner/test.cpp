// `warpdrill test`: the project's whole test suite on the CPU backend: every
// solution passes its checks, every lesson as shipped fails them, the backend,
// the runner, the book. When the course itself is built for the CPU backend
// (no GPU here), the suite is built and run in the course's own build
// directory, so that nothing `./warpdrill` built already is built twice; on a
// GPU machine, in build/cpu through the `ci` workflow preset.
#include <fmt/core.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <thread>

#include "commands.h"
#include "process.h"
#include "warpdrill/messages.h"

namespace warpdrill::runner {

namespace {

// One test per core at a time, unless CTEST_PARALLEL_LEVEL says otherwise:
// most tests are one process on one core, and the longest builds as it runs.
void run_tests_side_by_side() {
    if (std::getenv("CTEST_PARALLEL_LEVEL")) return;
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    setenv("CTEST_PARALLEL_LEVEL", std::to_string(cores).c_str(), 1);
}

// Build everything in the course's build directory, then test it with the
// settings of the cpu test preset (CMakePresets.json).
int test_in_course_build(const Course& course, messages::Language learner) {
    const std::string build_dir = course.build_dir.string();
    fmt::print("{}\n", messages::text(learner, "test.in_course_build",
                                      {{"dir", course.relative(course.build_dir).string()}}));
    const int build_exit_code = run_attached({"cmake", "--build", build_dir}, course.root);
    if (build_exit_code != 0) return build_exit_code;
    return run_attached({"ctest", "--test-dir", build_dir, "--output-on-failure", "--no-tests=error", "--timeout", "600"},
                        course.root);
}

}  // namespace

int run_test(App& app) {
    if (!fs::is_directory(app.course.root / "tests")) {
        fmt::print("{}\n", messages::text("test.no_tests"));
        return 1;
    }
    run_tests_side_by_side();
    // The tests read the English wording (the tests of the Chinese ask for
    // it themselves); this command's own lines stay in the learner's language.
    const messages::Language learner = messages::language();
    messages::use_language(messages::Language::english);
    int exit_code = 0;
    if (app.course.backend == "cpu") {
        exit_code = test_in_course_build(app.course, learner);
    } else {
        fmt::print("{}\n", messages::text(learner, "test.in_ci_preset"));
        exit_code = run_attached({"cmake", "--workflow", "--preset", "ci"}, app.course.root);
    }
    fmt::print("{}\n", messages::text(learner, exit_code == 0 ? "test.passed" : "test.failed"));
    return exit_code;
}

}  // namespace warpdrill::runner
