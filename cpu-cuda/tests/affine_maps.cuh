// The test operator that is associative but not commutative: the map
// x -> a * x + b modulo a prime, and ThenApply(f, g), "f, then g". A
// reduction or a scan that changes the items' order, or the operands'
// order, gives another map, so the checks see CUB's and CUDA's order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <vector>

#include "warpdrill/cuda.h"
#include "warpdrill/data.h"

constexpr unsigned kPrime = 65521;  // below 2^16, so that g.a * f.b + g.b fits in 32 bits
struct Affine {
    unsigned a, b;
    bool operator==(const Affine&) const = default;
};
struct ThenApply {
    __host__ __device__ Affine operator()(const Affine& f, const Affine& g) const {
        return {g.a * f.a % kPrime, (g.a * f.b + g.b) % kPrime};
    }
};
constexpr Affine kIdentity{1, 0};  // x -> x

// "3 * x + 7", as a failing check shows a map.
inline std::ostream& operator<<(std::ostream& out, const Affine& map) { return out << map.a << " * x + " << map.b; }

// `n` maps with a and b drawn from 1 to kPrime - 1, from `seed`.
inline std::vector<Affine> random_maps(std::size_t n, std::uint64_t seed) {
    const std::vector<int> numbers = warpdrill::random_ints(2 * n, seed, 1, kPrime - 1);
    std::vector<Affine> maps(n);
    for (std::size_t i = 0; i < n; ++i)
        maps[i] = {static_cast<unsigned>(numbers[2 * i]), static_cast<unsigned>(numbers[2 * i + 1])};
    return maps;
}
