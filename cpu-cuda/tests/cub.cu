// The CPU backend's subset of CUB (cpu-cuda/include/cub/): cub::WarpReduce
// over full and logical warps, cub::BlockReduce with each algorithm over 1D
// and 2D blocks, cub::DeviceReduce with CUB's two-call protocol, each against
// a reference computed on the host. Items that must not count are poisoned
// with values that would show in any result, and so are the outputs. The
// kernels use only CUB's and CUDA's public API: this file compiles with nvcc
// against CUB itself too.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include <cub/cub.cuh>

#include "affine_maps.cuh"
#include "warpdrill/catch.h"
#include "warpdrill/cuda.h"
#include "warpdrill/data.h"
#include "warpdrill/host.h"
#include "warpdrill/reference.h"
#include "warpdrill/testing.h"
#if defined(WARPDRILL_BACKEND_CPU)
#include "fault_of.h"
#endif

using warpdrill::check_cuda;
using warpdrill::describe_seed;
using warpdrill::DeviceBuffer;
using warpdrill::fresh_seed;

namespace {

// ---- operators and item types ----------------------------------------------------
// A user's functor, as CUB's documentation has it: the larger magnitude.
template <class T>
struct AbsMax {
    __device__ T operator()(const T& a, const T& b) const { return fabs(a) < fabs(b) ? fabs(b) : fabs(a); }
};


using Plus = cuda::std::plus<>;

// Whole numbers, so that every reduction of them is exact and any lost or
// repeated item shows.
template <class T>
std::vector<T> random_items(std::size_t n, std::uint64_t seed) {
    if constexpr (std::is_same_v<T, Affine>) {
        return random_maps(n, seed);
    } else if constexpr (std::is_integral_v<T>) {
        return warpdrill::random_ints(n, seed, -1000, 1000);
    } else {
        const std::vector<float> numbers = warpdrill::random_small_integers(n, seed);
        return std::vector<T>(numbers.begin(), numbers.end());
    }
}

// An item that must not count, and changes any result it gets into.
template <class T>
T poison() {
    if constexpr (std::is_same_v<T, Affine>) {
        return {0, 0};
    } else {
        return T(1 << 28);
    }
}

// The host's reduction of the items, in order, as the device folds them.
template <class T, class Combine>
T fold(const std::vector<T>& items, Combine combine) {
    T result = items.front();
    for (std::size_t i = 1; i < items.size(); ++i) result = combine(result, items[i]);
    return result;
}
template <class T>
T expected(const std::vector<T>& items, Plus) {
    double sum = 0;  // exact for the tests' whole numbers
    for (const T& item : items) sum += item;
    return T(sum);
}
template <class T>
T expected(const std::vector<T>& items, AbsMax<T>) {
    return fold(items, [](T a, T b) { return std::fmax(std::fabs(a), std::fabs(b)); });
}
template <class T>
T expected(const std::vector<T>& items, cuda::maximum<>) {
    return fold(items, [](T a, T b) { return std::max(a, b); });
}
Affine expected(const std::vector<Affine>& items, ThenApply then_apply) { return fold(items, then_apply); }

std::string text_of(const Affine& map) { return std::to_string(map.a) + " * x + " + std::to_string(map.b); }
template <class T>
std::string text_of(const T& value) {
    return warpdrill::number_text(static_cast<double>(value));
}

// Checks each result against the host's reduction of the items it covers.
template <class T, class Op>
void check_results(const std::vector<T>& results, const std::vector<std::vector<T>>& covered, Op op) {
    for (std::size_t i = 0; i < results.size(); ++i) {
        const T want = expected(covered[i], op);
        INFO("result " << i << " = " << text_of(results[i]) << ", but the host's is " << text_of(want));
        CHECK(results[i] == want);
    }
}

// ---- cub::WarpReduce ----------------------------------------------------------------
constexpr int kWarpTestThreads = 64;  // two warps

// The first lane of each logical warp writes out[logical warp]: Sum for
// cuda::std::plus<>, Reduce for any other operator, over all lanes or the
// first valid_items.
template <int kLogicalThreads, class T, class Op>
__global__ void warp_reduce(const T* in, T* out, int valid_items, Op op) {
    using WarpReduce = cub::WarpReduce<T, kLogicalThreads>;
    __shared__ typename WarpReduce::TempStorage temp_storage[kWarpTestThreads / kLogicalThreads];
    const int logical_warp = threadIdx.x / kLogicalThreads;
    WarpReduce reduce(temp_storage[logical_warp]);
    const T input = in[threadIdx.x];
    T result;
    if constexpr (std::is_same_v<Op, Plus>) {
        if (valid_items == kLogicalThreads) {
            result = reduce.Sum(input);
        } else {
            result = reduce.Sum(input, valid_items);
        }
    } else {
        if (valid_items == kLogicalThreads) {
            result = reduce.Reduce(input, op);
        } else {
            result = reduce.Reduce(input, op, valid_items);
        }
    }
    if (threadIdx.x % kLogicalThreads == 0) out[logical_warp] = result;
}

template <int kLogicalThreads, class T, class Op>
void check_warp_reduce(Op op) {
    constexpr int kLogicalWarps = kWarpTestThreads / kLogicalThreads;
    for (const int valid_items : {kLogicalThreads, 1, kLogicalThreads / 2 + 1, kLogicalThreads - 1}) {
        const std::uint64_t seed = fresh_seed();
        INFO("cub::WarpReduce<" << kLogicalThreads << ">, valid_items = " << valid_items << ", "
                                << describe_seed(seed));
        std::vector<T> items = random_items<T>(kWarpTestThreads, seed);
        std::vector<std::vector<T>> covered(kLogicalWarps);
        for (int lane = 0; lane < kWarpTestThreads; ++lane) {
            if (lane % kLogicalThreads < valid_items) {
                covered[lane / kLogicalThreads].push_back(items[lane]);
            } else {
                items[lane] = poison<T>();
            }
        }
        DeviceBuffer<T> in{std::span<const T>(items)};
        DeviceBuffer<T> out(kLogicalWarps);
        out.poison();
        warp_reduce<kLogicalThreads><<<1, kWarpTestThreads>>>(in.data(), out.data(), valid_items, op);
        warpdrill::check_launch();
        check_results(out.download(), covered, op);
    }
}

// Each lane writes out[lane] = its result of HeadSegmentedReduce (or, with
// kTails, TailSegmentedReduce; Sum for cuda::std::plus<>) with its flag.
template <int kLogicalThreads, bool kTails, class T, class Op>
__global__ void warp_segmented_reduce(const T* in, const int* flags, T* out, Op op) {
    using WarpReduce = cub::WarpReduce<T, kLogicalThreads>;
    __shared__ typename WarpReduce::TempStorage temp_storage[kWarpTestThreads / kLogicalThreads];
    WarpReduce reduce(temp_storage[threadIdx.x / kLogicalThreads]);
    const T input = in[threadIdx.x];
    const int flag = flags[threadIdx.x];
    if constexpr (std::is_same_v<Op, Plus>) {
        out[threadIdx.x] =
            kTails ? reduce.TailSegmentedSum(input, flag) : reduce.HeadSegmentedSum(input, flag);
    } else {
        out[threadIdx.x] = kTails ? reduce.TailSegmentedReduce(input, flag, op)
                                  : reduce.HeadSegmentedReduce(input, flag, op);
    }
}

// Random flags, about one lane in four: each segment's first lane must hold
// the segment's reduction, in order (other lanes' results are undefined).
template <int kLogicalThreads, bool kTails, class T, class Op>
void check_warp_segmented_reduce(Op op) {
    const std::uint64_t seed = fresh_seed();
    INFO("cub::WarpReduce<" << kLogicalThreads << ">, " << (kTails ? "tail" : "head") << " flags, "
                            << describe_seed(seed));
    const std::vector<T> items = random_items<T>(kWarpTestThreads, seed);
    std::vector<int> flags = warpdrill::random_ints(kWarpTestThreads, seed + 1, 0, 3);
    for (int& flag : flags) flag = flag == 0;
    std::vector<int> firsts;  // each segment's first lane
    std::vector<std::vector<T>> covered;
    for (int lane = 0; lane < kWarpTestThreads; ++lane) {
        const bool in_lane_0 = lane % kLogicalThreads == 0;
        const bool starts = in_lane_0 || (kTails ? flags[lane - 1] : flags[lane]);
        if (starts) {
            firsts.push_back(lane);
            covered.emplace_back();
        }
        covered.back().push_back(items[lane]);
    }
    DeviceBuffer<T> in{std::span<const T>(items)};
    DeviceBuffer<int> d_flags{std::span<const int>(flags)};
    DeviceBuffer<T> out(kWarpTestThreads);
    out.poison();
    warp_segmented_reduce<kLogicalThreads, kTails>
        <<<1, kWarpTestThreads>>>(in.data(), d_flags.data(), out.data(), op);
    warpdrill::check_launch();
    const std::vector<T> lanes = out.download();
    std::vector<T> results;
    for (const int lane : firsts) results.push_back(lanes[lane]);
    check_results(results, covered, op);
}

// ---- cub::BlockReduce -----------------------------------------------------------------
constexpr int kItemsPerThread = 4;
constexpr int kBlocks = 3;

// Which of BlockReduce's calls a test makes.
enum class Call { one_item, num_valid, items_per_thread };

const char* name_of(Call call) {
    switch (call) {
        case Call::one_item: return "one item per thread";
        case Call::num_valid: return "num_valid";
        case Call::items_per_thread: return "4 items per thread";
    }
    return "";
}
const char* name_of(cub::BlockReduceAlgorithm algorithm) {
    switch (algorithm) {
        case cub::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY: return "BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY";
        case cub::BLOCK_REDUCE_RAKING: return "BLOCK_REDUCE_RAKING";
        case cub::BLOCK_REDUCE_WARP_REDUCTIONS: return "BLOCK_REDUCE_WARP_REDUCTIONS";
    }
    return "";
}

// `call` through BlockReduce: Sum for cuda::std::plus<>, Reduce for any other operator.
template <class BlockReduce, class T, class Op>
__device__ T reduce_items(BlockReduce& reduce, T (&items)[kItemsPerThread], Call call, int num_valid, Op op) {
    if constexpr (std::is_same_v<Op, Plus>) {
        if (call == Call::one_item) return reduce.Sum(items[0]);
        if (call == Call::num_valid) return reduce.Sum(items[0], num_valid);
        return reduce.Sum(items);
    } else {
        if (call == Call::one_item) return reduce.Reduce(items[0], op);
        if (call == Call::num_valid) return reduce.Reduce(items[0], op, num_valid);
        return reduce.Reduce(items, op);
    }
}

// Block b reduces in[b * kThreads * kItemsPerThread, ...), each thread's items
// consecutive (thread rank x fastest), and its thread 0 writes out[b].
template <class T, int kX, cub::BlockReduceAlgorithm kAlgorithm, int kY, class Op>
__global__ void block_reduce(const T* in, T* out, Call call, int num_valid, Op op) {
    using BlockReduce = cub::BlockReduce<T, kX, kAlgorithm, kY>;
    __shared__ typename BlockReduce::TempStorage temp_storage;
    const int rank = threadIdx.x + threadIdx.y * kX;
    const T* thread_in = in + (blockIdx.x * kX * kY + rank) * kItemsPerThread;
    T items[kItemsPerThread];
    for (int i = 0; i < kItemsPerThread; ++i) items[i] = thread_in[i];
    BlockReduce reduce(temp_storage);
    const T result = reduce_items(reduce, items, call, num_valid, op);
    if (rank == 0) out[blockIdx.x] = result;
}

template <class T, int kX, cub::BlockReduceAlgorithm kAlgorithm, int kY = 1, class Op>
void check_block_reduce(Op op) {
    constexpr int kThreads = kX * kY;
    const auto check = [&](Call call, int num_valid) {
        const std::uint64_t seed = fresh_seed();
        INFO("cub::BlockReduce<" << kX << " x " << kY << ", " << name_of(kAlgorithm) << ">, " << name_of(call)
                                 << " = " << num_valid << ", " << describe_seed(seed));
        std::vector<T> items = random_items<T>(kBlocks * kThreads * kItemsPerThread, seed);
        std::vector<std::vector<T>> covered(kBlocks);
        for (std::size_t i = 0; i < items.size(); ++i) {
            const int rank = static_cast<int>(i / kItemsPerThread % kThreads);
            const bool counts =
                rank < num_valid && (call == Call::items_per_thread || i % kItemsPerThread == 0);
            if (counts) {
                covered[i / (kThreads * kItemsPerThread)].push_back(items[i]);
            } else {
                items[i] = poison<T>();
            }
        }
        DeviceBuffer<T> in{std::span<const T>(items)};
        DeviceBuffer<T> out(kBlocks);
        out.poison();
        const dim3 block(kX, kY);
        block_reduce<T, kX, kAlgorithm, kY><<<kBlocks, block>>>(in.data(), out.data(), call, num_valid, op);
        warpdrill::check_launch();
        check_results(out.download(), covered, op);
    };
    check(Call::one_item, kThreads);
    check(Call::items_per_thread, kThreads);
    for (const int num_valid : {1, kThreads / 2 + 1, kThreads - 1}) check(Call::num_valid, num_valid);
}

// Every block shape: 1D blocks of one to 32 warps, and a 2D block of 20 x 3
// threads, whose second warp is partial and whose warps cut across its rows.
template <class T, cub::BlockReduceAlgorithm kAlgorithm, class Op>
void check_block_shapes(Op op) {
    check_block_reduce<T, 32, kAlgorithm>(op);
    check_block_reduce<T, 96, kAlgorithm>(op);
    check_block_reduce<T, 128, kAlgorithm>(op);
    check_block_reduce<T, 256, kAlgorithm>(op);
    check_block_reduce<T, 1024, kAlgorithm>(op);
    check_block_reduce<T, 20, kAlgorithm, 3>(op);
}

template <cub::BlockReduceAlgorithm kAlgorithm>
void check_block_algorithm() {
    check_block_shapes<float, kAlgorithm>(Plus{});
    check_block_shapes<float, kAlgorithm>(AbsMax<float>{});
    check_block_shapes<double, kAlgorithm>(Plus{});
    check_block_shapes<double, kAlgorithm>(AbsMax<double>{});
    check_block_shapes<int, kAlgorithm>(Plus{});
    check_block_shapes<int, kAlgorithm>(cuda::maximum<>{});
}

// BlockReduce's default constructor: shared memory of its own.
__global__ void block_sum_in_own_storage(const int* in, int* out) {
    const int sum = cub::BlockReduce<int, 128>().Sum(in[threadIdx.x]);
    if (threadIdx.x == 0) *out = sum;
}

// ---- cub::DeviceReduce ------------------------------------------------------------------
// One reduction through CUB's two calls: the first asks how much temporary
// storage it takes, the second runs it. The output is poisoned first.
template <class Out, class In, class Reduce>
Out device_reduce(const std::vector<In>& input, Reduce reduce) {
    DeviceBuffer<In> in{std::span<const In>(input)};
    DeviceBuffer<Out> out(1);
    out.poison();
    const int n = static_cast<int>(input.size());
    std::size_t temp_bytes = 0;
    check_cuda(reduce(nullptr, temp_bytes, in.data(), out.data(), n));
    DeviceBuffer<unsigned char> temp(temp_bytes);
    check_cuda(reduce(temp.data(), temp_bytes, in.data(), out.data(), n));
    return out.download().front();
}

// Each DeviceReduce call, as a function of its common arguments.
const auto device_sum = [](void* temp, std::size_t& bytes, const auto* in, auto* out, int n) {
    return cub::DeviceReduce::Sum(temp, bytes, in, out, n);
};
const auto device_min = [](void* temp, std::size_t& bytes, const auto* in, auto* out, int n) {
    return cub::DeviceReduce::Min(temp, bytes, in, out, n);
};
const auto device_max = [](void* temp, std::size_t& bytes, const auto* in, auto* out, int n) {
    return cub::DeviceReduce::Max(temp, bytes, in, out, n);
};
constexpr float kAbsMaxInit = 0.5f;
const auto device_abs_max = [](void* temp, std::size_t& bytes, const float* in, float* out, int n) {
    return cub::DeviceReduce::Reduce(temp, bytes, in, out, n, AbsMax<float>{}, kAbsMaxInit);
};

constexpr int kDeviceSizes[] = {0, 1, 31, 1000, (1 << 20) + 3};

// DeviceReduce's blocks have 256 threads: whatever its grid, no thread adds
// more than ceil(n / 256) items one after another.
double float_sum_tolerance(const std::vector<float>& values) {
    const std::size_t most_in_one_thread = (values.size() + 255) / 256;
    return warpdrill::sum_tolerance(values.size(), warpdrill::reference_sum_abs(values), most_in_one_thread);
}

}  // namespace

