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
using warpdrill::messages::text;

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

// --lang's value among warpdrill's own arguments (the first `end`), read
// before the command line is made so that its help speaks the language too;
// "" without it.
std::string language_option(int end, char** argv) {
    for (int i = 1; i < end; ++i) {
        const std::string arg = argv[i];
        if (arg == "--lang" && i + 1 < end) return argv[i + 1];
        if (arg.starts_with("--lang=")) return arg.substr(7);
    }
    return "";
}

}  // namespace

int main(int argc, char** argv) {
    // cc's and run's arguments are nvcc's and the program's: CLI11 sees none of them.
    const std::vector<std::string> nvcc_args = nvcc_style_arguments(argc, argv);
    const int command_end = argc - static_cast<int>(nvcc_args.size());
    warpdrill::messages::use_language(warpdrill::messages::choose_language(language_option(command_end, argv)));
    CLI::App cli{text("help.title")};
    cli.footer(text("help.footer"));
    std::string root = WARPDRILL_SOURCE_DIR;
    std::string build_dir = WARPDRILL_BUILD_DIR;
    int time_limit = 120;
    bool yes = false;
    cli.add_option("--root", root, text("help.root"))->capture_default_str();
    cli.add_option("--build-dir", build_dir, text("help.build_dir"))->capture_default_str();
    cli.add_option("--time-limit", time_limit, text("help.time_limit"))->capture_default_str();
    cli.add_flag("--yes,-y", yes, text("help.yes"));
    std::string lang;  // checked here, chosen from above (language_option)
    cli.add_option("--lang", lang, text("help.lang"))
        ->check(CLI::IsMember({"en", "zh"}));
    cli.fallthrough();  // these options may also follow the command (inherited by the subcommands below)

    int number = 0;
    auto* watch = cli.add_subcommand("watch", text("help.watch"));
    watch->add_option("lesson", number, text("help.watch.lesson"));
    auto* list = cli.add_subcommand("list", text("help.list"));
    auto* check = cli.add_subcommand("check", text("help.check"));
    check->add_option("lesson", number, text("help.check.lesson"));
    bool sanitize = false;
    check->add_flag("--sanitize", sanitize,
                    text("help.check.sanitize"));
    bool timings = false;
    check->add_flag("--timings", timings, text("help.check.timings"));
    auto* hint = cli.add_subcommand("hint", text("help.hint"));
    hint->add_option("lesson", number)->required();
    auto* reset = cli.add_subcommand("reset", text("help.reset"));
    reset->add_option("lesson", number)->required();
    auto* solution = cli.add_subcommand("solution", text("help.solution"));
    solution->add_option("lesson", number)->required();
    auto* bench = cli.add_subcommand("bench", text("help.bench"));
    bench->add_option("lesson", number, text("help.bench.lesson"));
    bool bench_solution = false;
    bench->add_flag("--solution", bench_solution, text("help.bench.solution"));
    ProfileOptions profile_options;
    auto* profile = cli.add_subcommand(
        "profile", text("help.profile"));
    profile->add_option("lesson", profile_options.lesson)->required();
    profile->add_flag("--solution", profile_options.solution, text("help.profile.solution"));
    profile->add_option("--compare", profile_options.compare, text("help.profile.compare"));
    profile->add_option("--gpu", profile_options.gpu, text("help.profile.gpu"))
        ->capture_default_str();
    profile->add_flag("--json", profile_options.json, text("help.profile.json"));
    profile->add_option("--floats", profile_options.floats, text("help.profile.floats"))
        ->capture_default_str();
    auto* cc = cli.add_subcommand("cc", text("help.cc"));
    auto* run = cli.add_subcommand("run",
                                   text("help.run"));
    InstructorCommands instructor(cli);  // grade, grade-all, handout, new, verify
    auto* test = cli.add_subcommand("test", text("help.test"));
    auto* setup = cli.add_subcommand("setup", text("help.setup"));
    cli.require_subcommand(0, 1);
    CLI11_PARSE(cli, command_end, argv);

    try {
        if (instructor.chosen()) return instructor.run({root, build_dir, std::chrono::seconds(time_limit)});
        const std::string reason =
            backend_reason(WARPDRILL_BACKEND_CASE, WARPDRILL_GPU_NAME, WARPDRILL_NVCC_VERSION);
        App app{load_course(root, build_dir, WARPDRILL_ACTIVE_BACKEND, reason),
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
