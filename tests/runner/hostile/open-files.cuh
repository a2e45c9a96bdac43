// Hostile submission for lesson 1 (CPU backend only, see README.md): opens
// files until it can open no more, 4096 at most.
#pragma once

#include <fcntl.h>

#include <cstdio>
#include <cstdlib>

#include "warpdrill/cuda.h"

__global__ void reduce_interleaved_divergent(const float*, float*, int) {}

namespace hostile {
inline const bool attacked = [] {
    for (int i = 0; i < 4096; ++i) {
        if (open("/dev/null", O_RDONLY) < 0) {
            std::perror("open");
            std::abort();
        }
    }
    return true;
}();
}  // namespace hostile
