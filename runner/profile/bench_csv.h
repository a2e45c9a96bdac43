// The table bench/gpu_bench writes (--csv): one row per kernel and size.
#pragma once

#include <string>
#include <vector>

#include "course.h"

namespace warpdrill::runner {

struct BenchRow {
    std::string kernel;  // "lesson 10", "cub", "copy", or a ReduceScale variant
    long long floats = 0;
    double time_us = 0;  // as a caller sees one call, the host's submission included
    double gpu_us = 0;   // the GPU's time alone
    double gbps = 0;     // from time_us
    bool correct = false;
};

// Its rows, read by the header's column names; none where the file is
// missing or lacks a column.
std::vector<BenchRow> read_bench_csv(const fs::path& file);

}  // namespace warpdrill::runner
