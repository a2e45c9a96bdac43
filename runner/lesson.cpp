// `warpdrill check` and `warpdrill hint`: one lesson at a time.
#include <fmt/core.h>

#include "commands.h"

namespace warpdrill::runner {

int run_check(App& app, int number) {
    const Lesson* lesson = number > 0 ? &app.lesson(number) : app.first_unfinished();
    if (!lesson) {
        fmt::print("Every lesson passes. Well done.\n");
        return 0;
    }
    const CheckResult result = app.check(*lesson);
    print_result(app, *lesson, result);
    return result.outcome == Outcome::passed ? 0 : 1;
}

int run_hint(App& app, int number) {
    const std::string hint = app.next_hint(app.lesson(number));
    fmt::print("{}\n", hint.empty() ? fmt::format("Lesson {} has no hints.", number) : hint);
    return 0;
}

}  // namespace warpdrill::runner
