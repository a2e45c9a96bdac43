// Fresh random inputs for checks and benchmarks. Every check draws a new seed
// and prints it when it fails; WARPDRILL_SEED=<seed> replays that input.
// WARPDRILL_BASE_SEED=<base> (set by `warpdrill grade`) derives every seed of
// a run from one base instead, so that the whole run can be replayed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace warpdrill {

std::uint64_t fresh_seed();

// Uniform in [low, high).
std::vector<float> random_floats(std::size_t n, std::uint64_t seed, float low = -1.0f, float high = 1.0f);

// Whole numbers in [-8, 8] stored as floats, none of them zero: any sum of
// fewer than 2^21 of them is exact in float, so a result that differs from
// the reference by any amount has lost or repeated an element.
std::vector<float> random_small_integers(std::size_t n, std::uint64_t seed);

std::vector<int> random_ints(std::size_t n, std::uint64_t seed, int low, int high);

}  // namespace warpdrill
