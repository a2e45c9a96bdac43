#include "process.h"

#include <dirent.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace warpdrill::runner {
namespace {

// A NULL-terminated array of pointers into `strings`, for exec.
std::vector<char*> pointers_to(std::vector<std::string>& strings) {
    std::vector<char*> pointers;
    for (std::string& text : strings) pointers.push_back(text.data());
    pointers.push_back(nullptr);
    return pointers;
}

// This process's environment with `extra` ("NAME=value") set over it.
std::vector<std::string> environment_with(const std::vector<std::string>& extra) {
    std::vector<std::string> entries;
    for (char** entry = environ; *entry; ++entry) {
        const std::string text = *entry;
        const std::string name = text.substr(0, text.find('=') + 1);
        const bool overridden = std::ranges::any_of(extra, [&](const std::string& e) { return e.starts_with(name); });
        if (!overridden) entries.push_back(text);
    }
    entries.insert(entries.end(), extra.begin(), extra.end());
    return entries;
}

// Between fork and exec, the child makes only async-signal-safe calls:
// grade-all forks from several threads at once, and a child of a threaded
// process must not allocate.

// Ends the (child) process, saying what it could not do and why.
[[noreturn]] void fail_in_child(const char* what, const char* name) {
    const char* why = std::strerror(errno);
    for (const char* text : {what, name, ": ", why, "\n"})
        if (write(STDERR_FILENO, text, std::strlen(text)) < 0) break;
    _exit(127);
}

// Replaces the (child) process with argv[0].
[[noreturn]] void exec(char* const* argv, char* const* envp) {
    execvpe(argv[0], argv, envp);
    fail_in_child("cannot run ", argv[0]);
}

// Confines the (child) process before it runs its program.
void confine(const ChildLimits& limits) {
    for (const auto& [resource, limit] : limits.resource_limits)
        if (setrlimit(resource, &limit) != 0) fail_in_child("cannot set a resource limit", "");
    // Descriptors that other threads opened without O_CLOEXEC (a report being
    // written) must not reach the program.
    if (close_range(3, ~0U, CLOSE_RANGE_CLOEXEC) != 0) fail_in_child("cannot close descriptors", "");
    if (const auto& who = limits.user_and_group) {
        if (setgroups(0, nullptr) != 0 || setgid(who->second) != 0 || setuid(who->first) != 0)
            fail_in_child("cannot change user", "");
    }
}

// A program's output as it comes: once it passes kMaxOutputBytes, its first
// and last halves, so that a program that writes without end cannot fill
// this one's memory.
class Output {
  public:
    void append(const char* data, std::size_t size) {
        const std::size_t to_head = std::min(size, kHalf - std::min(kHalf, head_.size()));
        head_.append(data, to_head);
        tail_.append(data + to_head, size - to_head);
        if (tail_.size() > 2 * kHalf) {
            left_out_ += tail_.size() - kHalf;
            tail_.erase(0, tail_.size() - kHalf);
        }
    }

    std::string text() const {
        if (left_out_ == 0) return head_ + tail_;
        return head_ + "\n[... " + std::to_string(left_out_) + " bytes of output left out ...]\n" + tail_;
    }

  private:
    static constexpr std::size_t kHalf = kMaxOutputBytes / 2;
    std::string head_;
    std::string tail_;
    std::size_t left_out_ = 0;
};

// What the files under some folders take, as DiskLimit counts it, added up
// until it passes a limit. It reads folders by their descriptors (openat,
// fstatat), never by paths: a path may be too long to open, or lead through
// a link a program made.
class Tally {
  public:
    explicit Tally(std::uintmax_t limit) : limit_(limit) {}

    bool past() const { return cannot_see_ || total_ > limit_; }

    // Adds `name` of the open folder `parent` (or a path, from AT_FDCWD) and,
    // when it is a folder, what it holds; it is `depth` folders down.
    void add(int parent, const char* name, int depth) {
        struct stat info {};
        if (fstatat(parent, name, &info, AT_SYMLINK_NOFOLLOW) != 0) return note_failure();
        total_ += std::max(static_cast<std::uintmax_t>(info.st_blocks) * 512, kLeastBytes);
        if (S_ISDIR(info.st_mode)) add_contents(parent, name, depth + 1);
    }

  private:
    // The least a file or folder counts: a block, and what an inode takes of
    // a disk (ext4 makes one for each 16 KiB): many empty files fill a disk too.
    static constexpr std::uintmax_t kLeastBytes = 16 * 1024;
    static constexpr int kMaxDepth = 32;  // a grading build's deepest file is 6 folders down

    void add_contents(int parent, const char* name, int depth) {
        if (depth > kMaxDepth) {
            cannot_see_ = true;
            return;
        }
        const int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0) return note_failure();
        DIR* folder = fdopendir(fd);
        if (!folder) {
            close(fd);
            return;
        }
        for (const dirent* entry; !past() && (entry = readdir(folder));) {
            if (std::strcmp(entry->d_name, ".") != 0 && std::strcmp(entry->d_name, "..") != 0)
                add(fd, entry->d_name, depth);
        }
        closedir(folder);
    }

