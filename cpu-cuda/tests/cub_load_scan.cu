// The rest of the CPU backend's CUB subset that reduction code uses:
// cub::BlockLoad and cub::BlockStore with each algorithm and the LoadDirect* /
// StoreDirect* functions (which item lands in which thread), cub::BlockScan
// and cub::WarpScan (against host scans, and in CUB's order of combination
// for floats), cub::CachingDeviceAllocator and CubDebug. Items that must not
// count, and outputs, are poisoned. The kernels use only CUB's and CUDA's
// public API: this file compiles with nvcc against CUB itself too.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <ostream>
#include <type_traits>
#include <optional>
#include <span>
#include <vector>

#include <cub/cub.cuh>

#include "affine_maps.cuh"
#include "warpdrill/catch.h"
#include "warpdrill/cuda.h"
#include "warpdrill/data.h"
#include "warpdrill/host.h"
#include "warpdrill/testing.h"

using warpdrill::check_cuda;
using warpdrill::describe_seed;
using warpdrill::DeviceBuffer;
using warpdrill::fresh_seed;

namespace {

constexpr int kPoison = -1000000;  // an item no load or store may produce
constexpr int kOutOfBounds = -7;   // the oob_default the tests pass

// ---- which item lands in which thread ------------------------------------------------
// The arrangements CUB's documentation defines, as the host computes them:
// where item i of the thread of rank t lies in a block's tile.
enum class Arrangement { blocked, striped, warp_striped };

__host__ __device__ int tile_offset(Arrangement arrangement, int threads, int items_per_thread, int rank,
                                    int item) {
    switch (arrangement) {
        case Arrangement::blocked: return rank * items_per_thread + item;
        case Arrangement::striped: return item * threads + rank;
        case Arrangement::warp_striped: return rank / 32 * 32 * items_per_thread + item * 32 + rank % 32;
    }
    return -1;
}

const char* name_of(Arrangement arrangement) {
    switch (arrangement) {
        case Arrangement::blocked: return "blocked";
        case Arrangement::striped: return "striped";
        case Arrangement::warp_striped: return "warp-striped";
    }
    return "";
}

// How a test bounds a load or store: all items, the first valid_items, or
// those and oob_default for the rest (loads only).
struct Bound {
    int valid_items;  // the tile's size for "all"
    bool all;
    bool with_default;
};

// The tile of block b is in[b * tile ...]; each thread records the items it
// loaded, in order, at record[(b * threads + rank) * kItems ...].
template <int kThreads, int kItems>
__device__ void record_items(int* record, const int (&items)[kItems]) {
    const int first = (blockIdx.x * kThreads + threadIdx.x) * kItems;
    for (int i = 0; i < kItems; ++i) record[first + i] = items[i];
}

// Calls access() with the bounds `bound` asks for: none or valid_items.
template <class Access>
__device__ void access_bounded(const Bound& bound, Access access) {
    if (bound.all) {
        access();
    } else {
        access(bound.valid_items);
    }
}
// The same for a load, which may also take oob_default.
template <class Load>
__device__ void load_bounded(const Bound& bound, Load load) {
    if (bound.with_default) {
        load(bound.valid_items, kOutOfBounds);
    } else {
        access_bounded(bound, load);
    }
}

// Loads with the free function for `arrangement`.
template <int kThreads, int kItems>
__global__ void load_direct(const int* in, int* record, Arrangement arrangement, Bound bound) {
    const int* tile = in + blockIdx.x * kThreads * kItems;
    int items[kItems];
    for (int& item : items) item = kPoison;
    const int rank = threadIdx.x;
    if (arrangement == Arrangement::blocked) {
        load_bounded(bound, [&](auto... limits) { cub::LoadDirectBlocked(rank, tile, items, limits...); });
    } else if (arrangement == Arrangement::striped) {
        load_bounded(bound,
                     [&](auto... limits) { cub::LoadDirectStriped<kThreads>(rank, tile, items, limits...); });
    } else {
        load_bounded(bound,
                     [&](auto... limits) { cub::LoadDirectWarpStriped(rank, tile, items, limits...); });
    }
    record_items<kThreads>(record, items);
}

// Loads with cub::BlockLoad<kAlgorithm>.
template <int kThreads, int kItems, cub::BlockLoadAlgorithm kAlgorithm>
__global__ void block_load(const int* in, int* record, Bound bound) {
    using BlockLoad = cub::BlockLoad<int, kThreads, kItems, kAlgorithm>;
    __shared__ typename BlockLoad::TempStorage temp_storage;
    const int* tile = in + blockIdx.x * kThreads * kItems;
    int items[kItems];
    for (int& item : items) item = kPoison;
    BlockLoad load(temp_storage);
    load_bounded(bound, [&](auto... limits) { load.Load(tile, items, limits...); });
    record_items<kThreads>(record, items);
}

// The items each thread holds for a store: item i of thread t is the offset
// `arrangement` gives it, so that a correct store writes 0, 1, 2, ... in order.
template <int kThreads, int kItems>
__device__ void make_items(int (&items)[kItems], Arrangement arrangement) {
    for (int i = 0; i < kItems; ++i) items[i] = tile_offset(arrangement, kThreads, kItems, threadIdx.x, i);
}

template <int kThreads, int kItems>
__global__ void store_direct(int* out, Arrangement arrangement, Bound bound) {
    int items[kItems];
    make_items<kThreads>(items, arrangement);
    const int rank = threadIdx.x;
    if (arrangement == Arrangement::blocked) {
        access_bounded(bound, [&](auto... limits) { cub::StoreDirectBlocked(rank, out, items, limits...); });
    } else if (arrangement == Arrangement::striped) {
        access_bounded(
            bound, [&](auto... limits) { cub::StoreDirectStriped<kThreads>(rank, out, items, limits...); });
    } else {
        access_bounded(bound,
                       [&](auto... limits) { cub::StoreDirectWarpStriped(rank, out, items, limits...); });
    }
}

template <int kThreads, int kItems, cub::BlockStoreAlgorithm kAlgorithm>
__global__ void block_store(int* out, Bound bound) {
    using BlockStore = cub::BlockStore<int, kThreads, kItems, kAlgorithm>;
    __shared__ typename BlockStore::TempStorage temp_storage;
    int items[kItems];
    make_items<kThreads>(
        items, kAlgorithm == cub::BLOCK_STORE_STRIPED ? Arrangement::striped : Arrangement::blocked);
    BlockStore store(temp_storage);
    access_bounded(bound, [&](auto... limits) { store.Store(out, items, limits...); });
}

// The bounds each test runs: all items, and a tile cut inside a warp's share.
template <int kThreads, int kItems>
std::vector<Bound> bounds_of(bool loads) {
    constexpr int kTile = kThreads * kItems;
    std::vector<Bound> bounds = {{kTile, true, false}};
    for (const int valid_items : {0, 1, kTile / 2 + 5, kTile - 1}) {
        bounds.push_back({valid_items, false, false});
        if (loads) bounds.push_back({valid_items, false, true});
    }
    return bounds;
}

// Checks each thread's recorded items: item i of thread t must be
// in[offset] where `arrangement` puts it, or, past valid_items, oob_default
// where one was given, and otherwise untouched (unless `kept_unspecified`:
// a transposing load leaves those unspecified).
template <int kThreads, int kItems>
void check_loaded(const std::vector<int>& record, const std::vector<int>& in, Arrangement arrangement,
                  const Bound& bound, bool kept_unspecified) {
    constexpr int kTile = kThreads * kItems;
    for (int block = 0; block < 2; ++block) {
        for (int rank = 0; rank < kThreads; ++rank) {
            for (int i = 0; i < kItems; ++i) {
                const int offset = tile_offset(arrangement, kThreads, kItems, rank, i);
                const int got = record[(block * kThreads + rank) * kItems + i];
                INFO("block " << block << ", thread " << rank << ", item " << i << ": " << got);
                if (offset < bound.valid_items) {
                    CHECK(got == in[block * kTile + offset]);
                } else if (bound.with_default) {
                    CHECK(got == kOutOfBounds);
                } else if (!kept_unspecified) {
                    CHECK(got == kPoison);
                }
            }
        }
    }
}

// Two blocks' tiles of distinct items; each thread's record starts poisoned.
template <int kThreads, int kItems, class Launch>
void check_load(Arrangement arrangement, bool transposes, Launch launch) {
    constexpr int kTile = kThreads * kItems;
    for (const Bound& bound : bounds_of<kThreads, kItems>(true)) {
        const std::uint64_t seed = fresh_seed();
        INFO(kThreads << " threads x " << kItems << " items, " << name_of(arrangement) << ", valid_items "
                      << bound.valid_items << (bound.with_default ? " with oob_default" : "") << ", "
                      << describe_seed(seed));
        const std::vector<int> in = warpdrill::random_ints(2 * kTile, seed, 0, 1 << 20);
        DeviceBuffer<int> in_buffer{std::span<const int>(in)};
        DeviceBuffer<int> record(2 * kTile);
        launch(in_buffer.data(), record.data(), bound);
        warpdrill::check_launch();
        check_loaded<kThreads, kItems>(record.download(), in, arrangement, bound, transposes);
    }
}

// One block stores a tile of 0, 1, 2, ...: out[k] must be k below valid_items, and untouched past it.
template <int kThreads, int kItems, class Launch>
void check_store(const char* what, Launch launch) {
    constexpr int kTile = kThreads * kItems;
    for (const Bound& bound : bounds_of<kThreads, kItems>(false)) {
        INFO(kThreads << " threads x " << kItems << " items, " << what << ", valid_items "
                      << bound.valid_items);
        DeviceBuffer<int> out(kTile);
        out.poison();
        launch(out.data(), bound);
        warpdrill::check_launch();
        const std::vector<int> stored = out.download();
        for (int k = 0; k < kTile; ++k) {
            INFO("out[" << k << "] = " << stored[k]);
            CHECK(stored[k] == (k < bound.valid_items ? k : -1));
        }
    }
}

template <int kThreads, int kItems>
void check_direct_functions() {
    for (const Arrangement arrangement :
         {Arrangement::blocked, Arrangement::striped, Arrangement::warp_striped}) {
        check_load<kThreads, kItems>(arrangement, false, [&](const int* in, int* record, Bound bound) {
            load_direct<kThreads, kItems><<<2, kThreads>>>(in, record, arrangement, bound);
        });
        check_store<kThreads, kItems>(name_of(arrangement), [&](int* out, Bound bound) {
            store_direct<kThreads, kItems><<<1, kThreads>>>(out, arrangement, bound);
        });
    }
}

template <int kThreads, int kItems, cub::BlockLoadAlgorithm kAlgorithm>
void check_block_load(Arrangement arrangement, bool transposes) {
    check_load<kThreads, kItems>(arrangement, transposes, [](const int* in, int* record, Bound bound) {
        block_load<kThreads, kItems, kAlgorithm><<<2, kThreads>>>(in, record, bound);
    });
}

template <int kThreads, int kItems>
void check_block_loads() {
    check_block_load<kThreads, kItems, cub::BLOCK_LOAD_DIRECT>(Arrangement::blocked, false);
    check_block_load<kThreads, kItems, cub::BLOCK_LOAD_STRIPED>(Arrangement::striped, false);
    check_block_load<kThreads, kItems, cub::BLOCK_LOAD_VECTORIZE>(Arrangement::blocked, false);
    check_block_load<kThreads, kItems, cub::BLOCK_LOAD_TRANSPOSE>(Arrangement::blocked, true);
    check_block_load<kThreads, kItems, cub::BLOCK_LOAD_WARP_TRANSPOSE>(Arrangement::blocked, true);
}

template <int kThreads, int kItems, cub::BlockStoreAlgorithm kAlgorithm>
void check_block_store(const char* name) {
    check_store<kThreads, kItems>(name, [](int* out, Bound bound) {
        block_store<kThreads, kItems, kAlgorithm><<<1, kThreads>>>(out, bound);
    });
}

template <int kThreads, int kItems>
void check_block_stores() {
    check_block_store<kThreads, kItems, cub::BLOCK_STORE_DIRECT>("BLOCK_STORE_DIRECT");
    check_block_store<kThreads, kItems, cub::BLOCK_STORE_STRIPED>("BLOCK_STORE_STRIPED");
    check_block_store<kThreads, kItems, cub::BLOCK_STORE_VECTORIZE>("BLOCK_STORE_VECTORIZE");
    check_block_store<kThreads, kItems, cub::BLOCK_STORE_TRANSPOSE>("BLOCK_STORE_TRANSPOSE");
    check_block_store<kThreads, kItems, cub::BLOCK_STORE_WARP_TRANSPOSE>("BLOCK_STORE_WARP_TRANSPOSE");
}

// ---- cub::BlockScan and cub::WarpScan -------------------------------------------------
using Plus = cuda::std::plus<>;
using Max = cuda::maximum<>;

template <class T>
std::vector<T> random_items(std::size_t n, std::uint64_t seed) {
    const std::vector<int> numbers = warpdrill::random_ints(2 * n, seed, 1, kPrime - 1);
    std::vector<T> items(n);
    for (std::size_t i = 0; i < n; ++i) {
        if constexpr (std::is_same_v<T, Affine>) {
            items[i] = {static_cast<unsigned>(numbers[2 * i]), static_cast<unsigned>(numbers[2 * i + 1])};
        } else {
            items[i] = numbers[i] - static_cast<int>(kPrime / 2);
        }
    }
    return items;
}

// Which scan a test calls: the Sum forms for cuda::std::plus<>, the Scan forms for any operator.
enum class Scan { exclusive, inclusive };

// The host's scan of `items` in order: inclusive, or exclusive from `initial`.
template <class T, class Op>
std::vector<T> host_scan(std::span<const T> items, Op op, Scan scan, T initial) {
    std::vector<T> out(items.size());
    T running = initial;
    for (std::size_t i = 0; i < items.size(); ++i) {
        const T inclusive = scan == Scan::exclusive || i > 0 ? op(running, items[i]) : items[i];
        out[i] = scan == Scan::inclusive ? inclusive : running;
        running = inclusive;
    }
    return out;
}

// The initial value the exclusive scans start from: the operator's identity.
template <class T, class Op>
T initial_of(Op) {
    if constexpr (std::is_same_v<T, Affine>) {
        return kIdentity;
    } else if constexpr (std::is_same_v<Op, Max>) {
        return std::numeric_limits<T>::lowest();
    } else {
        return T{};
    }
}

// `scan` through BlockScan or WarpScan (`Scanner`), one item per thread or
// an array: Sum for cuda::std::plus<>, Scan with the initial value for any
// other operator; with the aggregate when `aggregate` is given.
template <class Scanner, class Items, class T, class Op>
__device__ void call_scan(Scanner scanner, Items& in, Items& out, Scan scan, Op op, T initial, T* aggregate) {
    if constexpr (std::is_same_v<Op, Plus>) {
        if (scan == Scan::exclusive) {
            if (aggregate)
                scanner.ExclusiveSum(in, out, *aggregate);
            else
                scanner.ExclusiveSum(in, out);
        } else {
            if (aggregate)
                scanner.InclusiveSum(in, out, *aggregate);
            else
                scanner.InclusiveSum(in, out);
        }
    } else {
        if (scan == Scan::exclusive) {
            if (aggregate)
                scanner.ExclusiveScan(in, out, initial, op, *aggregate);
            else
                scanner.ExclusiveScan(in, out, initial, op);
        } else {
            if (aggregate)
                scanner.InclusiveScan(in, out, op, *aggregate);
            else
                scanner.InclusiveScan(in, out, op);
        }
    }
}

// Each thread scans its kItems consecutive items of the block's tile (one
// item: the single-item forms) and writes them, and its aggregate, back.
template <class T, int kX, int kY, int kItems, class Op>
__global__ void block_scan(const T* in, T* out, T* aggregates, Scan scan, Op op, T initial,
                           bool with_aggregate) {
    using BlockScan = cub::BlockScan<T, kX, cub::BLOCK_SCAN_RAKING, kY>;
    __shared__ typename BlockScan::TempStorage temp_storage;
    const int rank = threadIdx.x + threadIdx.y * kX;
    T items[kItems];
    for (int i = 0; i < kItems; ++i) items[i] = in[rank * kItems + i];
    T results[kItems];
    T aggregate;
    T* const wanted_aggregate = with_aggregate ? &aggregate : nullptr;
    if constexpr (kItems == 1) {
        call_scan(BlockScan(temp_storage), items[0], results[0], scan, op, initial, wanted_aggregate);
    } else {
        call_scan(BlockScan(temp_storage), items, results, scan, op, initial, wanted_aggregate);
    }
    for (int i = 0; i < kItems; ++i) out[rank * kItems + i] = results[i];
    if (with_aggregate) aggregates[rank] = aggregate;
}

// Each logical warp of the 64 threads scans its lanes' items.
constexpr int kWarpScanThreads = 64;
template <class T, int kLogicalThreads, class Op>
__global__ void warp_scan(const T* in, T* out, T* aggregates, Scan scan, Op op, T initial,
                          bool with_aggregate) {
    using WarpScan = cub::WarpScan<T, kLogicalThreads>;
    __shared__ typename WarpScan::TempStorage temp_storage[kWarpScanThreads / kLogicalThreads];
    T input = in[threadIdx.x];
    T result;
    T aggregate;
    call_scan(WarpScan(temp_storage[threadIdx.x / kLogicalThreads]), input, result, scan, op, initial,
              with_aggregate ? &aggregate : nullptr);
    out[threadIdx.x] = result;
    if (with_aggregate) aggregates[threadIdx.x] = aggregate;
}

// Checks the scans of groups of `group_threads` threads (a block, a logical
// warp) with `items_per_thread` items each against the host's, and each
// thread's aggregate against its group's total.
template <class T, class Op, class Launch>
void check_scans(int threads, int group_threads, int items_per_thread, Op op, Launch launch) {
    for (const Scan scan : {Scan::exclusive, Scan::inclusive}) {
        for (const bool with_aggregate : {false, true}) {
            const std::uint64_t seed = fresh_seed();
            INFO((scan == Scan::exclusive ? "exclusive" : "inclusive")
                 << (with_aggregate ? " with the aggregate" : "") << ", " << describe_seed(seed));
            const std::vector<T> items = random_items<T>(threads * items_per_thread, seed);
            DeviceBuffer<T> in{std::span<const T>(items)};
            DeviceBuffer<T> out(items.size());
            DeviceBuffer<T> aggregates(threads);
            out.poison();
            aggregates.poison();
            const T initial = initial_of<T>(op);
            launch(in.data(), out.data(), aggregates.data(), scan, initial, with_aggregate);
            warpdrill::check_launch();
            const std::vector<T> got = out.download();
            const std::vector<T> got_aggregates = aggregates.download();
            const int group_items = group_threads * items_per_thread;
            for (int first = 0; first < static_cast<int>(items.size()); first += group_items) {
                const std::span<const T> group(items.data() + first, group_items);
                const std::vector<T> want = host_scan(group, op, scan, initial);
                for (int i = 0; i < group_items; ++i) {
                    INFO("item " << first + i << ": " << got[first + i] << ", the host's " << want[i]);
                    CHECK(got[first + i] == want[i]);
                }
                for (int t = first / items_per_thread;
                     with_aggregate && t < (first + group_items) / items_per_thread; ++t) {
                    INFO("thread " << t << "'s aggregate: " << got_aggregates[t]);
                    CHECK(got_aggregates[t] == host_scan(group, op, Scan::inclusive, initial).back());
                }
            }
        }
    }
}

template <class T, int kX, int kY, int kItems, class Op>
void check_block_scan(Op op) {
    INFO("cub::BlockScan<" << kX << " x " << kY << ">, " << kItems << " items per thread");
    check_scans<T>(kX * kY, kX * kY, kItems, op,
                   [&](const T* in, T* out, T* aggregates, Scan scan, T initial, bool with_aggregate) {
                       block_scan<T, kX, kY, kItems>
                           <<<1, dim3(kX, kY)>>>(in, out, aggregates, scan, op, initial, with_aggregate);
                   });
}

// Block shapes: part of a warp, one warp, and raking over 30 segments of 2
// threads (20 x 3), 32 of 3, 32 of 4, and 32 of 32 but for the affine maps:
// nvcc 13.0 takes minutes over CUB's 1024-thread kernels for them (cub.cu
// says so of BlockReduce; this file's build with them ran past 5 minutes).
template <class T, int kItems, class Op>
void check_block_scan_shapes(Op op) {
    check_block_scan<T, 16, 1, kItems>(op);
    check_block_scan<T, 32, 1, kItems>(op);
    check_block_scan<T, 20, 3, kItems>(op);
    check_block_scan<T, 96, 1, kItems>(op);
    check_block_scan<T, 128, 1, kItems>(op);
    if constexpr (!std::is_same_v<T, Affine>) check_block_scan<T, 1024, 1, kItems>(op);
}

template <class T, int kLogicalThreads, class Op>
void check_warp_scan(Op op) {
    INFO("cub::WarpScan<" << kLogicalThreads << ">");
    check_scans<T>(kWarpScanThreads, kLogicalThreads, 1, op,
                   [&](const T* in, T* out, T* aggregates, Scan scan, T initial, bool with_aggregate) {
                       warp_scan<T, kLogicalThreads>
                           <<<1, kWarpScanThreads>>>(in, out, aggregates, scan, op, initial, with_aggregate);
                   });
}

// ---- CUB's order of combination for a float sum ------------------------------------
// What CUB's BLOCK_SCAN_RAKING computes, step by step, on the host: floats
// round differently in another order, so the device's sums must equal these
// bit for bit.

// The Kogge-Stone inclusive scan of a warp's values.
std::vector<float> kogge_stone(std::vector<float> values) {
    for (std::size_t offset = 1; offset < values.size(); offset *= 2) {
        const std::vector<float> before = values;
        for (std::size_t lane = offset; lane < values.size(); ++lane)
            values[lane] = before[lane - offset] + before[lane];
    }
    return values;
}

// Each thread's exclusive prefix from its partial, in the block's order
// (none for thread 0, as in a scan with no initial value).
std::vector<std::optional<float>> raking_prefixes(const std::vector<float>& partials) {
    const int threads = static_cast<int>(partials.size());
    std::vector<std::optional<float>> prefixes(threads);
    if (threads <= 32) {
        const std::vector<float> scanned = kogge_stone(partials);
        for (int t = 1; t < threads; ++t) prefixes[t] = scanned[t - 1];
        return prefixes;
    }
    // Segments of `segment` consecutive threads, one per lane of the first warp.
    const int segment = (threads + 31) / 32;
    const int lanes = (threads + segment - 1) / segment;
    std::vector<float> totals(lanes);
    for (int lane = 0; lane < lanes; ++lane) {
        totals[lane] = partials[lane * segment];
        for (int t = lane * segment + 1; t < std::min((lane + 1) * segment, threads); ++t)
            totals[lane] += partials[t];
    }
    const std::vector<float> scanned = kogge_stone(totals);
    for (int lane = 0; lane < lanes; ++lane) {
        std::optional<float> running;
        if (lane > 0) running = scanned[lane - 1];
        for (int t = lane * segment; t < std::min((lane + 1) * segment, threads); ++t) {
            prefixes[t] = running;
            running = running ? *running + partials[t] : partials[t];
        }
    }
    return prefixes;
}

// cub::ThreadReduce of a thread's floats with cuda::std::plus: a pairwise tree.
float pairwise_sum(std::vector<float> items) {
    for (std::size_t stride = 1; stride < items.size(); stride *= 2) {
        for (std::size_t j = 0; j + stride < items.size(); j += 2 * stride) items[j] += items[j + stride];
    }
    return items[0];
}

// BlockScan's InclusiveSum, in CUB's order, of `items_per_thread` consecutive items per thread.
std::vector<float> cub_inclusive_sum(const std::vector<float>& items, int threads, int items_per_thread) {
    if (items_per_thread == 1 && threads <= 32) return kogge_stone(items);
    std::vector<float> totals(threads);
    for (int t = 0; t < threads; ++t) {
        const auto first = items.begin() + t * items_per_thread;
        totals[t] = pairwise_sum(std::vector<float>(first, first + items_per_thread));
    }
    const std::vector<std::optional<float>> prefixes = raking_prefixes(totals);
    std::vector<float> sums(items.size());
    for (int t = 0; t < threads; ++t) {
        std::optional<float> running = prefixes[t];
        for (int i = t * items_per_thread; i < (t + 1) * items_per_thread; ++i) {
            running = running ? *running + items[i] : items[i];
            sums[i] = *running;
        }
    }
    return sums;
}

template <int kX, int kY, int kItems>
void check_float_inclusive_sum() {
    constexpr int kThreads = kX * kY;
    const std::uint64_t seed = fresh_seed();
    INFO("cub::BlockScan<float, " << kX << " x " << kY << ">, " << kItems << " items per thread, "
                                  << describe_seed(seed));
    const std::vector<float> items = warpdrill::random_floats(kThreads * kItems, seed);
    DeviceBuffer<float> in{std::span<const float>(items)};
    DeviceBuffer<float> out(items.size());
    out.poison();
    block_scan<float, kX, kY, kItems>
        <<<1, dim3(kX, kY)>>>(in.data(), out.data(), nullptr, Scan::inclusive, Plus{}, 0.0f, false);
    warpdrill::check_launch();
    const std::vector<float> got = out.download();
    const std::vector<float> want = cub_inclusive_sum(items, kThreads, kItems);
    for (std::size_t i = 0; i < items.size(); ++i) {
        INFO("item " << i << ": " << warpdrill::number_text(got[i]) << ", in CUB's order "
                     << warpdrill::number_text(want[i]));
        CHECK(got[i] == want[i]);
    }
}

// ---- cub::CachingDeviceAllocator and CubDebug --------------------------------------------
__global__ void fill(int* data, int n, int value) {
    for (int i = threadIdx.x; i < n; i += blockDim.x) data[i] = value;
}

// The block is device memory: a kernel fills it and the host copies it back.
void check_usable(void* block, int n) {
    fill<<<1, 128>>>(static_cast<int*>(block), n, 42);
    warpdrill::check_launch();
    std::vector<int> host(n);
    check_cuda(cudaMemcpy(host.data(), block, n * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(host == std::vector<int>(n, 42));
}

}  // namespace

TEST_CASE("cub::LoadDirect* and StoreDirect*: CUB's blocked, striped and warp-striped arrangements",
          "[cub][load]") {
    check_direct_functions<128, 4>();
    check_direct_functions<64, 3>();
    check_direct_functions<96, 1>();
}

TEST_CASE("cub::BlockLoad: striped for BLOCK_LOAD_STRIPED, blocked for every other algorithm",
          "[cub][load]") {
    check_block_loads<128, 4>();
    check_block_loads<64, 3>();
}

TEST_CASE("cub::BlockStore writes the tile in order from each algorithm's arrangement", "[cub][load]") {
    check_block_stores<128, 4>();
    check_block_stores<64, 3>();
}

TEST_CASE("cub::BlockScan: sums, scans and aggregates of ints over every block shape", "[cub][scan]") {
    check_block_scan_shapes<int, 1>(Plus{});
    check_block_scan_shapes<int, 4>(Plus{});
    check_block_scan_shapes<int, 1>(Max{});
    check_block_scan_shapes<int, 3>(Max{});
}

TEST_CASE("cub::BlockScan keeps the items' and the operands' order: a non-commutative operator",
          "[cub][scan]") {
    check_block_scan_shapes<Affine, 1>(ThenApply{});
    check_block_scan_shapes<Affine, 4>(ThenApply{});
}

TEST_CASE("cub::WarpScan over warps of 32 threads and logical warps of 16 and 8", "[cub][scan]") {
    check_warp_scan<int, 32>(Plus{});
    check_warp_scan<int, 16>(Max{});
    check_warp_scan<Affine, 32>(ThenApply{});
    check_warp_scan<Affine, 16>(ThenApply{});
    check_warp_scan<Affine, 8>(ThenApply{});
}

// On the GPU backend, the same check holds CUB itself to this order.
TEST_CASE("cub::BlockScan sums floats in CUB's order of combination, bit for bit", "[cub][scan]") {
    check_float_inclusive_sum<16, 1, 1>();
    check_float_inclusive_sum<32, 1, 1>();
    check_float_inclusive_sum<20, 3, 1>();
    check_float_inclusive_sum<96, 1, 1>();
    check_float_inclusive_sum<1024, 1, 1>();
    check_float_inclusive_sum<32, 1, 4>();
    check_float_inclusive_sum<128, 1, 5>();
    check_float_inclusive_sum<256, 1, 8>();
}

TEST_CASE("cub::CachingDeviceAllocator gives device memory and reuses a freed block of the same bin",
          "[cub][allocator]") {
    cub::CachingDeviceAllocator allocator;  // bins of 512 B, 4 KiB, 32 KiB, 256 KiB, 2 MiB
    void* first = nullptr;
    CHECK(allocator.DeviceAllocate(&first, 1000 * sizeof(int)) == cudaSuccess);
    REQUIRE(first != nullptr);
    check_usable(first, 1000);
    CHECK(allocator.DeviceFree(first) == cudaSuccess);

    // 3000 bytes round up to the same 4 KiB bin: the cached block comes back.
    void* same_bin = nullptr;
    CHECK(allocator.DeviceAllocate(&same_bin, 3000) == cudaSuccess);
    CHECK(same_bin == first);
    // Another bin while that block is in use: another block.
    void* other_bin = nullptr;
    CHECK(allocator.DeviceAllocate(&other_bin, 100) == cudaSuccess);
    CHECK(other_bin != first);
    check_usable(other_bin, 25);

    // Past the largest bin: allocated exactly, and usable.
    void* large = nullptr;
    CHECK(allocator.DeviceAllocate(&large, (3 << 20) * sizeof(int)) == cudaSuccess);
    check_usable(large, 3 << 20);

    for (void* block : {same_bin, other_bin, large}) CHECK(allocator.DeviceFree(block) == cudaSuccess);
    CHECK(allocator.FreeAllCached() == cudaSuccess);
}

TEST_CASE("cub::CachingDeviceAllocator with bins of its own, on a stream", "[cub][allocator]") {
    cub::CachingDeviceAllocator allocator(2, 6, 10);  // bins of 64 B, 128 B, ... 1 KiB
    cudaStream_t stream = nullptr;
    check_cuda(cudaStreamCreate(&stream));
    void* first = nullptr;
    CHECK(allocator.DeviceAllocate(&first, 65, stream) == cudaSuccess);
    check_usable(first, 32);  // the 128-byte bin holds 32 ints
    CHECK(allocator.DeviceFree(first) == cudaSuccess);
    void* again = nullptr;
    CHECK(allocator.DeviceAllocate(&again, 128, stream) == cudaSuccess);
    CHECK(again == first);
    CHECK(allocator.DeviceFree(again) == cudaSuccess);
    CHECK(allocator.FreeAllCached() == cudaSuccess);
    check_cuda(cudaStreamDestroy(stream));
}

TEST_CASE("CubDebug returns the call's error, or one an earlier call left", "[cub][debug]") {
    CHECK(CubDebug(cudaSuccess) == cudaSuccess);
    CHECK(CubDebug(cudaErrorInvalidValue) == cudaErrorInvalidValue);
    // A launch with too many threads per block leaves its error behind.
    fill<<<1, 2048>>>(nullptr, 0, 0);
    const cudaError_t left = cudaPeekAtLastError();
    CHECK(left != cudaSuccess);
    CHECK(CubDebug(cudaSuccess) == left);
    CHECK(cudaGetLastError() == cudaSuccess);  // CubDebug took it
}
