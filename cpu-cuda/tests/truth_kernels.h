#pragma once

#include <vector>

enum class ShuffleOp : int { idx, up, down, xor_ };

struct ShuffleCase {
    ShuffleOp op;
    int width;
    int param;
};

// For each case, the 32 source lanes the shuffle read, as the backend in use computes them.
std::vector<int> run_shuffle_cases(const std::vector<ShuffleCase>& cases);
