// Cooperative groups as reduction code uses them: thread_group, coalesced
// groups, tiles of several warps, tiles sized at run time, and cg::reduce and
// the scans over any trivially copyable type. Each kernel writes what every
// thread saw; the host checks it against a reference of its own. Where the
// order of combining matters (float sums, a functor that is not commutative),
// the references follow CUDA's trees (cooperative_groups_collectives.h says
// which), so that the backend gives what an H100 gives. The kernels use only
// CUDA's API: this file compiles with nvcc as well.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <numeric>
#include <span>
#include <string>
#include <vector>

#include "warpdrill/catch.h"
#include "warpdrill/cuda.h"
#include "warpdrill/host.h"
#if defined(WARPDRILL_BACKEND_CPU)
#include "fault_of.h"
#endif

namespace cg = cooperative_groups;
using warpdrill::check_launch;
using warpdrill::DeviceBuffer;
using warpdrill::launch;

namespace {

constexpr unsigned kWarp = 32;

// A map x -> a * x + b; composing two is associative but not commutative,
// and exact in doubles for small integers: a result shows the order of its operands.
struct Affine {
    double a, b;
};
struct Compose {
    __host__ __device__ Affine operator()(Affine f, Affine g) const { return {f.a * g.a, f.a * g.b + f.b}; }
};
bool operator==(const Affine& x, const Affine& y) { return x.a == y.a && x.b == y.b; }

// ---- host references: CUDA's trees (cooperative_groups_collectives.h) ---------------------
// A butterfly over a power-of-two count of values: value i of the result is lane i's.
template <class T, class Op>
std::vector<T> butterfly(std::vector<T> values, Op op) {
    for (std::size_t lane_mask = values.size() / 2; lane_mask > 0; lane_mask /= 2) {
        std::vector<T> next = values;
        for (std::size_t i = 0; i < values.size(); ++i) next[i] = op(values[i], values[i ^ lane_mask]);
        values = next;
    }
    return values;
}
// Hillis and Steele: an inclusive scan, op(later, earlier) at each step.
template <class T, class Op>
std::vector<T> hillis_steele(std::vector<T> values, Op op) {
    for (std::size_t distance = 1; distance < values.size(); distance *= 2) {
        std::vector<T> next = values;
        for (std::size_t i = distance; i < values.size(); ++i) next[i] = op(values[i], values[i - distance]);
        values = next;
    }
    return values;
}
// A tile of several warps: each warp's butterfly, then a butterfly over the warps' results.
template <class T, class Op>
std::vector<T> multi_warp_reduce(const std::vector<T>& values, Op op) {
    std::vector<T> of_warps;
    for (std::size_t first = 0; first < values.size(); first += kWarp) {
        of_warps.push_back(butterfly(std::vector<T>(values.begin() + first, values.begin() + first + kWarp), op)[0]);
    }
    const std::vector<T> combined = butterfly(of_warps, op);
    std::vector<T> result;
    for (std::size_t i = 0; i < values.size(); ++i) result.push_back(combined[i / kWarp]);
    return result;
}
// A tile of several warps: each warp's scan, then an exclusive scan over the
// warps' totals, combined as op(in_warp, before).
template <class T, class Op>
std::vector<T> multi_warp_inclusive_scan(const std::vector<T>& values, Op op) {
    std::vector<T> in_warps, totals;
    for (std::size_t first = 0; first < values.size(); first += kWarp) {
        const std::vector<T> scanned =
            hillis_steele(std::vector<T>(values.begin() + first, values.begin() + first + kWarp), op);
        in_warps.insert(in_warps.end(), scanned.begin(), scanned.end());
        totals.push_back(scanned.back());
    }
    const std::vector<T> totals_scanned = hillis_steele(totals, op);
    std::vector<T> result = in_warps;
    for (std::size_t i = kWarp; i < values.size(); ++i) result[i] = op(in_warps[i], totals_scanned[i / kWarp - 1]);
    return result;
}

std::vector<int> small_ints(std::size_t count, int seed) {
    std::vector<int> values(count);
    for (std::size_t i = 0; i < count; ++i) values[i] = static_cast<int>((i * 7919 + seed) % 201) - 100;
    return values;
}
// Floats whose sums round differently in different orders.
std::vector<float> spread_floats(std::size_t count) {
    std::vector<float> values(count);
    for (std::size_t i = 0; i < count; ++i) values[i] = std::ldexp(1.0f + static_cast<float>(i % 7) / 7.0f, static_cast<int>(i * 5 % 29) - 14);
    return values;
}

// ---- thread_group -----------------------------------------------------------------------
// Per thread, for the block, a tile of 32, a tile of 8 with a parent and a
// tile of 16 made at run time, each as a thread_group: its size and the
// thread's rank. Each group's sync() must order the writes before it and the
// reads after it: each thread reads what the next rank of the group wrote.
constexpr int kGroupFields = 9;
__device__ void note_group(const cg::thread_group& group, unsigned* mine, int* shared_slot, int* seen) {
    const unsigned size = static_cast<unsigned>(group.size()), rank = static_cast<unsigned>(group.thread_rank());
    mine[0] = size;
    mine[1] = rank;
    *shared_slot = static_cast<int>(rank) + 1;
    group.sync();
    *seen += shared_slot[static_cast<int>((rank + 1) % size) - static_cast<int>(rank)];
}

__global__ void groups_as_thread_group(unsigned* out, int* seen) {
    __shared__ int slots[4][128];
    const cg::thread_block block = cg::this_thread_block();
    const unsigned t = block.thread_rank();
    unsigned* mine = out + t * kGroupFields;
    int total = 0;
    note_group(block, mine, &slots[0][t], &total);
    const cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    note_group(warp, mine + 2, &slots[1][t], &total);
    note_group(cg::tiled_partition<8>(block), mine + 4, &slots[2][t], &total);
    note_group(cg::tiled_partition(block, 16), mine + 6, &slots[3][t], &total);
    cg::sync(block);
    mine[8] = static_cast<unsigned>(cg::thread_rank(warp) + 100 * cg::group_size(warp));
    seen[t] = total;
}

// ---- coalesced groups ------------------------------------------------------------------------
// The lanes whose value is odd take a branch; inside it, per thread: the
// group's size, its rank, meta_group_rank/size, the value of rank 0, of the
// rank above and below, the ballot of values above 0, any and all, and rank
// and tile in tiles of 4 of the group.
constexpr int kCoalescedFields = 12;
__global__ void coalesced_facts(const int* in, int* out) {
    const unsigned t = threadIdx.x;
    const int value = in[t];
    int* mine = out + t * kCoalescedFields;
    if (value % 2 != 0) {
        const cg::coalesced_group odd = cg::coalesced_threads();
        mine[0] = static_cast<int>(odd.num_threads());
        mine[1] = static_cast<int>(odd.thread_rank());
        mine[2] = static_cast<int>(odd.meta_group_rank() * 10 + odd.meta_group_size());
        mine[3] = odd.shfl(value, 0);
        mine[4] = odd.shfl_down(value, 1);
        mine[5] = odd.shfl_up(value, 1);
        mine[6] = static_cast<int>(odd.ballot(value > 0));
        mine[7] = odd.any(value > 90) * 10 + odd.all(value > -1000);
        const cg::coalesced_group quad = cg::tiled_partition(odd, 4);
        mine[8] = static_cast<int>(quad.thread_rank());
        mine[9] = static_cast<int>(quad.meta_group_rank() * 100 + quad.meta_group_size() * 10 + quad.size());
        mine[10] = cg::reduce(odd, value, cg::plus<int>());
        odd.sync();
    } else {
        mine[11] = static_cast<int>(cg::coalesced_threads().size());
    }
}

// Warp-aggregated atomics: one atomicAdd per group of lanes that take the
// branch, each lane then gets a slot of its own.
__global__ void aggregated_slots(const int* in, int* counter, int* slot_of) {
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    if (in[t] % 3 == 0) {
        const cg::coalesced_group group = cg::coalesced_threads();
        int first = 0;
        if (group.thread_rank() == 0) first = atomicAdd(counter, static_cast<int>(group.size()));
        slot_of[t] = group.shfl(first, 0) + static_cast<int>(group.thread_rank());
    } else {
        slot_of[t] = -1;
    }
}

// ---- tiles of several warps ---------------------------------------------------------------
// Per thread: rank, size, meta_group_rank/size, the value of rank 5 of the
// tile, any and all, the int sum, the inclusive and exclusive scans, and
// the value the tile's next warp wrote to shared memory before a sync(),
// the maximum, and the ranks in the tile's halves (tiles of a tile), through
// thread_block_tile<Size> without its parent's type.
constexpr int kBigTileFields = 11;
template <unsigned kSize>
__global__ void big_tile_facts(const int* in, int* out) {
    __shared__ cg::block_tile_memory<1024> scratch;
    __shared__ int written[1024];
    const cg::thread_block block = cg::this_thread_block(scratch);
    const cg::thread_block_tile<kSize> tile = cg::tiled_partition<kSize>(block);
    const unsigned t = block.thread_rank();
    const int value = in[t];
    int* mine = out + t * kBigTileFields;
    mine[0] = static_cast<int>(tile.thread_rank());
    mine[1] = static_cast<int>(tile.num_threads());
    mine[2] = static_cast<int>(tile.meta_group_rank() * 100 + tile.meta_group_size());
    mine[3] = tile.shfl(value, 5);
    mine[4] = tile.any(value == 77) * 10 + tile.all(value > -1000);
    mine[5] = cg::reduce(tile, value, cg::plus<int>());
    mine[6] = cg::inclusive_scan(tile, value);
    mine[7] = cg::exclusive_scan(tile, value);
    written[t] = value;
    tile.sync();
    const unsigned first = t - tile.thread_rank();
    mine[8] = written[first + (tile.thread_rank() + kWarp) % kSize];
    mine[9] = cg::reduce(tile, value, cg::greater<int>());
    const cg::thread_block_tile<kSize / 2> half = cg::tiled_partition<kSize / 2>(tile);
    const cg::thread_block_tile<kSize / 2> plain = half;
    mine[10] = static_cast<int>(plain.meta_group_rank() * 10000 + plain.meta_group_size() * 1000 + plain.thread_rank());
}

template <unsigned kSize>
void check_big_tile(unsigned block_threads) {
    const std::vector<int> in = small_ints(block_threads, 3);
    DeviceBuffer<int> d_in{std::span<const int>(in)};
    DeviceBuffer<int> out(block_threads * kBigTileFields);
    launch(big_tile_facts<kSize>, {1, block_threads}, d_in.data(), out.data());
    check_launch();
    const std::vector<int> got = out.download();
    for (unsigned t = 0; t < block_threads; ++t) {
        INFO("tile of " << kSize << ", thread " << t);
        const unsigned first = t / kSize * kSize, rank = t % kSize;
        const auto begin = in.begin() + first;
        const int* mine = &got[t * kBigTileFields];
        CHECK(mine[0] == static_cast<int>(rank));
        CHECK(mine[1] == static_cast<int>(kSize));
        CHECK(mine[2] == static_cast<int>(t / kSize * 100 + block_threads / kSize));
        CHECK(mine[3] == in[first + 5]);
        const bool any77 = std::find(begin, begin + kSize, 77) != begin + kSize;
        CHECK(mine[4] == (any77 ? 10 : 0) + 1);
        CHECK(mine[5] == std::accumulate(begin, begin + kSize, 0));
        CHECK(mine[6] == std::accumulate(begin, begin + rank + 1, 0));
        CHECK(mine[7] == std::accumulate(begin, begin + rank, 0));
        CHECK(mine[8] == in[first + (rank + kWarp) % kSize]);
        CHECK(mine[9] == *std::max_element(begin, begin + kSize));
        CHECK(mine[10] == static_cast<int>(rank / (kSize / 2) * 10000 + 2 * 1000 + rank % (kSize / 2)));
    }
}

// ---- tiles sized at run time --------------------------------------------------------------
// Per thread: rank, size and meta_group_rank/size of tiled_partition(block, n),
// and of tiled_partition(that tile as a thread_group, n / 2).
constexpr int kRuntimeFields = 4;
__global__ void runtime_tiles(unsigned tile_size, unsigned* out) {
    const cg::thread_block block = cg::this_thread_block();
    const cg::thread_group tile = cg::tiled_partition(block, tile_size);
    unsigned* mine = out + block.thread_rank() * kRuntimeFields;
    mine[0] = static_cast<unsigned>(tile.thread_rank());
    mine[1] = static_cast<unsigned>(tile.size());
    tile.sync();
    const cg::thread_group half = cg::tiled_partition(tile, tile_size > 1 ? tile_size / 2 : 1);
    mine[2] = static_cast<unsigned>(half.thread_rank());
    mine[3] = static_cast<unsigned>(half.size());  // CUDA 13.0 declares thread_group::num_threads() but never defines it
}

// ---- reduce and scans: CUDA's order, any trivially copyable type --------------------------------
// Per thread: the float sum and inclusive scan, and the Affine reduce,
// inclusive and exclusive scan over a tile of kSize (of at most a warp).
template <unsigned kSize>
__global__ void ordered_tile(const float* floats, const Affine* maps, float* float_out, Affine* map_out) {
    const cg::thread_block_tile<kSize> tile = cg::tiled_partition<kSize>(cg::this_thread_block());
    const unsigned t = threadIdx.x;
    float_out[2 * t] = cg::reduce(tile, floats[t], cg::plus<float>());
    float_out[2 * t + 1] = cg::inclusive_scan(tile, floats[t], cg::plus<float>());
    map_out[3 * t] = cg::reduce(tile, maps[t], Compose());
    map_out[3 * t + 1] = cg::inclusive_scan(tile, maps[t], Compose());
    map_out[3 * t + 2] = cg::exclusive_scan(tile, maps[t], Compose());
}

// The same over the lanes of a warp below `lanes` (a coalesced group that is
// not a full warp), and over a tile of 256 (floats only: CUDA's tiles of
// several warps take values of at most 8 bytes).
__global__ void ordered_groups(unsigned lanes, const float* floats, const Affine* maps, float* float_out,
                               Affine* map_out) {
    const unsigned t = threadIdx.x;
    if (t % kWarp < lanes) {
        const cg::coalesced_group group = cg::coalesced_threads();
        float_out[3 * t] = cg::reduce(group, floats[t], cg::plus<float>());
        map_out[3 * t] = cg::reduce(group, maps[t], Compose());
        map_out[3 * t + 1] = cg::inclusive_scan(group, maps[t], Compose());
        map_out[3 * t + 2] = cg::exclusive_scan(group, maps[t], Compose());
    }
    const cg::thread_block_tile<256> tile = cg::tiled_partition<256>(cg::this_thread_block());
    float_out[3 * t + 1] = cg::reduce(tile, floats[t], cg::plus<float>());
    float_out[3 * t + 2] = cg::inclusive_scan(tile, floats[t], cg::plus<float>());
}

// A histogram of labels 0-3 with one atomic per label per warp: the lanes of
// a label meet in labeled_partition, and its rank 0 adds their count; the
// odd labels' lanes also split by binary_partition and record its size.
__global__ void histogram_by_label(const int* labels, int* counts, int* halves) {
    const int label = labels[blockIdx.x * blockDim.x + threadIdx.x];
    const cg::coalesced_group same = cg::labeled_partition(cg::coalesced_threads(), label);
    if (same.thread_rank() == 0) atomicAdd(&counts[label], static_cast<int>(same.size()));
    const cg::coalesced_group half = cg::binary_partition(cg::coalesced_threads(), threadIdx.x % 2 == 1);
    halves[blockIdx.x * blockDim.x + threadIdx.x] = static_cast<int>(half.size());
}

// The same from a tile of 32 and of 8, with labels that differ only in their
// high 32 bits (a 64-bit label is compared whole) and with pointers.
__global__ void partition_tiles(int* wide_sizes, int* tile8_odd_sizes, int* pointer_sizes) {
    const cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
    const long long wide_label = static_cast<long long>(threadIdx.x % 3) << 40;
    wide_sizes[threadIdx.x] = static_cast<int>(cg::labeled_partition(warp, wide_label).size());
    const cg::thread_block_tile<8> tile8 = cg::tiled_partition<8>(cg::this_thread_block());
    tile8_odd_sizes[threadIdx.x] = static_cast<int>(cg::binary_partition(tile8, threadIdx.x % 2 == 1).size());
    const int* label = threadIdx.x < 5 ? wide_sizes : tile8_odd_sizes;
    pointer_sizes[threadIdx.x] = static_cast<int>(cg::labeled_partition(warp, label).size());
}

std::vector<Affine> some_maps(std::size_t count) {
    std::vector<Affine> maps(count);
    for (std::size_t i = 0; i < count; ++i) maps[i] = {i % 3 == 0 ? -1.0 : 1.0, static_cast<double>(i % 5)};
    return maps;
}

template <unsigned kSize>
void check_ordered_tile() {
    constexpr unsigned kThreads = 64;
    const std::vector<float> floats = spread_floats(kThreads);
    const std::vector<Affine> maps = some_maps(kThreads);
    DeviceBuffer<float> d_floats{std::span<const float>(floats)}, float_out(2 * kThreads);
    DeviceBuffer<Affine> d_maps{std::span<const Affine>(maps)}, map_out(3 * kThreads);
    warpdrill::poison(float_out, map_out);  // only the groups' lanes write
    launch(ordered_tile<kSize>, {1, kThreads}, d_floats.data(), d_maps.data(), float_out.data(), map_out.data());
    check_launch();
    const std::vector<float> got_floats = float_out.download();
    const std::vector<Affine> got_maps = map_out.download();
    for (unsigned first = 0; first < kThreads; first += kSize) {
        const std::vector<float> tile_floats(floats.begin() + first, floats.begin() + first + kSize);
        const std::vector<Affine> tile_maps(maps.begin() + first, maps.begin() + first + kSize);
        const std::vector<float> sums = butterfly(tile_floats, std::plus<float>());
        const std::vector<float> float_scan = hillis_steele(tile_floats, std::plus<float>());
        const std::vector<Affine> composed = butterfly(tile_maps, Compose());
        const std::vector<Affine> map_scan = hillis_steele(tile_maps, Compose());
        for (unsigned rank = 0; rank < kSize; ++rank) {
            INFO("tile of " << kSize << ", thread " << first + rank);
            const unsigned t = first + rank;
            CHECK(got_floats[2 * t] == sums[rank]);
            CHECK(got_floats[2 * t + 1] == float_scan[rank]);
            CHECK(got_maps[3 * t] == composed[rank]);
            CHECK(got_maps[3 * t + 1] == map_scan[rank]);
            CHECK(got_maps[3 * t + 2] == (rank == 0 ? Affine{} : map_scan[rank - 1]));
        }
    }
}

// ---- every documented operator ------------------------------------------------------------
constexpr int kOperatorFields = 9;
template <unsigned kSize>
__global__ void every_operator(const int* in, int* out) {
    const cg::thread_block_tile<kSize> tile = cg::tiled_partition<kSize>(cg::this_thread_block());
    const unsigned t = threadIdx.x;
    const int value = in[t];
    int* mine = out + t * kOperatorFields;
    mine[0] = cg::reduce(tile, value, cg::plus<int>());
    mine[1] = cg::reduce(tile, value, cg::less<int>());
    mine[2] = cg::reduce(tile, value, cg::greater<int>());
    mine[3] = cg::reduce(tile, value, cg::bit_and<int>());
    mine[4] = cg::reduce(tile, value, cg::bit_or<int>());
    mine[5] = cg::reduce(tile, value, cg::bit_xor<int>());
    mine[6] = cg::inclusive_scan(tile, value, cg::greater<int>());
    mine[7] = cg::exclusive_scan(tile, value, cg::bit_or<int>());
    mine[8] = cg::exclusive_scan(tile, value, cg::less<int>());
}

template <unsigned kSize>
void check_every_operator() {
    constexpr unsigned kThreads = 256;
    const std::vector<int> in = small_ints(kThreads, 11);
    DeviceBuffer<int> d_in{std::span<const int>(in)}, out(kThreads * kOperatorFields);
    launch(every_operator<kSize>, {1, kThreads}, d_in.data(), out.data());
    check_launch();
    const std::vector<int> got = out.download();
    for (unsigned t = 0; t < kThreads; ++t) {
        INFO("tile of " << kSize << ", thread " << t);
        const auto begin = in.begin() + t / kSize * kSize;
        const auto end = begin + kSize, mine_at = in.begin() + t;
        const auto fold = [](auto from, auto to, int init, auto op) { return std::accumulate(from, to, init, op); };
        const int* mine = &got[t * kOperatorFields];
        CHECK(mine[0] == fold(begin, end, 0, std::plus<int>()));
        CHECK(mine[1] == *std::min_element(begin, end));
        CHECK(mine[2] == *std::max_element(begin, end));
        CHECK(mine[3] == fold(begin, end, -1, std::bit_and<int>()));
        CHECK(mine[4] == fold(begin, end, 0, std::bit_or<int>()));
        CHECK(mine[5] == fold(begin, end, 0, std::bit_xor<int>()));
        CHECK(mine[6] == *std::max_element(begin, mine_at + 1));
        CHECK(mine[7] == fold(begin, mine_at, 0, std::bit_or<int>()));
        // The first rank gets int{}; the others the minimum of the ranks before.
        CHECK(mine[8] == (mine_at == begin ? 0 : *std::min_element(begin, mine_at)));
    }
}

}  // namespace

