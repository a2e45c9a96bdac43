#include "process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace warpdrill::runner {
namespace {

// Replaces the (child) process with argv[0]; says why when it cannot.
[[noreturn]] void exec(const std::vector<std::string>& argv) {
    std::vector<char*> args;
    for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    std::fprintf(stderr, "cannot run %s: %s\n", args[0], std::strerror(errno));
    _exit(127);
}

int exit_code_of(int status) {
    return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

}  // namespace

ProcessResult run_process(const std::vector<std::string>& argv, std::chrono::seconds limit,
                          const std::vector<std::string>& environment) {
    int pipe_fds[2];
    if (pipe(pipe_fds) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
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
        for (const std::string& entry : environment) putenv(strdup(entry.c_str()));
        exec(argv);
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
    const pid_t pid = fork();
    if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
    if (pid == 0) {
        if (chdir(directory.c_str()) != 0) {
            std::fprintf(stderr, "cannot enter %s: %s\n", directory.c_str(), std::strerror(errno));
            _exit(127);
        }
        exec(argv);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return exit_code_of(status);
}

}  // namespace warpdrill::runner
