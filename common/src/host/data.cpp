#include "warpdrill/data.h"
#include "warpdrill/reference.h"

#include <algorithm>
#include <cfloat>
#include <cstdlib>
#include <random>

namespace warpdrill {

std::uint64_t fresh_seed() {
    if (const char* replay = std::getenv("WARPDRILL_SEED")) return std::strtoull(replay, nullptr, 10);
    std::random_device device;
    return (std::uint64_t{device()} << 32) ^ device();
}

std::vector<float> random_floats(std::size_t n, std::uint64_t seed, float low, float high) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<float> dist(low, high);
    std::vector<float> values(n);
    std::ranges::generate(values, [&] { return dist(rng); });
    return values;
}

std::vector<float> random_small_integers(std::size_t n, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<int> magnitude(1, 8);
    std::bernoulli_distribution negative(0.5);
    std::vector<float> values(n);
    std::ranges::generate(
        values, [&] { return static_cast<float>(negative(rng) ? -magnitude(rng) : magnitude(rng)); });
    return values;
}

std::vector<int> random_ints(std::size_t n, std::uint64_t seed, int low, int high) {
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<int> dist(low, high);
    std::vector<int> values(n);
    std::ranges::generate(values, [&] { return dist(rng); });
    return values;
}

double reference_sum(std::span<const float> values) {
    double sum = 0.0;
    for (float v : values) sum += v;
    return sum;
}

double reference_sum_abs(std::span<const float> values) {
    double sum = 0.0;
    for (float v : values) sum += std::fabs(v);
    return sum;
}

double sum_tolerance(std::size_t n, double sum_abs, std::size_t sequential_terms) {
    const double depth = std::ceil(std::log2(static_cast<double>(std::max<std::size_t>(n, 2)))) +
                         static_cast<double>(sequential_terms);
    return depth * FLT_EPSILON * sum_abs;
}

}  // namespace warpdrill
