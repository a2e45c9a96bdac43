// `warpdrill list` and `warpdrill setup`: where the learner stands.
#include <fmt/core.h>

#include "commands.h"

namespace warpdrill::runner {
namespace {

void print_backend(const App& app) {
    fmt::print("backend: {} (./warpdrill --backend cpu|gpu switches)\n", app.course.backend_reason);
}

}  // namespace

int run_list(App& app) {
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
    fmt::print("\n{}\n", progress_bar(app.passed_count(), static_cast<int>(app.course.lessons.size()), 20));
    print_backend(app);
    return 0;
}

// ./warpdrill has installed, configured and built what was missing by the time this runs.
int run_setup(App& app) {
    fmt::print("The course is set up: {} lessons.\n", app.course.lessons.size());
    print_backend(app);
    if (const Lesson* next = app.first_unfinished())
        fmt::print("./warpdrill starts lesson {} ({}); ./warpdrill test runs every test.\n", next->number,
                   next->title);
    return 0;
}

}  // namespace warpdrill::runner
