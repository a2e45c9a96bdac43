// `warpdrill list` and `warpdrill setup`: where the learner stands.
#include <fmt/core.h>

#include "commands.h"
#include "warpdrill/messages.h"

namespace warpdrill::runner {
namespace {

void print_backend(const App& app) {
    fmt::print("{}\n", messages::text("list.backend", {{"reason", app.course.backend_reason}}));
}

}  // namespace

int run_list(App& app) {
    fmt::print("{:>2}  {:<26} {:<62} {:<10} {}\n", "#", messages::text("list.lesson"), messages::text("list.idea"),
               messages::text("list.status"), messages::text("list.best"));
    for (const Lesson& lesson : app.course.lessons) {
        const LessonProgress* entry = app.progress.find(lesson.name);
        const std::string gbps = entry && entry->best_gbps ? fmt::format("{:.0f}", *entry->best_gbps)
                                 : entry && entry->modelled_gbps
                                     ? messages::text("list.modelled", {{"gbps", fmt::format("{:.0f}", *entry->modelled_gbps)}})
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
    fmt::print("{}\n", messages::text("setup.done", {{"count", app.course.lessons.size()}}));
    print_backend(app);
    if (const Lesson* next = app.first_unfinished())
        fmt::print("{}\n", messages::text("setup.next", {{"lesson", next->number}, {"title", next->title}}));
    return 0;
}

}  // namespace warpdrill::runner