TEST_CASE("thread_group: a block, tiles and a run-time tile convert to it and keep their size, rank and sync",
          "[cooperative]") {
    constexpr unsigned kThreads = 128;
    DeviceBuffer<unsigned> out(kThreads * kGroupFields);
    DeviceBuffer<int> seen(kThreads);
    launch(groups_as_thread_group, {1, kThreads}, out.data(), seen.data());
    check_launch();
    const std::vector<unsigned> got = out.download();
    const std::vector<int> got_seen = seen.download();
    for (unsigned t = 0; t < kThreads; ++t) {
        INFO("thread " << t);
        const unsigned* mine = &got[t * kGroupFields];
        CHECK((mine[0] == kThreads && mine[1] == t));
        CHECK((mine[2] == 32 && mine[3] == t % 32));
        CHECK((mine[4] == 8 && mine[5] == t % 8));
        CHECK((mine[6] == 16 && mine[7] == t % 16));
        CHECK(mine[8] == t % 32 + 100 * 32);
        const auto next = [t](unsigned size) { return static_cast<int>((t % size + 1) % size + 1); };
        CHECK(got_seen[t] == next(kThreads) + next(32) + next(8) + next(16));
    }
}

TEST_CASE("coalesced_threads(): the lanes that take a branch together, their ranks and collectives",
          "[cooperative]") {
    constexpr unsigned kThreads = 80;  // a partial last warp
    std::vector<int> in = small_ints(kThreads, 5);
    in[3] = 91;
    DeviceBuffer<int> d_in{std::span<const int>(in)};
    DeviceBuffer<int> out(std::vector<int>(kThreads * kCoalescedFields, 0));
    launch(coalesced_facts, {1, kThreads}, d_in.data(), out.data());
    check_launch();
    const std::vector<int> got = out.download();
    for (unsigned warp_first = 0; warp_first < kThreads; warp_first += kWarp) {
        std::vector<unsigned> odd, even;  // the block ranks of the group's members, by rank
        for (unsigned t = warp_first; t < std::min(warp_first + kWarp, kThreads); ++t) (in[t] % 2 ? odd : even).push_back(t);
        const int size = static_cast<int>(odd.size());
        unsigned positive = 0;
        int sum = 0;
        bool any91 = false;
        for (int r = 0; r < size; ++r) {
            positive |= (in[odd[r]] > 0 ? 1u : 0u) << r;
            sum += in[odd[r]];
            any91 |= in[odd[r]] > 90;
        }
        for (int r = 0; r < size; ++r) {
            INFO("warp from thread " << warp_first << ", rank " << r << " of the odd values");
            const int* mine = &got[odd[r] * kCoalescedFields];
            CHECK(mine[0] == size);
            CHECK(mine[1] == r);
            CHECK(mine[2] == 1);
            CHECK(mine[3] == in[odd[0]]);
            CHECK(mine[4] == in[odd[r + 1 < size ? r + 1 : r]]);
            CHECK(mine[5] == in[odd[r > 0 ? r - 1 : r]]);
            CHECK(static_cast<unsigned>(mine[6]) == positive);
            CHECK(mine[7] == (any91 ? 10 : 0) + 1);
            CHECK(mine[8] == r % 4);
            CHECK(mine[9] == r / 4 * 100 + (size + 3) / 4 * 10 + std::min(4, size - r / 4 * 4));
            CHECK(mine[10] == sum);
        }
        for (const unsigned t : even) CHECK(got[t * kCoalescedFields + 11] == static_cast<int>(even.size()));
    }
}

