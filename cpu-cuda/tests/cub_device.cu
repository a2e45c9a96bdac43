// CUB's device-wide reductions beyond Sum, Min, Max and Reduce, and its
// scans: cub::DeviceReduce's ArgMin, ArgMax (both interfaces: the value and
// index written to two iterators, and the deprecated cub::KeyValuePair one)
// TransformReduce and ReduceByKey, cub::DeviceSegmentedReduce and
// cub::DeviceScan, each against a reference computed on the host. Small whole numbers make ties common, so
// that "the first extremum" is tested, and every sum exact. Outputs are poisoned first. The file uses only
// CUB's and CUDA's public API: it compiles with nvcc against CUB itself too, where it holds CUB to the same
// results.
#define CCCL_IGNORE_DEPRECATED_API  // the KeyValuePair forms of ArgMin and ArgMax are tested too

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <span>
#include <vector>

#include <cub/cub.cuh>

#include "affine_maps.cuh"
#include "scan_reference.h"
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

using Index = std::int64_t;  // what the two-iterator ArgMin and ArgMax write
using IndexedInt = cub::KeyValuePair<int, int>;

constexpr int kSizes[] = {1, 2, 31, 1000, 65537, (1 << 20) + 3};

// CUB's two calls: the first sizes the temporary storage, the second runs.
template <class Call>
void run_two_calls(Call call) {
    std::size_t bytes = 0;
    check_cuda(call(nullptr, bytes));
    REQUIRE(bytes > 0);
    DeviceBuffer<unsigned char> temp(bytes);
    check_cuda(call(temp.data(), bytes));
    check_cuda(cudaDeviceSynchronize());
}

// Items from -50 to 50: in any range of a few hundred, the extremes repeat.
std::vector<int> items_with_ties(std::size_t n, std::uint64_t seed) {
    return warpdrill::random_ints(n, seed, -50, 50);
}

// The first place of the smallest (or, with std::greater, the largest) of
// items[first, last), as an offset from `first`.
template <class Before = std::less<int>>
IndexedInt first_extremum(const std::vector<int>& items, std::size_t first, std::size_t last,
                          Before before = {}) {
    IndexedInt best{0, items[first]};
    for (std::size_t i = first + 1; i < last; ++i)
        if (before(items[i], best.value)) best = {static_cast<int>(i - first), items[i]};
    return best;
}

struct Square {
    __host__ __device__ long long operator()(int x) const { return static_cast<long long>(x) * x; }
};

// Segments of `items` as CUB takes them: begin and end offsets, each
// segment's own, which need not be in order nor cover every item.
struct Segments {
    std::vector<int> begins, ends;
    std::size_t count() const { return begins.size(); }
};

// Segments of every kind: empty ones (at the start, the middle and the end
// of the items), a one-item segment, short ones, one longer than a block's
// 256 threads and several tiles, and two that overlap and run backwards.
Segments mixed_segments(int n) {
    Segments segments;
    const auto add = [&](int begin, int end) {
        segments.begins.push_back(begin);
        segments.ends.push_back(end);
    };
    add(0, 0);
    add(0, 1);
    add(1, 5);
    add(5, 5);
    add(5, 300);
    add(300, n / 2);
    add(n / 2, n);
    add(n, n);
    add(n / 4, n / 2 + 7);
    add(7, 40);
    return segments;
}

// 5000 items with ties and mixed_segments() of them, on the device.
// run(call) makes CUB's two calls of `call`, a DeviceSegmentedReduce
// function given its first seven arguments (the temporary storage and its
// size, the items, a poisoned output, the number of segments and their
// offsets), and returns what it wrote.
struct SegmentedItems {
    static constexpr int kItems = 5000;
    std::vector<int> items;
    Segments segments = mixed_segments(kItems);
    DeviceBuffer<int> in, begins, ends;

