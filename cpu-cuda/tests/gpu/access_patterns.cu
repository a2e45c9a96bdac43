// Runs every access pattern of cpu-cuda/tests/access_patterns.cuh once on a
// GPU, for Nsight Compute to measure (scripts/ncu-table.sh). With --list it
// only prints each launch's name, in launch order, one a line.
#include <cstdio>
#include <cstring>

#include "../access_patterns.cuh"
#include "warpdrill/host.h"

int main(int argc, char** argv) {
    if (argc > 1 && std::strcmp(argv[1], "--list") == 0) {
        for (const PatternLaunch& pattern : pattern_launches()) std::printf("%s\n", pattern.name.c_str());
        return 0;
    }
    warpdrill::DeviceBuffer<float> in(kPatternFloats);
    warpdrill::DeviceBuffer<float> out(kPatternFloats);
    warpdrill::check_cuda(cudaMemset(in.data(), 0, kPatternFloats * sizeof(float)));
    for (const PatternLaunch& pattern : pattern_launches()) {
        pattern.run(in.data(), out.data());
        warpdrill::check_launch();
    }
    return 0;
}
