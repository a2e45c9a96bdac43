// Hostile submission for lesson 1 (CPU backend only, see README.md): writes
// over a file and deletes another in another learner's checkout, in the
// reports' folder and in the grader's home folder. The test fills in the
// three folders, and puts the files there.
#pragma once

#include <cstdio>
#include <string>

#include "warpdrill/cuda.h"

__global__ void reduce_interleaved_divergent(const float*, float*, int) {}

namespace hostile {
inline const bool attacked = [] {
    for (const std::string dir : {"@OTHER_CHECKOUT@", "@REPORTS@", "@HOME@"}) {
        if (std::FILE* canary = std::fopen((dir + "/CANARY").c_str(), "w")) {
            std::fputs("overwritten by a submission\n", canary);
            std::fclose(canary);
        }
        std::remove((dir + "/CANARY-DELETE").c_str());
    }
    return true;
}();
}  // namespace hostile