    explicit SegmentedItems(std::uint64_t seed)
        : items(items_with_ties(kItems, seed)),
          in{std::span<const int>(items)},
          begins{std::span<const int>(segments.begins)},
          ends{std::span<const int>(segments.ends)} {}

    template <class Out, class Call>
    std::vector<Out> run(Call call) {
        DeviceBuffer<Out> out(segments.count());
        out.poison();
        run_two_calls([&](void* temp, std::size_t& bytes) {
            return call(temp, bytes, in.data(), out.data(), static_cast<std::int64_t>(segments.count()),
                        begins.data(), ends.data());
        });
        return out.download();
    }
};

}  // namespace

TEST_CASE("cub::DeviceReduce::ArgMin and ArgMax write the first extremum and its index", "[cub][device]") {
    for (const int n : kSizes) {
        const std::uint64_t seed = fresh_seed();
        INFO("n = " << n << ", " << describe_seed(seed));
        const std::vector<int> items = items_with_ties(n, seed);
        DeviceBuffer<int> in{std::span<const int>(items)};
        DeviceBuffer<int> extremum(1);
        extremum.poison();
        DeviceBuffer<Index> index(1);
        index.poison();

        const IndexedInt min = first_extremum(items, 0, n);
        run_two_calls([&](void* temp, std::size_t& bytes) {
            return cub::DeviceReduce::ArgMin(temp, bytes, in.data(), extremum.data(), index.data(), n);
        });
        CHECK(extremum.download().front() == min.value);
        CHECK(index.download().front() == min.key);

        const IndexedInt max = first_extremum(items, 0, n, std::greater<int>{});
        run_two_calls([&](void* temp, std::size_t& bytes) {
            return cub::DeviceReduce::ArgMax(temp, bytes, in.data(), extremum.data(), index.data(), n);
        });
        CHECK(extremum.download().front() == max.value);
        CHECK(index.download().front() == max.key);

        DeviceBuffer<IndexedInt> pair(1);
        pair.poison();
        run_two_calls([&](void* temp, std::size_t& bytes) {
            return cub::DeviceReduce::ArgMin(temp, bytes, in.data(), pair.data(), n);
        });
        CHECK(pair.download().front().key == min.key);
        CHECK(pair.download().front().value == min.value);
        run_two_calls([&](void* temp, std::size_t& bytes) {
            return cub::DeviceReduce::ArgMax(temp, bytes, in.data(), pair.data(), n);
        });
        CHECK(pair.download().front().key == max.key);
        CHECK(pair.download().front().value == max.value);
    }
}

TEST_CASE(
    "cub::DeviceReduce::ArgMin and ArgMax of no items: the pair {1, the type's limit}; the two iterators, "
    "nothing",
    "[cub][device]") {
    DeviceBuffer<int> in(1);
    DeviceBuffer<IndexedInt> pair(1);
    pair.poison();
    run_two_calls([&](void* temp, std::size_t& bytes) {
        return cub::DeviceReduce::ArgMin(temp, bytes, in.data(), pair.data(), 0);
    });
    CHECK(pair.download().front().key == 1);
    CHECK(pair.download().front().value == std::numeric_limits<int>::max());
    run_two_calls([&](void* temp, std::size_t& bytes) {
        return cub::DeviceReduce::ArgMax(temp, bytes, in.data(), pair.data(), 0);
    });
    CHECK(pair.download().front().key == 1);
    CHECK(pair.download().front().value == std::numeric_limits<int>::lowest());

    // CUB 3.0's documentation says {max(), 1}; its code writes nothing (an H200, 2026-11-28).
    DeviceBuffer<int> extremum(1);
    DeviceBuffer<Index> index(1);
    extremum.poison();
    index.poison();
    run_two_calls([&](void* temp, std::size_t& bytes) {
        return cub::DeviceReduce::ArgMin(temp, bytes, in.data(), extremum.data(), index.data(), 0);
    });
    run_two_calls([&](void* temp, std::size_t& bytes) {
        return cub::DeviceReduce::ArgMax(temp, bytes, in.data(), extremum.data(), index.data(), 0);
    });
    CHECK(extremum.download().front() == -1);
    CHECK(index.download().front() == -1);
}

