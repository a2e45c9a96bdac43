// Runs one case of a probe in a child process of its own, so that a case
// that breaks the CUDA context, or crashes the process, leaves the others as
// they were; prints the signal that ended the child, if one did. The parent
// must not have touched CUDA (a child of a process that did cannot use it).
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>

template <typename Case>
void in_a_process(const char* what, Case run_case) {
    std::fflush(stdout);
    const pid_t child = fork();
    if (child == 0) {
        run_case();
        std::fflush(stdout);
        _exit(0);
    }
    int status = 0;
    waitpid(child, &status, 0);
    if (WIFSIGNALED(status)) std::printf("%s: the process died of signal %d\n", what, WTERMSIG(status));
}
