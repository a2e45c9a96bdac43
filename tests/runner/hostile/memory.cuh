// Hostile submission for lesson 1 (CPU backend only, see README.md): asks for
// memory until it gets no more, 64 GiB at most (never written to, so none of
// it is used).
#pragma once

#include <cstddef>
#include <cstdio>
#include <memory>
#include <vector>

#include "warpdrill/cuda.h"

__global__ void reduce_interleaved_divergent(const float*, float*, int) {}

namespace hostile {
inline std::vector<std::unique_ptr<char[]>> blocks;
inline const bool attacked = [] {
    constexpr std::size_t kBlock = std::size_t{64} << 20;
    while (blocks.size() < 1024) blocks.emplace_back(new char[kBlock]);  // std::bad_alloc ends it
    std::puts("64 GiB and no memory limit");
    return true;
}();
}  // namespace hostile
