// Hostile submission for lesson 1 (CPU backend only, see README.md): fills
// the disk with many files, each under the file-size limit: files of 4 MiB,
// @DISK_MIB@ MiB in all, where it runs. It keeps them five seconds, then
// deletes them.
#pragma once

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "warpdrill/cuda.h"

__global__ void reduce_interleaved_divergent(const float*, float*, int) {}

namespace hostile {
inline const bool attacked = [] {
    constexpr int kFileMiB = 4;
    constexpr int kFiles = @DISK_MIB@ / kFileMiB;
    const std::vector<char> contents(std::size_t{kFileMiB} << 20, 'x');
    const auto name = [](int i) { return "hostile-disk-" + std::to_string(i); };
    for (int i = 0; i < kFiles; ++i) {
        if (std::FILE* file = std::fopen(name(i).c_str(), "w")) {
            std::fwrite(contents.data(), 1, contents.size(), file);
            std::fclose(file);
        }
    }
    std::this_thread::sleep_for(std::chrono::seconds(5));  // the disk limit's watch ends it first
    for (int i = 0; i < kFiles; ++i) std::remove(name(i).c_str());
    return true;
}();
}  // namespace hostile
