#include "process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
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

// Replaces the (child) process with argv[0]; says why when it cannot. Only
// async-signal-safe calls: grade-all forks from several threads at once,
// and a child of a threaded process must not allocate.
[[noreturn]] void exec(char* const* argv, char* const* envp) {
    execvpe(argv[0], argv, envp);
    const char* why = std::strerror(errno);
    for (const char* text : {"cannot run ", static_cast<const char*>(argv[0]), ": ", why, "\n"})
        if (write(STDERR_FILENO, text, std::strlen(text)) < 0) break;
    _exit(127);
}

int exit_code_of(int status) {
    return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

}  // namespace

ProcessResult run_process(const std::vector<std::string>& argv, std::chrono::seconds limit,
                          const std::vector<std::string>& environment) {
    std::vector<std::string> args = argv;
    std::vector<std::string> env = environment_with(environment);
    const std::vector<char*> arg_pointers = pointers_to(args);
    const std::vector<char*> env_pointers = pointers_to(env);
    // Close-on-exec: a program another thread starts meanwhile must not
    // hold this pipe open (its reader would wait for that program to end).
    int pipe_fds[2];
    if (pipe2(pipe_fds, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
    const auto start = std::chrono::steady_clock::now();
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
        exec(arg_pointers.data(), env_pointers.data());
    }
    close(pipe_fds[1]);

    ProcessResult result;
    const auto deadline = start + limit;
    char buffer[4096];
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            result.timed_out = true;
            kill(-pid, SIGKILL);
            break;
        }
        pollfd readable{pipe_fds[0], POLLIN, 0};
        if (poll(&readable, 1, static_cast<int>(std::min<long long>(left.count(), 200))) <= 0) continue;
        const ssize_t got = read(pipe_fds[0], buffer, sizeof buffer);
        if (got <= 0) break;
        result.output.append(buffer, static_cast<std::size_t>(got));
    }
    close(pipe_fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
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
