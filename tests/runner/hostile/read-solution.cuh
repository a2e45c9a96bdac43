// Hostile submission for lesson 1 (CPU backend only, see README.md): reads the
// reference's solution as the check program starts, and crashes to put it in
// the report. The test fills in @SOLUTION@.
#pragma once

#include <cstdio>
#include <cstdlib>

#include "warpdrill/cuda.h"

__global__ void reduce_interleaved_divergent(const float*, float*, int) {}

namespace hostile {
inline const bool attacked = [] {
    const char* path = "@SOLUTION@";
    if (std::FILE* solution = std::fopen(path, "r")) {
        for (int c; (c = std::fgetc(solution)) != EOF;) std::putchar(c);
    } else {
        std::perror(path);
    }
    std::fflush(stdout);
    std::abort();
    return true;
}();
}  // namespace hostile
