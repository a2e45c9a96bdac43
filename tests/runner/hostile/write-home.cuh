// Hostile submission for lesson 1 (CPU backend only, see README.md): writes
// over a file in the grader's home folder ($HOME/CANARY) and deletes another
// ($HOME/CANARY-DELETE).
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

#include "warpdrill/cuda.h"

__global__ void reduce_interleaved_divergent(const float*, float*, int) {}

namespace hostile {
inline const bool attacked = [] {
    const char* home = std::getenv("HOME");
    if (!home) return false;
    const std::string dir = home;
    if (std::FILE* canary = std::fopen((dir + "/CANARY").c_str(), "w")) {
        std::fputs("overwritten by a submission\n", canary);
        std::fclose(canary);
    }
    std::remove((dir + "/CANARY-DELETE").c_str());
    return true;
}();
}  // namespace hostile