TEST_CASE("coalesced_threads(): warp-aggregated atomics hand out every slot once", "[cooperative]") {
    constexpr unsigned kThreads = 4 * 96;
    const std::vector<int> in = small_ints(kThreads, 2);
    DeviceBuffer<int> d_in{std::span<const int>(in)}, counter(std::vector<int>{0}), slots(kThreads);
    launch(aggregated_slots, {4, 96}, d_in.data(), counter.data(), slots.data());
    check_launch();
    const int taken = static_cast<int>(std::count_if(in.begin(), in.end(), [](int v) { return v % 3 == 0; }));
    CHECK(counter.download()[0] == taken);
    std::vector<int> got = slots.download();
    std::erase(got, -1);
    std::sort(got.begin(), got.end());
    std::vector<int> every(static_cast<std::size_t>(taken));
    std::iota(every.begin(), every.end(), 0);
    CHECK(got == every);
}

TEST_CASE("labeled_partition and binary_partition: the threads of one label or predicate", "[cooperative]") {
    constexpr unsigned kThreads = 2 * 80;  // each block's last warp is partial
    std::vector<int> labels(kThreads);
    for (unsigned i = 0; i < kThreads; ++i) labels[i] = static_cast<int>((i * 7 + i / 5) % 4);
    DeviceBuffer<int> d_labels{std::span<const int>(labels)}, counts(std::vector<int>(4, 0)), halves(kThreads);
    launch(histogram_by_label, {2, 80}, d_labels.data(), counts.data(), halves.data());
    check_launch();
    std::vector<int> want(4, 0);
    for (const int label : labels) ++want[static_cast<std::size_t>(label)];
    CHECK(counts.download() == want);
    const std::vector<int> got = halves.download();
    for (unsigned i = 0; i < kThreads; ++i) CHECK(got[i] == (i % 80 < 64 ? 16 : 8));
}

