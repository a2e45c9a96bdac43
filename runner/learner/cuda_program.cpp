// `warpdrill cc` and `warpdrill run`: a CUDA program of the learner's own (or
// a sample's, a blog's), built as nvcc would build it. On the CPU backend the
// compiler is cudacc (cpu-cuda/front), which gives the program every
// diagnosis the lessons get; on the GPU backend it is nvcc itself, and `run
// --sanitize` runs the program under each of compute-sanitizer's tools.
#include <fmt/core.h>

#include <algorithm>
#include <cstdlib>

#include "build.h"
#include "commands.h"
#include "process.h"
#include "warpdrill/messages.h"

namespace warpdrill::runner {
namespace {

// The compiler's command: cudacc, built first if it is not yet, or nvcc.
std::vector<std::string> compiler(const App& app) {
    if (app.course.backend == "gpu") return {WARPDRILL_NVCC, "-lineinfo"};
    const ProcessResult build = build_target(app.course.build_dir, "cudacc");
    if (build.exit_code != 0)
        throw std::runtime_error(messages::text("cudacc.build_failed") + "\n" + build.output);
    return {(app.course.build_dir / "cpu-cuda" / "cudacc").string()};
}

// "prog" for "dir/prog.cu": where `run` puts the program it builds.
fs::path program_path(const App& app, const std::vector<std::string>& sources) {
    const auto first =
        std::ranges::find_if(sources, [](const std::string& arg) { return arg.ends_with(".cu"); });
    const std::string stem = first == sources.end() ? "program" : fs::path(*first).stem().string();
    return app.course.build_dir / "programs" / stem;
}

}  // namespace

int run_cc(App& app, const std::vector<std::string>& nvcc_args) {
    std::vector<std::string> command = compiler(app);
    command.insert(command.end(), nvcc_args.begin(), nvcc_args.end());
    return run_attached(command, fs::current_path());
}

RunOptions parse_run_options(std::vector<std::string> args) {
    RunOptions options;
    const auto program_args = std::ranges::find(args, "--");
    options.program_args.assign(program_args == args.end() ? args.end() : program_args + 1, args.end());
    args.erase(program_args, args.end());
    options.sanitize = std::erase(args, "--sanitize") > 0;
    options.sources = std::move(args);
    return options;
}

int run_program(App& app, const RunOptions& options) {
    if (std::ranges::none_of(options.sources, [](const std::string& arg) { return arg.ends_with(".cu"); }))
        throw std::runtime_error(messages::text("run.no_cu_file"));
    const fs::path program = program_path(app, options.sources);
    fs::create_directories(program.parent_path());
    std::vector<std::string> build = compiler(app);
    build.insert(build.end(), options.sources.begin(), options.sources.end());
    build.insert(build.end(), {"-o", program.string()});
    if (const int status = run_attached(build, fs::current_path()); status != 0) return status;

    std::vector<std::string> command = {program.string()};
    command.insert(command.end(), options.program_args.begin(), options.program_args.end());
    if (!options.sanitize || app.course.backend != "gpu") {
        if (options.sanitize)
            fmt::print("{}\n", messages::text("run.sanitize_on_cpu"));
        // The buffers never freed are listed at the end, as memcheck's leak check lists them.
        setenv("WARPDRILL_LEAK_CHECK", "1", 1);
        return run_attached(command, fs::current_path());
    }
    int worst = 0;
    for (const char* tool : {"memcheck", "racecheck", "synccheck", "initcheck"}) {
        fmt::print("== compute-sanitizer --tool {}\n", tool);
        std::vector<std::string> sanitized = {"compute-sanitizer", "--tool", tool, "--error-exitcode", "1"};
        if (tool == std::string_view("memcheck")) sanitized.insert(sanitized.end(), {"--leak-check", "full"});
        sanitized.insert(sanitized.end(), command.begin(), command.end());
        worst = std::max(worst, run_attached(sanitized, fs::current_path()));
    }
    return worst;
}

}  // namespace warpdrill::runner