TEST_CASE(
    "cub::WarpReduce over warps of 32 threads and logical warps of 16, 8 and 4, all lanes or valid_items",
    "[cub][warp]") {
    check_warp_reduce<32, int>(Plus{});
    check_warp_reduce<16, int>(Plus{});
    check_warp_reduce<8, float>(Plus{});
    check_warp_reduce<4, double>(Plus{});
    check_warp_reduce<32, float>(AbsMax<float>{});
    check_warp_reduce<16, double>(AbsMax<double>{});
    check_warp_reduce<8, int>(cuda::maximum<>{});
    check_warp_reduce<4, float>(AbsMax<float>{});
}

TEST_CASE("cub::WarpReduce's segmented reductions, by head and by tail flags", "[cub][warp]") {
    check_warp_segmented_reduce<32, false, int>(Plus{});
    check_warp_segmented_reduce<32, true, int>(Plus{});
    check_warp_segmented_reduce<8, false, float>(Plus{});
    check_warp_segmented_reduce<16, true, double>(AbsMax<double>{});
    check_warp_segmented_reduce<32, false, Affine>(ThenApply{});
    check_warp_segmented_reduce<32, true, Affine>(ThenApply{});
    check_warp_segmented_reduce<4, false, Affine>(ThenApply{});
}

