// `warpdrill check` and `warpdrill hint`: one lesson at a time.
#include <fmt/core.h>

#include "commands.h"
#include "profile.h"
#include "warpdrill/messages.h"

namespace warpdrill::runner {

int run_check(App& app, int number) {
    const Lesson* lesson = number > 0 ? &app.lesson(number) : app.first_unfinished();
    if (!lesson) {
        fmt::print("{}\n", messages::text("course.all_done"));
        return 0;
    }
    const LessonProgress* before = app.progress.find(lesson->name);
    const bool passed_before = before && before->passed;
    const CheckResult result = app.check(*lesson);
    print_result(app, *lesson, result);
    if (result.outcome != Outcome::passed) return 1;
    if (!passed_before) print_what_moved_on_first_pass(app, *lesson);
    return 0;
}

int run_hint(App& app, int number) {
    const std::string hint = app.next_hint(app.lesson(number));
    fmt::print("{}\n", hint.empty() ? messages::text("hint.none", {{"lesson", number}}) : hint);
    return 0;
}

}  // namespace warpdrill::runner
