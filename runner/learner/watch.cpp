// `warpdrill watch`: shows the current lesson's state and rechecks it every
// time one of its files is saved (inotify; polling where inotify is missing),
// with keys for a hint, the next lesson, the list and quitting.
#include <fmt/core.h>
#include <poll.h>
#include <sys/inotify.h>
#include <termios.h>
#include <unistd.h>

#include <chrono>
#include <map>
#include <thread>

#include "commands.h"
#include "warpdrill/messages.h"

namespace warpdrill::runner {
namespace {

// Single keys without Enter, restored on exit.
class RawTerminal {
  public:
    RawTerminal() : active_(isatty(STDIN_FILENO) && tcgetattr(STDIN_FILENO, &saved_) == 0) {
        if (!active_) return;
        termios raw = saved_;
        raw.c_lflag &= static_cast<tcflag_t>(~(ICANON | ECHO));
        raw.c_oflag |= OPOST | ONLCR;  // "\n" still starts a new line
        raw.c_cc[VMIN] = 0;
        raw.c_cc[VTIME] = 0;
        tcsetattr(STDIN_FILENO, TCSANOW, &raw);
    }
    ~RawTerminal() {
        if (active_) tcsetattr(STDIN_FILENO, TCSANOW, &saved_);
    }

  private:
    bool active_;
    termios saved_{};
};

// Reports when a file in the lesson's directory changes.
class FileWatcher {
  public:
    explicit FileWatcher(const Lesson& lesson)
        : lesson_(lesson), fd_(inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) {
        // Editors save in place or write a new file and rename it: watch the directory.
        if (fd_ >= 0 &&
            inotify_add_watch(fd_, lesson.dir.c_str(), IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE) < 0) {
            close(fd_);
            fd_ = -1;
        }
        snapshot_ = modification_times();
    }
    ~FileWatcher() {
        if (fd_ >= 0) close(fd_);
    }
    int fd() const { return fd_; }
    bool polling() const { return fd_ < 0; }

    // True when something changed since the last call.
    bool changed() {
        if (fd_ >= 0) {
            char buffer[4096];
            bool any = false;
            while (read(fd_, buffer, sizeof buffer) > 0) any = true;
            return any;
        }
        auto now = modification_times();
        const bool any = now != snapshot_;
        snapshot_ = std::move(now);
        return any;
    }

  private:
    std::map<fs::path, fs::file_time_type> modification_times() const {
        std::map<fs::path, fs::file_time_type> times;
        std::error_code ignored;
        for (const fs::path& file : lesson_.edit_files) times[file] = fs::last_write_time(file, ignored);
        return times;
    }

    const Lesson& lesson_;
    int fd_;
    std::map<fs::path, fs::file_time_type> snapshot_;
};

void draw(const App& app, const Lesson& lesson, const CheckResult& result, const std::string& extra,
          bool polling) {
    fmt::print("\x1b[2J\x1b[H");  // clear the screen
    fmt::print("{}\n", messages::text("watch.title", {{"lesson", lesson.number},
                                                     {"count", app.course.lessons.size()},
                                                     {"title", lesson.title},
                                                     {"backend", app.backend_label()}}));
    fmt::print("{}\n\n", progress_bar(app.passed_count(), static_cast<int>(app.course.lessons.size()), 30));
    fmt::print("{}\n\n", edit_line(app, lesson));
    if (result.outcome == Outcome::passed && !result.skipped.empty()) {
        fmt::print("{}\n{}\n", result.skipped, messages::text("watch.next_key"));
    } else if (result.outcome == Outcome::passed) {
        fmt::print("{}\n", messages::text("watch.passed", {{"lesson", lesson.number}}));
        if (!result.notes.empty()) fmt::print("\n{}", result.notes);
    } else {
        fmt::print("{}:\n{}\n", outcome_text(result.outcome), result.message);
    }
    if (!extra.empty()) fmt::print("\n{}\n", extra);
    fmt::print("\n{}{}\n", polling ? messages::text("watch.polling") + "  " : "", messages::text("watch.keys"));
    std::fflush(stdout);
}

std::string list_text(const App& app) {
    std::string text;
    for (const Lesson& lesson : app.course.lessons) {
        text += fmt::format("{:>2} {:<44} {}\n", lesson.number, lesson.title, app.status(lesson));
    }
    return text;
}

const Lesson* next_lesson(const App& app, const Lesson& current) {
    for (const Lesson& lesson : app.course.lessons) {
        if (lesson.number > current.number) return &lesson;
    }
    return nullptr;
}

// Without a terminal there are no keys to read and no screen to redraw:
// the lesson is checked and shown once.
int show_once(App& app, const Lesson& lesson) {
    fmt::print("{}\n", messages::text("check.building", {{"lesson", lesson.number}}));
    std::fflush(stdout);
    print_result(app, lesson, app.check(lesson));
    fmt::print("\n{}\n", messages::text("watch.no_terminal", {{"lesson", lesson.number}}));
    return 0;
}

}  // namespace

int run_watch(App& app, const Lesson* start) {
    if (!start) {
        fmt::print("{}\n", messages::text("watch.all_done"));
        return 0;
    }
    if (!isatty(STDIN_FILENO)) return show_once(app, *start);
    RawTerminal terminal;
    const Lesson* lesson = start;
    while (lesson) {
        FileWatcher watcher(*lesson);
        fmt::print("\x1b[2J\x1b[H{}\n", messages::text("check.building", {{"lesson", lesson->number}}));
        std::fflush(stdout);
        CheckResult result = app.check(*lesson);
        std::string extra;
        draw(app, *lesson, result, extra, watcher.polling());
        const Lesson* switch_to = nullptr;
        for (bool quit = false; !quit && !switch_to;) {
            pollfd fds[2] = {{STDIN_FILENO, POLLIN, 0}, {watcher.fd(), POLLIN, 0}};
            poll(fds, watcher.polling() ? 1 : 2, watcher.polling() ? 1000 : -1);
            bool recheck = watcher.changed();
            char key = 0;
            if (fds[0].revents & (POLLIN | POLLHUP)) {
                if (read(STDIN_FILENO, &key, 1) <= 0) return 0;  // input closed
            }
            switch (key) {
                case 'q': return 0;
                case 'r': recheck = true; break;
                case 'l': extra = list_text(app); break;
                case 'h': extra = app.next_hint(*lesson); break;
                case 'n':
                    if (result.outcome == Outcome::passed) {
                        switch_to = next_lesson(app, *lesson);
                        if (!switch_to) {
                            fmt::print("\n{}\n", messages::text("watch.last_lesson"));
                            return 0;
                        }
                    } else {
                        extra = messages::text("watch.not_passing", {{"lesson", lesson->number}});
                    }
                    break;
                default: break;
            }
            if (recheck) {
                // Let the editor finish writing before building.
                std::this_thread::sleep_for(std::chrono::milliseconds(150));
                watcher.changed();
                fmt::print("\n{}\n", messages::text("watch.rebuilding"));
                std::fflush(stdout);
                result = app.check(*lesson);
                extra.clear();
            }
            if (key || recheck) draw(app, *lesson, result, extra, watcher.polling());
        }
        lesson = switch_to;
    }
    return 0;
}

}  // namespace warpdrill::runner