TEST_CASE("cub::DeviceReduce::TransformReduce: init and the transformed items", "[cub][device]") {
    constexpr long long kInit = 7;
    for (const int n : {0, 1, 1000, (1 << 20) + 3}) {
        const std::uint64_t seed = fresh_seed();
        INFO("n = " << n << ", " << describe_seed(seed));
        const std::vector<int> items = items_with_ties(n, seed);
        DeviceBuffer<int> in{std::span<const int>(items)};
        DeviceBuffer<long long> out(1);
        out.poison();
        run_two_calls([&](void* temp, std::size_t& bytes) {
            return cub::DeviceReduce::TransformReduce(temp, bytes, in.data(), out.data(), n,
                                                      cuda::std::plus<>{}, Square{}, kInit);
        });
        long long want = kInit;
        for (const int x : items) want += Square{}(x);
        CHECK(out.download().front() == want);
    }
}

TEST_CASE("cub::DeviceSegmentedReduce: Reduce, Sum, Min and Max of each segment, init for an empty one",
          "[cub][device]") {
    const std::uint64_t seed = fresh_seed();
    INFO(describe_seed(seed));
    SegmentedItems segmented(seed);
    constexpr int kInit = 20;  // within the items' range: it wins in some segments, not in others
    const std::vector<long long> sums =
        segmented.run<long long>([](auto&&... args) { return cub::DeviceSegmentedReduce::Sum(args...); });
    const std::vector<int> mins =
        segmented.run<int>([](auto&&... args) { return cub::DeviceSegmentedReduce::Min(args...); });
    const std::vector<int> maxes =
        segmented.run<int>([](auto&&... args) { return cub::DeviceSegmentedReduce::Max(args...); });
    const std::vector<int> reduced = segmented.run<int>(
        [](auto&&... args) { return cub::DeviceSegmentedReduce::Reduce(args..., cuda::maximum<>{}, kInit); });

    const Segments& segments = segmented.segments;
    for (std::size_t s = 0; s < segments.count(); ++s) {
        const auto first = segmented.items.begin() + segments.begins[s];
        const auto last = segmented.items.begin() + segments.ends[s];
        INFO("segment " << s << ": [" << segments.begins[s] << ", " << segments.ends[s] << ")");
        long long sum = 0;
        for (auto it = first; it != last; ++it) sum += *it;
        const bool empty = first == last;
        CHECK(sums[s] == sum);
        CHECK(mins[s] == (empty ? std::numeric_limits<int>::max() : *std::min_element(first, last)));
        CHECK(maxes[s] == (empty ? std::numeric_limits<int>::lowest() : *std::max_element(first, last)));
        CHECK(reduced[s] == (empty ? kInit : std::max(kInit, *std::max_element(first, last))));
    }
}

TEST_CASE("cub::DeviceSegmentedReduce::ArgMin and ArgMax: the first extremum's offset in its segment",
          "[cub][device]") {
    const std::uint64_t seed = fresh_seed();
    INFO(describe_seed(seed));
    SegmentedItems segmented(seed);
    const std::vector<IndexedInt> mins =
        segmented.run<IndexedInt>([](auto&&... args) { return cub::DeviceSegmentedReduce::ArgMin(args...); });
    const std::vector<IndexedInt> maxes =
        segmented.run<IndexedInt>([](auto&&... args) { return cub::DeviceSegmentedReduce::ArgMax(args...); });

    const Segments& segments = segmented.segments;
    for (std::size_t s = 0; s < segments.count(); ++s) {
        const int first = segments.begins[s], last = segments.ends[s];
        INFO("segment " << s << ": [" << first << ", " << last << ")");
        const IndexedInt min = first == last ? IndexedInt{1, std::numeric_limits<int>::max()}
                                             : first_extremum(segmented.items, first, last);
        const IndexedInt max = first == last
                                   ? IndexedInt{1, std::numeric_limits<int>::lowest()}
                                   : first_extremum(segmented.items, first, last, std::greater<int>{});
        CHECK(mins[s].key == min.key);
        CHECK(mins[s].value == min.value);
        CHECK(maxes[s].key == max.key);
        CHECK(maxes[s].value == max.value);
    }
}