TEST_CASE("labeled_partition and binary_partition of a tile, with 64-bit and pointer labels", "[cooperative]") {
    DeviceBuffer<int> wide(32), tile8_odd(32), pointers(32);
    launch(partition_tiles, {1, 32}, wide.data(), tile8_odd.data(), pointers.data());
    check_launch();
    const std::vector<int> wide_sizes = wide.download(), odd_sizes = tile8_odd.download(),
                           pointer_sizes = pointers.download();
    for (unsigned lane = 0; lane < 32; ++lane) {
        INFO("lane " << lane);
        CHECK(wide_sizes[lane] == (lane % 3 == 2 ? 10 : 11));  // 11 lanes of labels 0 and 1, 10 of 2
        CHECK(odd_sizes[lane] == 4);                           // 4 odd and 4 even lanes a tile of 8
        CHECK(pointer_sizes[lane] == (lane < 5 ? 5 : 27));
    }
}

TEST_CASE("tiles of 64 to 1024 threads: ranks, shfl, any, all, sync, reduce and scans", "[cooperative]") {
    check_big_tile<64>(128);
    check_big_tile<128>(256);
    check_big_tile<256>(512);
    check_big_tile<512>(1024);
    check_big_tile<1024>(1024);
}

TEST_CASE("tiled_partition(group, n): tiles sized at run time, a partial last tile, tiles of tiles",
          "[cooperative]") {
    constexpr unsigned kThreads = 48;
    for (const unsigned tile_size : {1u, 2u, 4u, 8u, 16u, 32u}) {
        INFO("tiles of " << tile_size);
        DeviceBuffer<unsigned> out(kThreads * kRuntimeFields);
        launch(runtime_tiles, {1, kThreads}, tile_size, out.data());
        check_launch();
        const std::vector<unsigned> got = out.download();
        const unsigned half = tile_size > 1 ? tile_size / 2 : 1;
        for (unsigned t = 0; t < kThreads; ++t) {
            INFO("thread " << t);
            const unsigned first = t / tile_size * tile_size;
            const unsigned size = std::min(tile_size, kThreads - first);
            const unsigned rank = t - first;
            CHECK(got[t * kRuntimeFields] == rank);
            CHECK(got[t * kRuntimeFields + 1] == size);
            CHECK(got[t * kRuntimeFields + 2] == rank % half);
            CHECK(got[t * kRuntimeFields + 3] == std::min(half, size - rank / half * half));
        }
    }
}

