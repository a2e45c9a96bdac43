// Runs every access pattern of tests/backend/access_patterns.cuh once on a
// GPU, for Nsight Compute to measure (scripts/ncu-table.sh): prints each
// launch's name, in launch order.
#include <cstdio>

#include "../backend/access_patterns.cuh"
#include "warpdrill/host.h"

int main() {
    warpdrill::DeviceBuffer<float> in(kPatternFloats);
    warpdrill::DeviceBuffer<float> out(kPatternFloats);
    warpdrill::check_cuda(cudaMemset(in.data(), 0, kPatternFloats * sizeof(float)));
    for (const PatternLaunch& pattern : pattern_launches()) {
        std::printf("%s\n", pattern.name.c_str());
        pattern.run(in.data(), out.data());
        warpdrill::check_launch();
    }
    return 0;
}