TEST_CASE("cub::DeviceSegmentedReduce over one offsets array, begins and ends aliased, and over no segments",
          "[cub][device]") {
    // The rows of a matrix of 300 rows of 129 floats: offsets[r] to offsets[r + 1].
    constexpr int kRows = 300, kColumns = 129;
    const std::uint64_t seed = fresh_seed();
    INFO(describe_seed(seed));
    const std::vector<float> items = warpdrill::random_small_integers(kRows * kColumns, seed);
    std::vector<int> offsets(kRows + 1);
    for (int r = 0; r <= kRows; ++r) offsets[r] = r * kColumns;
    DeviceBuffer<float> in{std::span<const float>(items)};
    DeviceBuffer<int> d_offsets{std::span<const int>(offsets)};
    DeviceBuffer<float> sums(kRows);
    sums.poison();
    run_two_calls([&](void* temp, std::size_t& bytes) {
        return cub::DeviceSegmentedReduce::Sum(temp, bytes, in.data(), sums.data(), kRows, d_offsets.data(),
                                               d_offsets.data() + 1);
    });
    const std::vector<float> got = sums.download();
    for (int r = 0; r < kRows; ++r) {
        double want = 0;
        for (int c = 0; c < kColumns; ++c) want += items[r * kColumns + c];
        CHECK(got[r] == want);
    }

    // No segments: CUB returns at once, leaving even the size untouched.
    std::size_t bytes = 0;
    CHECK(cub::DeviceSegmentedReduce::Sum(nullptr, bytes, in.data(), sums.data(), 0, d_offsets.data(),
                                          d_offsets.data() + 1) == cudaSuccess);
    CHECK(bytes == 0);
    check_cuda(cudaDeviceSynchronize());
    CHECK(sums.download() == got);
}

namespace {

// CUB's two calls of `call`, a DeviceScan function given the temporary
// storage and its size, the items on the device and a poisoned output;
// returns what it wrote.
template <class Out, class In, class Call>
std::vector<Out> device_scan(const std::vector<In>& items, Call call) {
    DeviceBuffer<In> in{std::span<const In>(items)};
    DeviceBuffer<Out> out(items.size());
    out.poison();
    run_two_calls([&](void* temp, std::size_t& bytes) { return call(temp, bytes, in.data(), out.data()); });
    return out.download();
}

constexpr int kScanSizes[] = {1, 255, 256, 257, 1000, 65537, (1 << 20) + 3};

}  // namespace

TEST_CASE("cub::DeviceScan's sums of ints are the host's, in and out of place", "[cub][device][scan]") {
    for (const int n : kScanSizes) {
        const std::uint64_t seed = fresh_seed();
        INFO("n = " << n << ", " << describe_seed(seed));
        const std::vector<int> items = items_with_ties(n, seed);
        const std::vector<int> inclusive = host_inclusive_scan(items, std::plus<int>{});
        std::vector<int> exclusive(n);
        exclusive[0] = 0;
        std::copy(inclusive.begin(), inclusive.end() - 1, exclusive.begin() + 1);

        CHECK(device_scan<int>(items, [&](void* temp, std::size_t& bytes, const int* in, int* out) {
                  return cub::DeviceScan::InclusiveSum(temp, bytes, in, out, n);
              }) == inclusive);
        CHECK(device_scan<int>(items, [&](void* temp, std::size_t& bytes, const int* in, int* out) {
                  return cub::DeviceScan::ExclusiveSum(temp, bytes, in, out, n);
              }) == exclusive);

        DeviceBuffer<int> data{std::span<const int>(items)};
        run_two_calls([&](void* temp, std::size_t& bytes) {
            return cub::DeviceScan::InclusiveSum(temp, bytes, data.data(), n);
        });
        CHECK(data.download() == inclusive);
        data.upload(items);
        run_two_calls([&](void* temp, std::size_t& bytes) {
            return cub::DeviceScan::ExclusiveSum(temp, bytes, data.data(), n);
        });
        CHECK(data.download() == exclusive);
    }
}