TEST_CASE("cub::WarpReduce keeps the lanes' order: a non-commutative operator", "[cub][warp]") {
    check_warp_reduce<32, Affine>(ThenApply{});
    check_warp_reduce<16, Affine>(ThenApply{});
    check_warp_reduce<8, Affine>(ThenApply{});
    check_warp_reduce<4, Affine>(ThenApply{});
}

TEST_CASE("cub::BlockReduce, BLOCK_REDUCE_WARP_REDUCTIONS: every block shape, call and type",
          "[cub][block]") {
    check_block_algorithm<cub::BLOCK_REDUCE_WARP_REDUCTIONS>();
}

TEST_CASE("cub::BlockReduce, BLOCK_REDUCE_RAKING: every block shape, call and type", "[cub][block]") {
    check_block_algorithm<cub::BLOCK_REDUCE_RAKING>();
}

TEST_CASE("cub::BlockReduce, BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY: every block shape, call and type",
          "[cub][block]") {
    check_block_algorithm<cub::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY>();
}

// Not with 1024 threads: nvcc 13.0 did not finish CUB's kernel for this operator in 5 minutes.
TEST_CASE("cub::BlockReduce's algorithms for any operator keep the items' order", "[cub][block]") {
    check_block_reduce<Affine, 96, cub::BLOCK_REDUCE_WARP_REDUCTIONS>(ThenApply{});
    check_block_reduce<Affine, 256, cub::BLOCK_REDUCE_WARP_REDUCTIONS>(ThenApply{});
    check_block_reduce<Affine, 20, cub::BLOCK_REDUCE_WARP_REDUCTIONS, 3>(ThenApply{});
    check_block_reduce<Affine, 96, cub::BLOCK_REDUCE_RAKING>(ThenApply{});
    check_block_reduce<Affine, 256, cub::BLOCK_REDUCE_RAKING>(ThenApply{});
    check_block_reduce<Affine, 20, cub::BLOCK_REDUCE_RAKING, 3>(ThenApply{});
}

