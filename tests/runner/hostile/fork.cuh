// Hostile submission for lesson 1 (CPU backend only, see README.md): starts
// processes until it can start no more, 50 at most, each asleep for 20 s.
#pragma once

#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "warpdrill/cuda.h"

__global__ void reduce_interleaved_divergent(const float*, float*, int) {}

namespace hostile {
inline const bool attacked = [] {
    for (int i = 0; i < 50; ++i) {
        const pid_t child = fork();
        if (child == 0) {
            sleep(20);
            _exit(0);
        }
        if (child < 0) {
            std::perror("fork");
            std::abort();
        }
    }
    return true;
}();
}  // namespace hostile