TEST_CASE("cg::reduce and the scans combine in CUDA's order: float sums, a functor that is not commutative",
          "[cooperative]") {
    check_ordered_tile<4>();
    check_ordered_tile<8>();
    check_ordered_tile<32>();

    constexpr unsigned kThreads = 512, kLanes = 21;
    const std::vector<float> floats = spread_floats(kThreads);
    const std::vector<Affine> maps = some_maps(kThreads);
    DeviceBuffer<float> d_floats{std::span<const float>(floats)}, float_out(3 * kThreads);
    DeviceBuffer<Affine> d_maps{std::span<const Affine>(maps)}, map_out(3 * kThreads);
    warpdrill::poison(float_out, map_out);  // only the groups' lanes write
    launch(ordered_groups, {1, kThreads}, kLanes, d_floats.data(), d_maps.data(), float_out.data(), map_out.data());
    check_launch();
    const std::vector<float> got_floats = float_out.download();
    const std::vector<Affine> got_maps = map_out.download();
    for (unsigned first = 0; first < kThreads; first += kWarp) {
        const std::vector<float> group_floats(floats.begin() + first, floats.begin() + first + kLanes);
        const std::vector<Affine> group_maps(maps.begin() + first, maps.begin() + first + kLanes);
        // A coalesced group that is not a full warp reduces by its scan, as its last rank has it.
        const std::vector<float> float_scan = hillis_steele(group_floats, std::plus<float>());
        const std::vector<Affine> map_scan = hillis_steele(group_maps, Compose());
        for (unsigned rank = 0; rank < kLanes; ++rank) {
            INFO("coalesced group of " << kLanes << " from thread " << first << ", rank " << rank);
            const unsigned t = first + rank;
            CHECK(got_floats[3 * t] == float_scan.back());
            CHECK(got_maps[3 * t] == map_scan.back());
            CHECK(got_maps[3 * t + 1] == map_scan[rank]);
            CHECK(got_maps[3 * t + 2] == (rank == 0 ? Affine{} : map_scan[rank - 1]));
        }
    }
    for (unsigned first = 0; first < kThreads; first += 256) {
        const std::vector<float> tile(floats.begin() + first, floats.begin() + first + 256);
        const std::vector<float> sums = multi_warp_reduce(tile, std::plus<float>());
        const std::vector<float> scan = multi_warp_inclusive_scan(tile, std::plus<float>());
        for (unsigned rank = 0; rank < 256; ++rank) {
            INFO("tile of 256, thread " << first + rank);
            CHECK(got_floats[3 * (first + rank) + 1] == sums[rank]);
            CHECK(got_floats[3 * (first + rank) + 2] == scan[rank]);
        }
    }
}