TEST_CASE("cub::BlockReduce with no TempStorage of the caller's", "[cub][block]") {
    const std::vector<int> items = random_items<int>(128, fresh_seed());
    DeviceBuffer<int> in{std::span<const int>(items)};
    DeviceBuffer<int> out(1);
    out.poison();
    block_sum_in_own_storage<<<1, 128>>>(in.data(), out.data());
    warpdrill::check_launch();
    CHECK(out.download().front() == expected(items, Plus{}));
}

TEST_CASE("cub::DeviceReduce of random floats against a double reference", "[cub][device]") {
    for (const int n : kDeviceSizes) {
        const std::uint64_t seed = fresh_seed();
        INFO("n = " << n << ", " << describe_seed(seed));
        const std::vector<float> input = warpdrill::random_floats(n, seed);
        const float sum = device_reduce<float>(input, device_sum);
        CHECK(std::fabs(sum - warpdrill::reference_sum(input)) <= float_sum_tolerance(input));
        float min = std::numeric_limits<float>::max();
        float max = std::numeric_limits<float>::lowest();
        float abs_max = kAbsMaxInit;
        for (const float x : input) {
            min = std::fmin(min, x);
            max = std::fmax(max, x);
            abs_max = std::fmax(abs_max, std::fabs(x));
        }
        CHECK(device_reduce<float>(input, device_min) == min);
        CHECK(device_reduce<float>(input, device_max) == max);
        CHECK(device_reduce<float>(input, device_abs_max) == abs_max);
    }
}

