// warpdrill: work the course's lessons in order, as rustlings does for Rust.
// This file is the command line; each command lives in its own file
// (commands.h says which). ./warpdrill, the script, sets the course up and
// then runs this program.
#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include "commands.h"
#include "language.h"

using namespace warpdrill::runner;

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
    cli.add_option("--lang", lang, "en or zh: the lessons' README and hints (default: from LANG)")
        ->check(CLI::IsMember({"en", "zh"}));
    cli.fallthrough();  // these options may also follow the command (inherited by the subcommands below)

    int number = 0;
    std::string grade_dir = "grade";
    auto* watch = cli.add_subcommand("watch", "check the current lesson on every save (the default)");
    watch->add_option("lesson", number, "start at this lesson");
    auto* list = cli.add_subcommand("list", "every lesson, its status, and the backend in use");
    auto* check = cli.add_subcommand("check", "build and check a lesson; exit code 0 when it passes");
    check->add_option("lesson", number, "the lesson (default: the first unfinished one)");
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
    auto* grade =
        cli.add_subcommand("grade", "check every lesson; write JUnit XML and JSON (for instructors)");
    grade->add_option("--out", grade_dir, "directory for grade.xml and grade.json")->capture_default_str();
    auto* test = cli.add_subcommand("test", "build and run the project's whole test suite (CPU backend)");
    auto* setup = cli.add_subcommand("setup", "set the course up (packages, build) and say how it stands");
    cli.require_subcommand(0, 1);
    CLI11_PARSE(cli, argc, argv);

    try {
        App app{load_course(root, build_dir, WARPDRILL_ACTIVE_BACKEND, WARPDRILL_BACKEND_REASON),
                Progress(fs::path(root) / ".progress" / "progress.toml"),
                CheckOptions{std::chrono::seconds(time_limit)}, yes};
        if (*test) return run_test(app);
        localize(app.course, choose_language(lang));
        save_pristine_copies(app.course);
        app.load_progress();
        if (*list) return run_list(app);
        if (*setup) return run_setup(app);
        if (*check) return run_check(app, number);
        if (*hint) return run_hint(app, number);
        if (*reset) return run_reset(app, number);
        if (*solution) return run_solution(app, number);
        if (*bench) return run_bench(app, number, bench_solution);
        if (*grade) return run_grade(app, grade_dir);
        return run_watch(app, number > 0 ? &app.lesson(number) : app.first_unfinished());
    } catch (const CLI::Error& error) {
        return cli.exit(error);
    } catch (const std::exception& error) {
        fmt::print(stderr, "warpdrill: {}\n", error.what());
        return 2;
    }
}