TEST_CASE("cg::reduce and the scans with every documented operator", "[cooperative]") {
    check_every_operator<16>();
    check_every_operator<32>();
    check_every_operator<128>();
}

// ---- on the CPU backend only: the backend's diagnostics ---------------------------------------
#if defined(WARPDRILL_BACKEND_CPU)
using warpdrill::testing::contains;
using warpdrill::testing::expect_says;
using warpdrill::testing::fault_of;

namespace {

// The last warp of the second tile returns before the tile's reduction.
__global__ void big_tile_warp_returns(int* out) {
    const cg::thread_block_tile<64> tile = cg::tiled_partition<64>(cg::this_thread_block());
    if (threadIdx.x >= 96) return;
    out[threadIdx.x] = cg::reduce(tile, 1, cg::plus<int>());
}

__global__ void big_tile_collectives_disagree(int* out) {
    const cg::thread_block_tile<128> tile = cg::tiled_partition<128>(cg::this_thread_block());
    if (tile.thread_rank() < 64) {
        out[threadIdx.x] = tile.shfl(1, 0);
    } else {
        out[threadIdx.x] = tile.shfl(2, 0);
    }
}

__global__ void big_tile_in_a_branch(int* out) {
    if (threadIdx.x < 64) {
        const cg::thread_block_tile<64> tile = cg::tiled_partition<64>(cg::this_thread_block());
        out[threadIdx.x] = static_cast<int>(tile.thread_rank());
    }
}

__global__ void runtime_tile_of_48(int* out) {
    const cg::thread_group tile = cg::tiled_partition(cg::this_thread_block(), 48);
    out[threadIdx.x] = static_cast<int>(tile.thread_rank());
}

__global__ void scratch_for_fewer_threads(int* out) {
    __shared__ cg::block_tile_memory<128> scratch;
    const cg::thread_block block = cg::this_thread_block(scratch);
    out[threadIdx.x] = static_cast<int>(cg::tiled_partition<64>(block).thread_rank());
}

__global__ void coalesced_shuffle_past_the_group(int* out) {
    if (threadIdx.x < 8) {
        const cg::coalesced_group group = cg::coalesced_threads();
        out[threadIdx.x] = group.shfl(static_cast<int>(threadIdx.x), 12);
    }
}

__global__ void partition_of_the_grid(int* out) {
    const cg::thread_group grid = cg::this_grid();
    out[threadIdx.x] = static_cast<int>(cg::tiled_partition(grid, 32).thread_rank());
}

}  // namespace

