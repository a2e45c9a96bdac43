// warpdrill: work the course's lessons in order, as rustlings does for Rust.
//   warpdrill               watch the first unfinished lesson (the same as `watch`)
//   warpdrill list          every lesson with its status
//   warpdrill check [N]     build and check lesson N (default: the current one); exit code 0 when it passes
//   warpdrill hint N        the next hint for lesson N
//   warpdrill reset N       restore lesson N's starting files (asks first)
//   warpdrill solution N    the difference between your files and the solution (asks first)
//   warpdrill bench [N]     on a GPU: lesson N's kernel against the other lessons, CUB and a copy
//   warpdrill profile N     what the hardware does with lesson N's kernel (profile.cpp)
//   warpdrill grade         every lesson's checks, as JUnit XML and JSON, for instructors
#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <unistd.h>

#include "app.h"
#include "process.h"
#include "profile.h"

namespace warpdrill::runner {

CheckResult App::check(const Lesson& lesson) {
    CheckResult result = check_lesson(course, lesson, check_options);
    LessonProgress& entry = progress.of(lesson.name);
    entry.tried = true;
    entry.passed = result.outcome == Outcome::passed;
    progress.save();
    return result;
}

const Lesson* App::first_unfinished() const {
    for (const Lesson& lesson : course.lessons) {
        const LessonProgress* entry = progress.find(lesson.name);
        if (!entry || !entry->passed) return &lesson;
    }
    return nullptr;
}

int App::passed_count() const {
    int passed = 0;
    for (const Lesson& lesson : course.lessons) {
        const LessonProgress* entry = progress.find(lesson.name);
        passed += entry && entry->passed;
    }
    return passed;
}

const char* App::status(const Lesson& lesson) const {
    const LessonProgress* entry = progress.find(lesson.name);
    return !entry || !entry->tried ? "not tried" : entry->passed ? "done" : "failing";
}

std::string App::next_hint(const Lesson& lesson) {
    if (lesson.hints.empty()) return "";
    LessonProgress& entry = progress.of(lesson.name);
    const int shown = std::min(entry.hints_shown, static_cast<int>(lesson.hints.size()) - 1);
    entry.hints_shown = shown + 1;
    progress.save();
    return fmt::format("Hint {} of {}:\n{}", shown + 1, lesson.hints.size(), lesson.hints[shown]);
}

void App::load_progress() {
    std::string message;
    if (progress.load(message)) return;
    fmt::print(stderr, "warpdrill: {}\n", message);
    for (const Lesson& lesson : course.lessons) {
        fmt::print(stderr, "  checking lesson {} ... ", lesson.number);
        const CheckResult result = check(lesson);
        fmt::print(stderr, "{}\n", to_string(result.outcome));
    }
}

std::string App::backend_label() const {
    return course.backend == "gpu" ? "GPU (nvcc)" : "CPU backend (fibers; no GPU needed)";
}

bool confirm(const std::string& question) {
    if (!isatty(STDIN_FILENO)) return false;
    fmt::print("{} [y/N] ", question);
    std::fflush(stdout);
    std::string answer;
    std::getline(std::cin, answer);
    return answer == "y" || answer == "Y" || answer == "yes";
}

std::string progress_bar(int done, int total, int width) {
    const int filled = total > 0 ? done * width / total : 0;
    std::string bar = "[";
    for (int i = 0; i < width; ++i) bar += i < filled ? "#" : "-";
    return bar + fmt::format("] {}/{} lessons done", done, total);
}

void print_result(const App& app, const Lesson& lesson, const CheckResult& result) {
    fmt::print("lesson {} ({}): {}  [{}, {:.1f} s]\n", lesson.number, lesson.title, to_string(result.outcome),
               app.backend_label(), result.seconds);
    if (!result.notes.empty()) fmt::print("\n{}", result.notes);
    if (result.outcome != Outcome::passed) {
        fmt::print("\n{}\n", result.message);
        fmt::print("Edit: ");
        for (const auto& file : lesson.edit_files) fmt::print("{}  ", app.course.relative(file).string());
        fmt::print("\nA hint: warpdrill hint {}\n", lesson.number);
    }
}

const Lesson& lesson_or_throw(const App& app, int number) {
    if (const Lesson* lesson = app.course.find(number)) return *lesson;
    throw CLI::ValidationError(
        "lesson", fmt::format("there is no lesson {} (lessons 1 to {})", number, app.course.lessons.size()));
}

namespace {

int command_list(App& app) {
    fmt::print("{:>2}  {:<26} {:<62} {:<10} {}\n", "#", "lesson", "idea", "status", "best GB/s");
    for (const Lesson& lesson : app.course.lessons) {
        const LessonProgress* entry = app.progress.find(lesson.name);
        const std::string gbps = entry && entry->best_gbps ? fmt::format("{:.0f}", *entry->best_gbps)
                                 : entry && entry->modelled_gbps
                                     ? fmt::format("{:.0f} (modelled)", *entry->modelled_gbps)
                                     : "-";
        fmt::print("{:>2}  {:<26} {:<62} {:<10} {}\n", lesson.number, lesson.name, lesson.title,
                   app.status(lesson), gbps);
    }
    fmt::print("\n{}   backend: {}\n",
               progress_bar(app.passed_count(), static_cast<int>(app.course.lessons.size()), 20),
               app.backend_label());
    return 0;
}

int command_check(App& app, int number) {
    const Lesson* lesson = number > 0 ? &lesson_or_throw(app, number) : app.first_unfinished();
    if (!lesson) {
        fmt::print("Every lesson passes. Well done.\n");
        return 0;
    }
    const CheckResult result = app.check(*lesson);
    print_result(app, *lesson, result);
    return result.outcome == Outcome::passed ? 0 : 1;
}

int command_hint(App& app, int number) {
    const std::string hint = app.next_hint(lesson_or_throw(app, number));
    fmt::print("{}\n", hint.empty() ? fmt::format("Lesson {} has no hints.", number) : hint);
    return 0;
}

// The file as it was handed out: from git when the course is a git checkout,
// else from the copy saved the first time warpdrill ran.
std::optional<std::string> starting_version(const App& app, const fs::path& file) {
    const ProcessResult git = run_process(
        {"git", "-C", app.course.root.string(), "show", "HEAD:" + app.course.relative(file).string()},
        std::chrono::seconds(30));
    if (git.exit_code == 0) return git.output;
    std::ifstream pristine(app.course.root / ".progress" / "pristine" / app.course.relative(file));
    if (!pristine) return std::nullopt;
    return std::string(std::istreambuf_iterator<char>(pristine), {});
}

int command_reset(App& app, int number) {
    const Lesson& lesson = lesson_or_throw(app, number);
    if (!app.assume_yes &&
        !confirm(
            fmt::format("Restore lesson {}'s starting files? Yours are kept in .progress/backup/", number))) {
        fmt::print("Nothing changed.\n");
        return 1;
    }
    const std::string stamp = std::to_string(std::chrono::system_clock::now().time_since_epoch().count());
    for (const fs::path& file : lesson.edit_files) {
        const auto original = starting_version(app, file);
        if (!original) {
            fmt::print(stderr, "no starting version of {} found; left as it is\n",
                       app.course.relative(file).string());
            continue;
        }
        const fs::path backup =
            app.course.root / ".progress" / "backup" / (app.course.relative(file).string() + "." + stamp);
        fs::create_directories(backup.parent_path());
        fs::copy_file(file, backup, fs::copy_options::overwrite_existing);
        std::ofstream(file, std::ios::trunc) << *original;
        fmt::print("restored {} (yours: {})\n", app.course.relative(file).string(),
                   app.course.relative(backup).string());
    }
    LessonProgress& entry = app.progress.of(lesson.name);
    entry.passed = false;
    app.progress.save();
    return 0;
}

int command_solution(App& app, int number) {
    const Lesson& lesson = lesson_or_throw(app, number);
    if (!lesson.has_solution) {
        fmt::print("This copy of the course has no solutions/ (your instructor keeps them).\n");
        return 1;
    }
    if (!app.assume_yes &&
        !confirm(fmt::format("Show the solution to lesson {}? Trying once more teaches more.", number))) {
        return 1;
    }
    for (const fs::path& file : lesson.edit_files) {
        const fs::path solution = app.course.root / "solutions" / lesson.name / file.filename();
        const ProcessResult diff =
            run_process({"diff", "-u", "--label", "yours/" + app.course.relative(file).string(), "--label",
                         app.course.relative(solution).string(), file.string(), solution.string()},
                        std::chrono::seconds(30));
        fmt::print("{}", diff.exit_code == 0
                             ? "(" + app.course.relative(file).string() + " matches the solution)\n"
                             : diff.output);
    }
    return 0;
}

// The best GB/s the benchmark's CSV reports for "lesson N".
std::optional<double> best_gbps(const fs::path& csv, int number) {
    std::ifstream in(csv);
    std::optional<double> best;
    const std::string prefix = fmt::format("lesson {},", number);
    for (std::string line; std::getline(in, line);) {
        if (line.rfind(prefix, 0) != 0) continue;
        // kernel,"idea",floats,time_us,gbps,correct: the last two fields
        const std::size_t start = line.rfind(',');
        const std::string correct = line.substr(start + 1);
        const std::size_t gbps_start = line.rfind(',', start - 1) + 1;
        const double gbps = std::stod(line.substr(gbps_start, start - gbps_start));
        if (correct == "yes" && (!best || gbps > *best)) best = gbps;
    }
    return best;
}

int command_bench(App& app, int number) {
    if (app.course.backend != "gpu") {
        fmt::print(stderr,
                   "warpdrill bench measures bandwidth on a GPU; this build uses the CPU backend.\n"
                   "On a machine with an NVIDIA GPU and nvcc, the course builds for the GPU by itself.\n");
        return 2;
    }
    const std::string target = number > 0 ? app.course.target(lesson_or_throw(app, number)) : "";
    const std::string bench = target.empty() ? "gpu_bench" : "gpu_bench_" + target;
    const ProcessResult build = run_process(
        {"cmake", "--build", app.course.build_dir.string(), "--target", bench}, std::chrono::seconds(900));
    if (build.exit_code != 0) {
        fmt::print("{}", build.output);
        return 1;
    }
    const fs::path out = app.course.root / ".progress" / "bench";
    fs::create_directories(out);
    const ProcessResult run =
        run_process({(app.course.build_dir / "bench" / bench).string(), "--csv", (out / "bench.csv").string(),
                     "--svg", (out / "bench.svg").string()},
                    std::chrono::seconds(900));
    fmt::print("{}", run.output);
    for (const Lesson& lesson : app.course.lessons) {
        if (const auto gbps = best_gbps(out / "bench.csv", lesson.number);
            gbps && (number == 0 || number == lesson.number)) {
            LessonProgress& entry = app.progress.of(lesson.name);
            entry.best_gbps = std::max(entry.best_gbps.value_or(0.0), *gbps);
        }
    }
    app.progress.save();
    fmt::print("table: {}  plot: {}\n", app.course.relative(out / "bench.csv").string(),
               app.course.relative(out / "bench.svg").string());
    return run.exit_code;
}

// Keeps the starting version of every learner file, for `reset` outside git.
void save_pristine_copies(const Course& course) {
    for (const Lesson& lesson : course.lessons) {
        for (const fs::path& file : lesson.edit_files) {
            const fs::path copy = course.root / ".progress" / "pristine" / course.relative(file);
            if (fs::exists(copy)) continue;
            fs::create_directories(copy.parent_path());
            fs::copy_file(file, copy);
        }
    }
}

}  // namespace
}  // namespace warpdrill::runner