TEST_CASE("cub::DeviceReduce of ints and whole-number floats is exact; Sum adds in the output's type",
          "[cub][device]") {
    for (const int n : kDeviceSizes) {
        const std::uint64_t seed = fresh_seed();
        INFO("n = " << n << ", " << describe_seed(seed));
        const std::vector<int> ints = random_items<int>(n, seed);
        long long int_sum = 0;
        int int_min = std::numeric_limits<int>::max();
        int int_max = std::numeric_limits<int>::lowest();
        for (const int x : ints) {
            int_sum += x;
            int_min = std::min(int_min, x);
            int_max = std::max(int_max, x);
        }
        CHECK(device_reduce<int>(ints, device_sum) == int_sum);
        CHECK(device_reduce<int>(ints, device_min) == int_min);
        CHECK(device_reduce<int>(ints, device_max) == int_max);

        const std::vector<float> whole = warpdrill::random_small_integers(n, seed);
        CHECK(device_reduce<float>(whole, device_sum) == warpdrill::reference_sum(whole));

        // Floats summed into a double add in double: off by double's rounding only.
        const std::vector<float> input = warpdrill::random_floats(n, seed);
        const double tolerance = float_sum_tolerance(input) * (DBL_EPSILON / FLT_EPSILON);
        CHECK(std::fabs(device_reduce<double>(input, device_sum) - warpdrill::reference_sum(input)) <=
              tolerance);
    }
}