    // A folder it may not enter hides what it holds; anything else that
    // fails went away, or became a file or a link, since it was listed.
    void note_failure() { cannot_see_ = cannot_see_ || errno == EACCES; }

    std::uintmax_t limit_;
    std::uintmax_t total_ = 0;
    bool cannot_see_ = false;
};

using Clock = std::chrono::steady_clock;

// Milliseconds from now to `when`, rounded up, for poll: 0 once it has passed.
int milliseconds_until(Clock::time_point when) {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(when - Clock::now());
    return static_cast<int>(std::max<std::chrono::milliseconds::rep>(left.count(), 0));
}

// Looks at what the folders of a DiskLimit take, as often as DiskLimit says.
class DiskWatch {
  public:
    explicit DiskWatch(const DiskLimit& limit) : limit_(limit), next_look_(Clock::now() + kEvery) {}

    Clock::time_point next_look() const { return next_look_; }

    // Looks now: whether the folders take more than the limit.
    bool over_limit() {
        const auto begun = Clock::now();
        Tally tally(limit_.bytes);
        for (const std::filesystem::path& folder : limit_.folders)
            if (!tally.past()) tally.add(AT_FDCWD, folder.c_str(), 0);
        const auto done = Clock::now();
        next_look_ = done + std::max<Clock::duration>(kEvery, 9 * (done - begun));
        return tally.past();
    }

  private:
    static constexpr std::chrono::milliseconds kEvery{250};
    const DiskLimit& limit_;
    Clock::time_point next_look_;
};

// Reads the output of the child `pid` from `fd` until it closes, or until the
// deadline passes or the child's folders pass its disk limit (`disk_watch`,
// when it has one): then kills its process group.
void read_output(pid_t pid, int fd, Clock::time_point deadline, DiskWatch* disk_watch,
                 ProcessResult& result) {
    Output output;
    char buffer[4096];
    for (;;) {
        const auto now = Clock::now();
        if (now >= deadline)
            result.timed_out = true;
        else if (disk_watch && now >= disk_watch->next_look())
            result.over_disk_limit = disk_watch->over_limit();
        if (result.timed_out || result.over_disk_limit) {
            kill(-pid, SIGKILL);
            break;
        }
        auto wake = std::min(deadline, now + std::chrono::milliseconds(200));
        if (disk_watch) wake = std::min(wake, disk_watch->next_look());
        pollfd readable{fd, POLLIN, 0};
        if (poll(&readable, 1, milliseconds_until(wake)) <= 0) continue;
        const ssize_t got = read(fd, buffer, sizeof buffer);
        if (got <= 0) break;
        output.append(buffer, static_cast<std::size_t>(got));
    }
    result.output = output.text();
}

int exit_code_of(int status) {
    return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

}  // namespace

ProcessResult run_process(const std::vector<std::string>& argv, std::chrono::seconds limit,
                          const std::vector<std::string>& environment, const ChildLimits* child_limits) {
    std::vector<std::string> args = argv;
    std::vector<std::string> env = environment_with(environment);
    const std::vector<char*> arg_pointers = pointers_to(args);
    const std::vector<char*> env_pointers = pointers_to(env);
    // Close-on-exec: a program another thread starts meanwhile must not
    // hold this pipe open (its reader would wait for that program to end).
    int pipe_fds[2];
    if (pipe2(pipe_fds, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
    const auto start = Clock::now();
    const pid_t pid = fork();
    if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
    if (pid == 0) {
        setpgid(0, 0);  // its own process group, so a timeout kills its children too
        dup2(pipe_fds[1], STDOUT_FILENO);
        dup2(pipe_fds[1], STDERR_FILENO);
        close(pipe_fds[0]);
        close(pipe_fds[1]);
        const int null_fd = open("/dev/null", O_RDONLY);
        dup2(null_fd, STDIN_FILENO);
        if (child_limits) confine(*child_limits);
        exec(arg_pointers.data(), env_pointers.data());
    }
    close(pipe_fds[1]);

    ProcessResult result;
    std::optional<DiskWatch> disk_watch;
    if (child_limits && child_limits->disk) disk_watch.emplace(*child_limits->disk);
    read_output(pid, pipe_fds[0], start + limit, disk_watch ? &*disk_watch : nullptr, result);
    close(pipe_fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    // What it wrote after the last look counts too.
    if (disk_watch && !result.over_disk_limit) result.over_disk_limit = disk_watch->over_limit();
    if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
    result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return result;
}

int run_attached(const std::vector<std::string>& argv, const std::filesystem::path& directory) {
    std::fflush(stdout);
    std::vector<std::string> args = argv;
    const std::vector<char*> arg_pointers = pointers_to(args);
    const pid_t pid = fork();
    if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
    if (pid == 0) {
        if (chdir(directory.c_str()) != 0) {
            std::fprintf(stderr, "cannot enter %s: %s\n", directory.c_str(), std::strerror(errno));
            _exit(127);
        }
        exec(arg_pointers.data(), environ);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return exit_code_of(status);
}

}  // namespace warpdrill::runner