int main(int argc, char** argv) {
    using namespace warpdrill::runner;
    CLI::App cli{"warpdrill: a course on GPU parallel reduction and warp shuffles"};
    std::string root = WARPDRILL_SOURCE_DIR;
    std::string build_dir = WARPDRILL_BUILD_DIR;
    int time_limit = 120;
    bool yes = false;
    cli.add_option("--root", root, "the course's directory")->capture_default_str();
    cli.add_option("--build-dir", build_dir, "its build directory")->capture_default_str();
    cli.add_option("--time-limit", time_limit, "seconds a lesson's checks may run")->capture_default_str();
    cli.add_flag("--yes,-y", yes, "answer yes to confirmations");
    cli.fallthrough();  // these options may also follow the command (inherited by the subcommands below)

    int number = 0;
    std::string grade_dir = "grade";
    auto* watch = cli.add_subcommand("watch", "check the current lesson on every save (the default)");
    watch->add_option("lesson", number, "start at this lesson");
    auto* list = cli.add_subcommand("list", "every lesson and its status");
    auto* check = cli.add_subcommand("check", "build and check a lesson; exit code 0 when it passes");
    check->add_option("lesson", number, "the lesson (default: the first unfinished one)");
    auto* hint = cli.add_subcommand("hint", "the next hint for a lesson");
    hint->add_option("lesson", number)->required();
    auto* reset = cli.add_subcommand("reset", "restore a lesson's starting files");
    reset->add_option("lesson", number)->required();
    auto* solution = cli.add_subcommand("solution", "show how your files differ from the solution");
    solution->add_option("lesson", number)->required();
    auto* bench = cli.add_subcommand("bench", "on a GPU: bandwidth of the lessons' kernels, CUB and a copy");
    bench->add_option("lesson", number, "compare this lesson's kernel (default: the solutions)");
    ProfileOptions profile_options;
    auto* profile = cli.add_subcommand(
        "profile",
        "what the hardware does with a lesson's kernel: Nsight Compute's counts and a modelled time");
    profile->add_option("lesson", profile_options.lesson)->required();
    profile->add_flag("--solution", profile_options.solution, "the solution's kernel files, not yours");
    profile->add_option("--compare", profile_options.compare, "set this lesson beside it and say what moved");
    profile->add_option("--gpu", profile_options.gpu, "the GPU to model: h100, a100, l4, t4 or rtx4090")
        ->capture_default_str();
    profile->add_flag("--json", profile_options.json, "JSON, for tools and the book");
    profile->add_option("--floats", profile_options.floats, "the input's size (ncu's table is at 2^20)")
        ->capture_default_str();
    auto* grade =
        cli.add_subcommand("grade", "check every lesson; write JUnit XML and JSON (for instructors)");
    grade->add_option("--out", grade_dir, "directory for grade.xml and grade.json")->capture_default_str();
    cli.require_subcommand(0, 1);
    CLI11_PARSE(cli, argc, argv);

    try {
        App app{load_course(root, build_dir, WARPDRILL_ACTIVE_BACKEND),
                Progress(fs::path(root) / ".progress" / "progress.toml"),
                CheckOptions{std::chrono::seconds(time_limit)}, yes};
        save_pristine_copies(app.course);
        app.load_progress();
        if (*list) return command_list(app);
        if (*check) return command_check(app, number);
        if (*hint) return command_hint(app, number);
        if (*reset) return command_reset(app, number);
        if (*solution) return command_solution(app, number);
        if (*bench) return command_bench(app, number);
        if (*grade) return run_grade(app, grade_dir);
        if (*profile) return run_profile(app, profile_options);
        return run_watch(app, number > 0 ? &lesson_or_throw(app, number) : app.first_unfinished());
    } catch (const CLI::Error& error) {
        return cli.exit(error);
    } catch (const std::exception& error) {
        fmt::print(stderr, "warpdrill: {}\n", error.what());
        return 2;
    }
}
