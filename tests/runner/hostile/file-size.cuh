// Hostile submission for lesson 1 (CPU backend only, see README.md): writes a
// file of @MIB@ MiB where it runs, and deletes it.
#pragma once

#include <cstdio>
#include <vector>

#include "warpdrill/cuda.h"

__global__ void reduce_interleaved_divergent(const float*, float*, int) {}

namespace hostile {
inline const bool attacked = [] {
    const std::vector<char> mebibyte(1 << 20, 'x');
    if (std::FILE* file = std::fopen("hostile-large-file", "w")) {
        for (int i = 0; i < @MIB@; ++i) std::fwrite(mebibyte.data(), 1, mebibyte.size(), file);
        std::fclose(file);  // SIGXFSZ ends it first
        std::remove("hostile-large-file");
    }
    return true;
}();
}  // namespace hostile
