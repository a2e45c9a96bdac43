// Hostile submission for lesson 1 (CPU backend only, see README.md): starts a
// process of its own session, named @NAME@, that would outlive the grading
// (for at most two minutes).
#pragma once

#include <sys/prctl.h>
#include <unistd.h>

#include "warpdrill/cuda.h"

__global__ void reduce_interleaved_divergent(const float*, float*, int) {}

namespace hostile {
inline const bool attacked = [] {
    if (fork() == 0) {
        setsid();
        if (fork() == 0) {
            prctl(PR_SET_NAME, "@NAME@");
            sleep(120);
        }
        _exit(0);
    }
    return true;
}();
}  // namespace hostile
