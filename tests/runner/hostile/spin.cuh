// Hostile submission for lesson 1 (CPU backend only, see README.md): a loop
// that does not end (for five minutes).
#pragma once

#include <chrono>

#include "warpdrill/cuda.h"

__global__ void reduce_interleaved_divergent(const float*, float*, int) {}

namespace hostile {
inline const bool attacked = [] {
    const auto start = std::chrono::steady_clock::now();
    while (std::chrono::steady_clock::now() - start < std::chrono::minutes(5)) {
    }
    return true;
}();
}  // namespace hostile