TEST_CASE("group collectives that not every member reaches", "[cooperative][diagnostics]") {
    DeviceBuffer<int> out(256);
    std::string message = fault_of([&] { launch(big_tile_warp_returns, {1, 128}, out.data()); });
    INFO(message);
    CHECK(contains(message, "at cpu-cuda/tests/cooperative_groups.cu:"));
    CHECK(contains(message, "which every thread of its tile of 64 threads (threads 64-127) must reach, but thread 96"));
    CHECK(contains(message, "has already returned from the kernel"));

    message = fault_of([&] { launch(big_tile_collectives_disagree, {1, 128}, out.data()); });
    CHECK(contains(message, "the threads of one tile disagree"));
    CHECK(contains(message, "every thread of a tile must reach each of its collectives, and the same one"));

    // Making a tile of several warps is a collective of its parent, the block.
    message = fault_of([&] { launch(big_tile_in_a_branch, {1, 128}, out.data()); });
    CHECK(contains(message, "threads 0-63 wait at __syncthreads() at cpu-cuda/tests/cooperative_groups.cu:"));
    CHECK(contains(message, "inside the branch `if (threadIdx.x < 64)`"));
}

TEST_CASE("tile sizes and groups CUDA does not partition", "[cooperative][diagnostics]") {
    DeviceBuffer<int> out(256);
    std::string message = fault_of([&] { launch(runtime_tile_of_48, {1, 96}, out.data()); });
    INFO(message);
    CHECK(contains(message, "cg::tiled_partition(group, 48) at cpu-cuda/tests/cooperative_groups.cu:"));
    CHECK(contains(message, "a power of two from 1 to 32"));

    message = fault_of([&] { launch(scratch_for_fewer_threads, {1, 256}, out.data()); });
    CHECK(contains(message, "this_thread_block(block_tile_memory<128>) at cpu-cuda/tests/cooperative_groups.cu:"));
    CHECK(contains(message, "in a block of 256 threads"));

    message = fault_of([&] { launch(partition_of_the_grid, {1, 64}, out.data()); });
    CHECK(contains(message, "cg::tiled_partition() at cpu-cuda/tests/cooperative_groups.cu:"));
    CHECK(contains(message, "of the grid: CUDA partitions only"));
}

TEST_CASE("a coalesced group's shuffle from a rank it does not have", "[cooperative][diagnostics]") {
    DeviceBuffer<int> out(32);
    const std::string message = fault_of([&] { launch(coalesced_shuffle_past_the_group, {1, 32}, out.data()); });
    expect_says(message, {"__shfl_sync() at cpu-cuda/tests/cooperative_groups.cu:",
                          "so it reads lane 31, which is not in the mask"});
}
#endif
