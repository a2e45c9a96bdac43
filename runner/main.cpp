// warpdrill: work the course's lessons in order, as rustlings does for Rust.
// This file is the command line; each command lives in its own file
// (commands.h says which). ./warpdrill, the script, sets the course up and
// then runs this program.
#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include "commands.h"
#include "instructor.h"
#include "language.h"
#include "warpdrill/messages.h"

using namespace warpdrill::runner;

namespace {

// The arguments after `cc` or `run` (the first argument that is neither an
// option nor an option's value); none for other commands.
std::vector<std::string> nvcc_style_arguments(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--root" || arg == "--build-dir" || arg == "--time-limit" || arg == "--lang") {
            ++i;
        } else if (arg == "cc" || arg == "run") {
            return {argv + i + 1, argv + argc};
        } else if (!arg.starts_with("-")) {
            return {};
        }
    }
    return {};
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App cli{"warpdrill: a course on GPU parallel reduction and warp shuffles"};
    cli.footer("./warpdrill --backend cpu|gpu|auto builds the course for that backend from then on.");
    std::string root = WARPDRILL_SOURCE_DIR;
    std::string build_dir = WARPDRILL_BUILD_DIR;
    int time_limit = 120;
    bool yes = false;
    cli.add_option("--root", root, "the course's directory")->capture_default_str();
    cli.add_option("--build-dir", build_dir, "its build directory")->capture_default_str();
    cli.add_option("--time-limit", time_limit, "seconds a lesson's checks may run")->capture_default_str();
    cli.add_flag("--yes,-y", yes, "answer yes to confirmations (and, in ./warpdrill, to installing packages)");
    std::string lang;
    cli.add_option("--lang", lang, "en or zh: what warpdrill says, the lessons' README and hints (default: from the locale)")
        ->check(CLI::IsMember({"en", "zh"}));
    cli.fallthrough();  // these options may also follow the command (inherited by the subcommands below)

    int number = 0;
    auto* watch = cli.add_subcommand("watch", "check the current lesson on every save (the default)");
    watch->add_option("lesson", number, "start at this lesson");
    auto* list = cli.add_subcommand("list", "every lesson, its status, and the backend in use");
    auto* check = cli.add_subcommand("check", "build and check a lesson; exit code 0 when it passes");
    check->add_option("lesson", number, "the lesson (default: the first unfinished one)");
    bool sanitize = false;
    check->add_flag("--sanitize", sanitize,
                    "on a GPU, run the checks under compute-sanitizer even when they pass (on the CPU backend "
                    "every check is always on)");
    bool timings = false;
    check->add_flag("--timings", timings, "print where the seconds went: the build, the checks, nvcc's verdict");
    auto* hint = cli.add_subcommand("hint", "the next hint for a lesson");
    hint->add_option("lesson", number)->required();
    auto* reset = cli.add_subcommand("reset", "restore a lesson's starting files");
    reset->add_option("lesson", number)->required();
    auto* solution = cli.add_subcommand("solution", "show how your files differ from the solution");
    solution->add_option("lesson", number)->required();
    auto* bench = cli.add_subcommand("bench", "on a GPU: bandwidth of the lessons' kernels, CUB and a copy (13: the ring, NCCL)");
    bench->add_option("lesson", number, "compare this lesson's kernel (default: the solutions)");
    bool bench_solution = false;
    bench->add_flag("--solution", bench_solution, "measure the solution's code for the lesson, not yours");
    ProfileOptions profile_options;
    auto* profile = cli.add_subcommand(
        "profile", "what the hardware does with a lesson's kernel: Nsight Compute's counts and a modelled time");
    profile->add_option("lesson", profile_options.lesson)->required();
    profile->add_flag("--solution", profile_options.solution, "the solution's kernel files, not yours");
    profile->add_option("--compare", profile_options.compare, "set this lesson beside it and say what moved");
    profile->add_option("--gpu", profile_options.gpu, "the GPU to model: h100, a100, l4, t4 or rtx4090")
        ->capture_default_str();
    profile->add_flag("--json", profile_options.json, "JSON, for tools and the book");
    profile->add_option("--floats", profile_options.floats, "the input's size (ncu's table is at 2^20)")
        ->capture_default_str();
    auto* cc = cli.add_subcommand("cc", "compile a CUDA program as nvcc would: warpdrill cc [nvcc options] FILES -o OUT");
    auto* run = cli.add_subcommand("run",
                                   "build and run a CUDA program with its own main(): warpdrill run [nvcc options] "
                                   "FILE.cu... [--sanitize: on a GPU, under compute-sanitizer] [-- ARGS]");
    InstructorCommands instructor(cli);  // grade, grade-all, handout, new, verify
    auto* test = cli.add_subcommand("test", "build and run the project's whole test suite (CPU backend)");
    auto* setup = cli.add_subcommand("setup", "set the course up (packages, build) and say how it stands");
    cli.require_subcommand(0, 1);
    // cc's and run's arguments are nvcc's and the program's: CLI11 sees none of them.
    const std::vector<std::string> nvcc_args = nvcc_style_arguments(argc, argv);
    const int command_end = argc - static_cast<int>(nvcc_args.size());
    CLI11_PARSE(cli, command_end, argv);

    try {
        warpdrill::messages::use_language(warpdrill::messages::choose_language(lang));
        if (instructor.chosen()) return instructor.run({root, build_dir, std::chrono::seconds(time_limit)});
        App app{load_course(root, build_dir, WARPDRILL_ACTIVE_BACKEND, WARPDRILL_BACKEND_REASON),
                Progress(fs::path(root) / ".progress" / "progress.toml"),
                CheckOptions{std::chrono::seconds(time_limit), sanitize, timings}, yes};
        if (*test) return run_test(app);
        if (*cc) return run_cc(app, nvcc_args);
        if (*run) return run_program(app, parse_run_options(nvcc_args));
        localize(app.course, warpdrill::messages::language());
        save_pristine_copies(app.course);
        app.load_progress();
        if (*list) return run_list(app);
        if (*setup) return run_setup(app);
        if (*check) return run_check(app, number);
        if (*hint) return run_hint(app, number);
        if (*reset) return run_reset(app, number);
        if (*solution) return run_solution(app, number);
        if (*bench) return run_bench(app, number, bench_solution);
        if (*profile) return run_profile(app, profile_options);
        return run_watch(app, number > 0 ? &app.lesson(number) : app.first_unfinished());
    } catch (const CLI::Error& error) {
        return cli.exit(error);
    } catch (const std::exception& error) {
        fmt::print(stderr, "warpdrill: {}\n", error.what());
        return 2;
    }
}
