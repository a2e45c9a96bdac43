#include "app.h"

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <unistd.h>

#include "warpdrill/messages.h"

namespace warpdrill::runner {

CheckResult App::check(const Lesson& lesson) {
    LessonProgress& entry = progress.of(lesson.name);
    // On a GPU, a pass is recorded only once compute-sanitizer agrees: a kernel
    // right by luck there (a barrier in a branch, a race the timing hides) is
    // one the CPU backend would have stopped. Once, while it is not recorded.
    CheckOptions options = check_options;
    options.sanitize = options.sanitize || !entry.passed;
    CheckResult result = check_lesson(course, lesson, options);
    entry.tried = true;
    entry.passed = result.outcome == Outcome::passed;
    progress.save();
    return result;
}

const Lesson& App::lesson(int number) const {
    if (const Lesson* found = course.find(number)) return *found;
    throw CLI::ValidationError(
        "lesson", messages::text("course.no_lesson", {{"lesson", number}, {"count", course.lessons.size()}}));
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

std::string App::status(const Lesson& lesson) const {
    const LessonProgress* entry = progress.find(lesson.name);
    return messages::text(!entry || !entry->tried ? "status.not_tried" : entry->passed ? "status.done" : "status.failing");
}

std::string App::next_hint(const Lesson& lesson) {
    if (lesson.hints.empty()) return "";
    LessonProgress& entry = progress.of(lesson.name);
    const int shown = std::min(entry.hints_shown, static_cast<int>(lesson.hints.size()) - 1);
    entry.hints_shown = shown + 1;
    progress.save();
    return messages::text("hint.shown", {{"number", shown + 1}, {"count", lesson.hints.size()}}) + "\n" +
           lesson.hints[shown];
}

void App::load_progress() {
    std::string message;
    if (progress.load(message)) return;
    fmt::print(stderr, "warpdrill: {}\n", message);
    for (const Lesson& lesson : course.lessons) {
        fmt::print(stderr, "  {} ", messages::text("progress.checking", {{"lesson", lesson.number}}));
        const CheckResult result = check(lesson);
        fmt::print(stderr, "{}\n", outcome_text(result.outcome));
    }
}

std::string App::backend_label() const {
    return messages::text(course.backend == "gpu" ? "check.backend.gpu" : "check.backend.cpu");
}

Answer App::confirm(const std::string& question) const {
    if (assume_yes) return Answer::yes;
    if (!isatty(STDIN_FILENO)) {
        fmt::print(stderr, "{}\n", messages::text("ask.no_terminal", {{"question", question}}));
        return Answer::no_terminal;
    }
    fmt::print("{} [y/N] ", question);
    std::fflush(stdout);
    std::string answer;
    std::getline(std::cin, answer);
    return answer == "y" || answer == "Y" || answer == "yes" ? Answer::yes : Answer::no;
}

void print_result(const App& app, const Lesson& lesson, const CheckResult& result) {
    fmt::print("{}\n", messages::text("check.line", {{"lesson", lesson.number},
                                                     {"title", lesson.title},
                                                     {"outcome", outcome_text(result.outcome)},
                                                     {"backend", app.backend_label()},
                                                     {"seconds", fmt::format("{:.1f}", result.seconds)}}));
    if (!result.notes.empty()) fmt::print("\n{}", result.notes);
    if (result.outcome != Outcome::passed) {
        fmt::print("\n{}\n", result.message);
        fmt::print("{}\n", edit_line(app, lesson));
        fmt::print("{}\n", messages::text("check.hint", {{"lesson", lesson.number}}));
    }
    if (app.check_options.timings) {
        double total = 0;
        fmt::print("\n{}\n", messages::text("check.timings.title"));
        for (const CheckResult::Step& step : result.steps) {
            fmt::print("  {:6.2f} s  {}\n", step.seconds, step.what);
            total += step.seconds;
        }
        fmt::print("  {:6.2f} s  {}\n", total, messages::text("check.timings.total"));
    }
}

std::string progress_bar(int done, int total, int width) {
    const int filled = total > 0 ? done * width / total : 0;
    std::string bar = "[";
    for (int i = 0; i < width; ++i) bar += i < filled ? "#" : "-";
    return bar + "] " + messages::text("watch.progress", {{"done", done}, {"count", total}});
}

std::string edit_line(const App& app, const Lesson& lesson) {
    std::string files;
    for (const fs::path& file : lesson.edit_files) {
        files += (files.empty() ? "" : "  ") + app.course.relative(file).string();
    }
    return messages::text("check.edit", {{"files", files}});
}

std::string json_escape(const std::string& text) {
    std::string escaped;
    for (char c : text) {
        switch (c) {
            case '"': escaped += "\\\""; break;
            case '\\': escaped += "\\\\"; break;
            case '\n': escaped += "\\n"; break;
            case '\t': escaped += "\\t"; break;
            default:
                if (static_cast<unsigned char>(c) < 0x20)
                    escaped += fmt::format("\\u{:04x}", static_cast<int>(c));
                else
                    escaped += c;
        }
    }
    return escaped;
}

}  // namespace warpdrill::runner
