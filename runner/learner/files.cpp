// `warpdrill reset` and `warpdrill solution`: the learner's files, against
// how they were handed out and against the solution.
#include <fmt/core.h>

#include <chrono>
#include <fstream>
#include <optional>

#include "commands.h"
#include "process.h"
#include "warpdrill/messages.h"

namespace warpdrill::runner {
namespace {

// The exit code for a question not answered yes: 2 when there was no one to ask.
int refused(Answer answer) { return answer == Answer::no_terminal ? 2 : 1; }

}  // namespace

std::optional<std::string> starting_version(const Course& course, const fs::path& file) {
    const ProcessResult git = run_process(
        {"git", "-C", course.root.string(), "show", "HEAD:" + course.relative(file).string()},
        std::chrono::seconds(30));
    if (git.exit_code == 0) return git.output;
    std::ifstream pristine(course.root / ".progress" / "pristine" / course.relative(file));
    if (!pristine) return std::nullopt;
    return std::string(std::istreambuf_iterator<char>(pristine), {});
}

int run_reset(App& app, int number) {
    const Lesson& lesson = app.lesson(number);
    const Answer answer =
        app.confirm(messages::text("reset.ask", {{"lesson", number}}));
    if (answer != Answer::yes) {
        if (answer == Answer::no) fmt::print("{}\n", messages::text("reset.nothing_changed"));
        return refused(answer);
    }
    const std::string stamp = std::to_string(std::chrono::system_clock::now().time_since_epoch().count());
    for (const fs::path& file : lesson.edit_files) {
        const auto original = starting_version(app.course, file);
        if (!original) {
            fmt::print(stderr, "{}\n", messages::text("reset.no_start", {{"file", app.course.relative(file).string()}}));
            continue;
        }
        const fs::path backup =
            app.course.root / ".progress" / "backup" / (app.course.relative(file).string() + "." + stamp);
        fs::create_directories(backup.parent_path());
        fs::copy_file(file, backup, fs::copy_options::overwrite_existing);
        std::ofstream(file, std::ios::trunc) << *original;
        fmt::print("{}\n", messages::text("reset.restored", {{"file", app.course.relative(file).string()},
                                                         {"backup", app.course.relative(backup).string()}}));
    }
    LessonProgress& entry = app.progress.of(lesson.name);
    entry.passed = false;
    app.progress.save();
    return 0;
}

int run_solution(App& app, int number) {
    const Lesson& lesson = app.lesson(number);
    if (!lesson.has_solution) {
        fmt::print("{}\n", messages::text("solution.none"));
        return 1;
    }
    const Answer answer =
        app.confirm(messages::text("solution.ask", {{"lesson", number}}));
    if (answer != Answer::yes) return refused(answer);
    for (const fs::path& file : lesson.edit_files) {
        const fs::path solution = app.course.root / "solutions" / lesson.name / file.filename();
        const ProcessResult diff =
            run_process({"diff", "-u", "--label", "yours/" + app.course.relative(file).string(), "--label",
                         app.course.relative(solution).string(), file.string(), solution.string()},
                        std::chrono::seconds(30));
        fmt::print("{}", diff.exit_code == 0
                             ? messages::text("solution.matches", {{"file", app.course.relative(file).string()}}) + "\n"
                             : diff.output);
    }
    return 0;
}

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

}  // namespace warpdrill::runner