TEST_CASE("cub::DeviceReduce's temporary storage: a first call only sizes it",
          "[cub][device]") {
    const std::vector<float> input = warpdrill::random_small_integers(1000, fresh_seed());
    DeviceBuffer<float> in{std::span<const float>(input)};
    DeviceBuffer<float> out(1);
    out.poison();
    std::size_t bytes = 0;
    CHECK(cub::DeviceReduce::Sum(nullptr, bytes, in.data(), out.data(), 1000) == cudaSuccess);
    CHECK(bytes > 0);
    check_cuda(cudaDeviceSynchronize());
    CHECK(std::isnan(out.download().front()));  // the first call ran nothing

    DeviceBuffer<unsigned char> temp(bytes);

    cudaStream_t stream = nullptr;
    check_cuda(cudaStreamCreate(&stream));
    CHECK(cub::DeviceReduce::Sum(temp.data(), bytes, in.data(), out.data(), 1000, stream) == cudaSuccess);
    check_cuda(cudaStreamSynchronize(stream));
    check_cuda(cudaStreamDestroy(stream));
    CHECK(out.download().front() == warpdrill::reference_sum(input));
}

// On the CPU backend only: the grid of a larger GPU, and the backend's
// diagnostics, which name a mistake at the line that calls CUB.
#if defined(WARPDRILL_BACKEND_CPU)
using warpdrill::testing::expect_says;
using warpdrill::testing::fault_of;

namespace {

// A mistake: only the first half of the block reaches the reduction.
__global__ void block_sum_in_half_the_block(const int* in, int* out) {
    using BlockReduce = cub::BlockReduce<int, 128>;
    __shared__ typename BlockReduce::TempStorage temp_storage;
    if (threadIdx.x < 64) {
        const int sum = BlockReduce(temp_storage).Sum(in[threadIdx.x]);
        if (threadIdx.x == 0) *out = sum;
    }
}

}  // namespace

TEST_CASE("cub::DeviceReduce with the grid it takes on an H100's 132 multiprocessors", "[cub][device]") {
    // 528 blocks: each thread of the last kernel reduces two or three partials.
    warpdrill::cpu::set_multiprocessor_count(132);
    const std::uint64_t seed = fresh_seed();
    INFO(describe_seed(seed));
    const std::vector<int> ints = random_items<int>((1 << 20) + 3, seed);
    CHECK(device_reduce<int>(ints, device_sum) == expected(ints, Plus{}));
    CHECK(device_reduce<int>(ints, device_max) == expected(ints, cuda::maximum<>{}));
    warpdrill::cpu::set_multiprocessor_count(0);
}

TEST_CASE("a BlockReduce that only part of the block reaches is named at the line of the call",
          "[cub][diagnostics]") {
    DeviceBuffer<int> in(std::vector<int>(128, 1));
    DeviceBuffer<int> out(1);
    const std::string message = fault_of([&] {
        block_sum_in_half_the_block<<<1, 128>>>(in.data(), out.data());
        check_cuda(cudaDeviceSynchronize());
    });
    expect_says(message, {"threads 0-63 wait at __syncthreads() at cpu-cuda/tests/cub.cu:",
                          "inside the branch `if (threadIdx.x < 64)`"});
}
#endif
