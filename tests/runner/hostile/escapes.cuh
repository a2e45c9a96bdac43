// Hostile submission for lesson 1 (CPU backend only, see README.md): prints
// terminal escape sequences (a window title, a colour) and a line of 100,000
// characters, and crashes to put them in the report.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

#include "warpdrill/cuda.h"

__global__ void reduce_interleaved_divergent(const float*, float*, int) {}

namespace hostile {
inline const bool attacked = [] {
    std::puts("\x1b]0;title set by a submission\x07\x1b[31min red\x1b[0m");
    std::puts(std::string(100000, 'x').c_str());
    std::fflush(stdout);
    std::abort();
    return true;
}();
}  // namespace hostile