TEST_CASE("cub::DeviceScan keeps the items' order: a non-commutative operator, with and without an init",
          "[cub][device][scan]") {
    const Affine init{3, 5};
    for (const int n : {1, 300, 70000}) {
        const std::uint64_t seed = fresh_seed();
        INFO("n = " << n << ", " << describe_seed(seed));
        const std::vector<Affine> maps = random_maps(n, seed);
        const std::vector<Affine> inclusive = host_inclusive_scan(maps, ThenApply{});
        const std::vector<Affine> from_init = host_inclusive_scan(maps, ThenApply{}, std::optional(init));
        std::vector<Affine> exclusive{init};
        exclusive.insert(exclusive.end(), from_init.begin(), from_init.end() - 1);

        CHECK(device_scan<Affine>(maps, [&](void* temp, std::size_t& bytes, const Affine* in, Affine* out) {
                  return cub::DeviceScan::InclusiveScan(temp, bytes, in, out, ThenApply{}, n);
              }) == inclusive);
        CHECK(device_scan<Affine>(maps, [&](void* temp, std::size_t& bytes, const Affine* in, Affine* out) {
                  return cub::DeviceScan::InclusiveScanInit(temp, bytes, in, out, ThenApply{}, init, n);
              }) == from_init);
        CHECK(device_scan<Affine>(maps, [&](void* temp, std::size_t& bytes, const Affine* in, Affine* out) {
                  return cub::DeviceScan::ExclusiveScan(temp, bytes, in, out, ThenApply{}, init, n);
              }) == exclusive);
    }
}

TEST_CASE("cub::DeviceScan's running sums of whole-number floats are exact; of no items, nothing is written",
          "[cub][device][scan]") {
    constexpr int n = (1 << 16) + 5;
    const std::uint64_t seed = fresh_seed();
    INFO(describe_seed(seed));
    // Small whole numbers: every running sum, in any order, is exact in float.
    const std::vector<float> items = warpdrill::random_small_integers(n, seed);
    const std::vector<float> got =
        device_scan<float>(items, [&](void* temp, std::size_t& bytes, const float* in, float* out) {
            return cub::DeviceScan::InclusiveSum(temp, bytes, in, out, n);
        });
    CHECK(got == host_inclusive_scan(items, std::plus<float>{}));

    DeviceBuffer<float> none(1);
    none.poison();
    run_two_calls([&](void* temp, std::size_t& bytes) {
        return cub::DeviceScan::ExclusiveSum(temp, bytes, none.data(), none.data(), 0);
    });
    CHECK(std::isnan(none.download().front()));
}

namespace {

// What ReduceByKey writes: each run's key and aggregate, and how many runs.
template <class Value>
struct Runs {
    std::vector<int> keys;
    std::vector<Value> aggregates;
    int count = 0;
};

// The host's runs of consecutive equal keys, each run's values folded in order.
template <class Value, class Op>
Runs<Value> host_runs(const std::vector<int>& keys, const std::vector<Value>& values, Op op) {
    Runs<Value> runs;
    for (std::size_t i = 0; i < keys.size(); ++i) {
        if (i == 0 || keys[i] != keys[i - 1]) {
            runs.keys.push_back(keys[i]);
            runs.aggregates.push_back(values[i]);
        } else {
            runs.aggregates.back() = op(runs.aggregates.back(), values[i]);
        }
    }
    runs.count = static_cast<int>(runs.keys.size());
    return runs;
}

// ReduceByKey through CUB's two calls, into poisoned outputs of n items.
template <class Value, class Op>
Runs<Value> device_runs(const std::vector<int>& keys, const std::vector<Value>& values, Op op) {
    const std::size_t n = keys.size();
    DeviceBuffer<int> d_keys{std::span<const int>(keys)}, unique(std::max<std::size_t>(n, 1)), count(1);
    DeviceBuffer<Value> d_values{std::span<const Value>(values)}, aggregates(std::max<std::size_t>(n, 1));
    unique.poison();
    aggregates.poison();
    count.poison();
    run_two_calls([&](void* temp, std::size_t& bytes) {
        return cub::DeviceReduce::ReduceByKey(temp, bytes, d_keys.data(), unique.data(), d_values.data(),
                                              aggregates.data(), count.data(), op, static_cast<int>(n));
    });
    Runs<Value> runs;
    runs.count = count.download().front();
    REQUIRE(runs.count >= 0);
    runs.keys = unique.download();
    runs.aggregates = aggregates.download();
    runs.keys.resize(runs.count);
    runs.aggregates.resize(runs.count);
    return runs;
}

// Keys in runs of 1 to 600 items (across blocks' edges), each run's key
// another than the one before.
std::vector<int> keys_in_runs(std::size_t n, std::uint64_t seed) {
    const std::vector<int> lengths = warpdrill::random_ints(n, seed, 1, 600);
    std::vector<int> keys;
    for (std::size_t run = 0; keys.size() < n; ++run) {
        keys.insert(keys.end(), std::min<std::size_t>(lengths[run], n - keys.size()),
                    static_cast<int>(run % 7));
    }
    return keys;
}

}  // namespace

TEST_CASE("cub::DeviceReduce::ReduceByKey: CUB's documented example, and no items", "[cub][device]") {
    const std::vector<int> keys = {0, 2, 2, 9, 5, 5, 5, 8}, values = {0, 7, 1, 6, 2, 5, 3, 4};
    const Runs<int> runs = device_runs(keys, values, cuda::minimum<>{});
    CHECK(runs.count == 5);
    CHECK(runs.keys == std::vector<int>{0, 2, 9, 5, 8});
    CHECK(runs.aggregates == std::vector<int>{0, 1, 6, 2, 4});
    CHECK(device_runs(std::vector<int>{}, std::vector<int>{}, cuda::std::plus<>{}).count == 0);
}

TEST_CASE("cub::DeviceReduce::ReduceByKey over runs across blocks, in the items' order", "[cub][device]") {
    for (const int n : {1, 257, 5000, 70000}) {
        const std::uint64_t seed = fresh_seed();
        INFO("n = " << n << ", " << describe_seed(seed));
        const std::vector<int> keys = keys_in_runs(n, seed);
        const std::vector<int> values = items_with_ties(n, seed);
        const Runs<int> sums = device_runs(keys, values, cuda::std::plus<>{});
        const Runs<int> want_sums = host_runs(keys, values, std::plus<int>{});
        CHECK(sums.count == want_sums.count);
        CHECK(sums.keys == want_sums.keys);
        CHECK(sums.aggregates == want_sums.aggregates);

        std::vector<Affine> maps(n);
        for (int i = 0; i < n; ++i)
            maps[i] = {static_cast<unsigned>(values[i] + 51), static_cast<unsigned>(i % kPrime)};
        const Runs<Affine> composed = device_runs(keys, maps, ThenApply{});
        CHECK(composed.aggregates == host_runs(keys, maps, ThenApply{}).aggregates);
    }
}
