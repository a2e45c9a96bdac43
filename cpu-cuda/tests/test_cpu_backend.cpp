// The CPU backend's semantics and diagnostics: kernels written as plain CUDA,
// correct ones and deliberately broken ones, and what the backend says.
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdlib>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "tree_reduce.cuh"  // bench/: the kernel the backend's speed is measured with
#include "fault_of.h"
#include "warpdrill/catch.h"
#include "warpdrill/cuda.h"
#include "warpdrill/host.h"
#include "warpdrill/pack.cuh"

using warpdrill::DeviceBuffer;
using warpdrill::launch;
using warpdrill::testing::contains;
using warpdrill::testing::expect_says;
using warpdrill::testing::fault_of;
using warpdrill::cpu::KernelFault;
using warpdrill::cpu::ThreadOrder;

namespace {

constexpr unsigned kFull = 0xffffffffu;


// ---- correct kernels ---------------------------------------------------------

__global__ void record_indices(uint3* thread_ids, uint3* block_ids, dim3* dims) {
    const unsigned block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    const unsigned thread = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    const unsigned i = block * blockDim.x * blockDim.y * blockDim.z + thread;
    thread_ids[i] = threadIdx;
    block_ids[i] = blockIdx;
    dims[i] = blockDim;
}

__global__ void votes(const int* predicate, unsigned* ballot, int* any, int* all, int* count) {
    const int t = threadIdx.x;
    ballot[t] = __ballot_sync(kFull, predicate[t]);
    any[t] = __any_sync(kFull, predicate[t]);
    all[t] = __all_sync(kFull, predicate[t]);
    count[t] = __syncthreads_count(predicate[t]);
}

__global__ void add_everywhere(int* counter, float* total, unsigned* maximum) {
    atomicAdd(counter, 1);
    atomicAdd(total, 0.5f);
    atomicMax(maximum, blockIdx.x * blockDim.x + threadIdx.x);
}

// Thread 0 of each block writes its block's index at the next free place: the order the blocks came in.
__global__ void record_arrival(unsigned* next, unsigned* arrivals) {
    if (threadIdx.x == 0) arrivals[atomicAdd(next, 1u)] = blockIdx.x;
}

// Each thread counts with atomicInc up to `limit` and with atomicDec down from it.
__global__ void wrapping_counters(unsigned* up, unsigned* down, unsigned limit) {
    atomicInc(up, limit);
    atomicDec(down, limit);
}

__global__ void read_dynamic_shared(float* out) {
    WARPDRILL_DYNAMIC_SHARED(float, cache);
    out[threadIdx.x] = cache[threadIdx.x];
}

__global__ void shuffle_doubles(double* out) {
    const double mine = threadIdx.x + 0.25;
    out[threadIdx.x] = __shfl_down_sync(kFull, mine, 1);
}

// Two halves of a warp shuffle with their own masks, one after the other.
__global__ void split_masks(int* out) {
    const int lane = threadIdx.x;
    const unsigned half = lane < 16 ? 0x0000ffffu : 0xffff0000u;
    out[lane] = __shfl_sync(half, lane, 0, 16);
}

// ---- broken kernels --------------------------------------------------------

__global__ void barrier_in_branch(float* out) {
    if (threadIdx.x < 16) __syncthreads();
    out[threadIdx.x] = 1.0f;
}

__global__ void barrier_in_both_branches(float* out) {
    if (threadIdx.x % 2 == 0) {
        __syncthreads();
    } else {
        __syncthreads();
    }
    out[threadIdx.x] = 1.0f;
}

__global__ void early_return(const float* in, float* out, int n) {
    __shared__ float cache[64];
    const int i = threadIdx.x;
    if (i >= n) return;
    cache[i] = in[i];
    __syncthreads();
    out[i] = cache[n - 1 - i];
}

__global__ void shuffle_with_exited_lane(int* out) {
    if (threadIdx.x == 31) return;
    out[threadIdx.x] = __shfl_down_sync(kFull, static_cast<int>(threadIdx.x), 1);
}

// Lanes 8-31 return; lanes 0-7 shuffle within groups of 8 with a full mask
// (OneFlow's warp softmax does so when a warp's last rows are past the end).
__global__ void shuffle_in_groups_after_others_returned(int* out) {
    if (threadIdx.x >= 8) return;
    out[threadIdx.x] = __shfl_xor_sync(kFull, static_cast<int>(threadIdx.x), 1, 8);
}

__global__ void shuffle_against_barrier(int* out) {
    int v = threadIdx.x;
    if (threadIdx.x < 16) v = __shfl_down_sync(kFull, v, 1);
    __syncthreads();
    out[threadIdx.x] = v;
}

__global__ void different_intrinsics(int* out) {
    int v = threadIdx.x;
    if (threadIdx.x < 16) {
        v = __shfl_down_sync(kFull, v, 1);
    } else {
        v = __shfl_xor_sync(kFull, v, 1);
    }
    out[threadIdx.x] = v;
}

__global__ void different_widths(int* out) {
    const int width = threadIdx.x < 16 ? 16 : 32;
    out[threadIdx.x] = __shfl_sync(kFull, static_cast<int>(threadIdx.x), 0, width);
}

__global__ void mask_without_self(int* out) {
    out[threadIdx.x] = __shfl_sync(0x1u, static_cast<int>(threadIdx.x), 0);
}

__global__ void full_mask_in_partial_warp(int* out) {
    out[threadIdx.x] = __shfl_sync(kFull, static_cast<int>(threadIdx.x), 0);
}

__global__ void full_mask_shuffle_down(int* out) {
    out[threadIdx.x] = __shfl_down_sync(kFull, static_cast<int>(threadIdx.x), 8);
}

__global__ void bad_width(int* out) {
    out[threadIdx.x] = __shfl_sync(kFull, static_cast<int>(threadIdx.x), 0, 33);
}

// The classic last-warp unroll from before Volta: no __syncwarp between the
// steps, so each lane may read a neighbour's value before or after it changed.
__global__ void volatile_last_warp(const float* in, float* out) {
    __shared__ float partial[64];
    const unsigned tid = threadIdx.x;
    partial[tid] = in[tid] + in[tid + 32];
    if (tid < 32) {
        volatile float* v = partial;
        v[tid] = v[tid] + v[tid + 16];
        v[tid] = v[tid] + v[tid + 8];
        v[tid] = v[tid] + v[tid + 4];
        v[tid] = v[tid] + v[tid + 2];
        v[tid] = v[tid] + v[tid + 1];
    }
    if (tid == 0) out[0] = partial[0];
}

__global__ void sum_of_64_with_syncwarp(const float* in, float* out) {
    __shared__ float partial[64];
    const unsigned tid = threadIdx.x;
    partial[tid] = in[tid] + in[tid + 32];
    partial[tid + 32] = 0.0f;
    __syncwarp();
    float sum = partial[tid];
    for (int offset = 16; offset > 0; offset /= 2) {
        sum += partial[tid + offset];
        __syncwarp();
        partial[tid] = sum;
        __syncwarp();
    }
    if (tid == 0) out[0] = partial[0];
}

__global__ void misaligned_vector_load(const float* in, float* out) {
    const float* p = in + threadIdx.x;
    warpdrill::cpu::detail::check_alignment(p, 16, std::source_location::current());
    out[threadIdx.x] = *p;
}

}  // namespace

TEST_CASE("threadIdx, blockIdx, blockDim and gridDim in three dimensions", "[backend]") {
    const dim3 grid(2, 3, 2), block(4, 2, 3);
    const std::size_t n = 2 * 3 * 2 * 4 * 2 * 3;
    DeviceBuffer<uint3> threads(n), blocks(n);
    DeviceBuffer<dim3> dims(n);
    warpdrill::poison(threads, blocks, dims);
    launch(record_indices, {grid, block}, threads.data(), blocks.data(), dims.data());
    warpdrill::check_launch();
    const auto t = threads.download();
    const auto b = blocks.download();
    std::size_t i = 0;
    for (unsigned bz = 0; bz < 2; ++bz)
        for (unsigned by = 0; by < 3; ++by)
            for (unsigned bx = 0; bx < 2; ++bx)
                for (unsigned tz = 0; tz < 3; ++tz)
                    for (unsigned ty = 0; ty < 2; ++ty)
                        for (unsigned tx = 0; tx < 4; ++tx, ++i) {
                            INFO("element " << i);
                            CHECK((t[i].x == tx && t[i].y == ty && t[i].z == tz));
                            CHECK((b[i].x == bx && b[i].y == by && b[i].z == bz));
                        }
    CHECK(dims.download()[n - 1].z == 3);
}

TEST_CASE("a shared-memory tree reduction is right in every thread order", "[backend]") {
    const int n = 1000;
    std::vector<float> in(n);
    std::iota(in.begin(), in.end(), 1.0f);
    for (ThreadOrder order : {ThreadOrder::ascending, ThreadOrder::descending, ThreadOrder::shuffled}) {
        warpdrill::cpu::ScopedThreadOrder scoped(order, 7);
        DeviceBuffer<float> d_in{std::span<const float>(in)};
        DeviceBuffer<float> sums(4);
        sums.poison();
        launch(tree_reduce<256>, {4, 256}, d_in.data(), sums.data(), n);
        warpdrill::check_launch();
        const auto got = sums.download();
        CHECK(got[0] == 256.0f * 257.0f / 2.0f);
        CHECK(got[0] + got[1] + got[2] + got[3] == 500500.0f);
        const auto stats = warpdrill::cpu::last_launch_stats();
        CHECK(stats.blocks == 4);
        CHECK(stats.threads == 1024);
        CHECK(stats.block_barriers == 4 * 9);
        CHECK(stats.shuffles == 0);
    }
}

TEST_CASE("the shuffled order starts the blocks in an order drawn from its seed", "[backend]") {
    // One worker, so that the blocks come in the order they start.
    struct OneWorker {
        std::optional<std::string> saved;
        OneWorker() {
            if (const char* workers = std::getenv("WARPDRILL_CPU_WORKERS")) saved = workers;
            ::setenv("WARPDRILL_CPU_WORKERS", "1", 1);
        }
        ~OneWorker() {
            if (saved)
                ::setenv("WARPDRILL_CPU_WORKERS", saved->c_str(), 1);
            else
                ::unsetenv("WARPDRILL_CPU_WORKERS");
        }
    } one_worker;
    auto arrivals = [](unsigned blocks, ThreadOrder order, std::uint64_t seed) {
        warpdrill::cpu::ScopedThreadOrder scoped(order, seed);
        DeviceBuffer<unsigned> next(1);
        DeviceBuffer<unsigned> arrived(blocks);
        warpdrill::poison(arrived);
        cudaMemset(next.data(), 0, sizeof(unsigned));
        launch(record_arrival, {blocks, 32}, next.data(), arrived.data());
        warpdrill::check_launch();
        return arrived.download();
    };
    // 100 blocks: a permutation of 256 indices, walked back into [0, 100); 1024 = 4^5: one of 1024.
    for (unsigned blocks : {1u, 2u, 100u, 1024u}) {
        INFO(blocks << " blocks");
        std::vector<unsigned> in_order(blocks);
        std::iota(in_order.begin(), in_order.end(), 0u);
        CHECK(arrivals(blocks, ThreadOrder::ascending, 0) == in_order);
        CHECK(arrivals(blocks, ThreadOrder::descending, 0) == in_order);
        const std::vector<unsigned> first = arrivals(blocks, ThreadOrder::shuffled, 1);
        CHECK(arrivals(blocks, ThreadOrder::shuffled, 1) == first);  // the same seed, the same order
        std::vector<unsigned> sorted = first;
        std::ranges::sort(sorted);
        CHECK(sorted == in_order);  // every block once
        if (blocks >= 100) {
            CHECK(first != in_order);
            CHECK(arrivals(blocks, ThreadOrder::shuffled, 2) != first);
        }
    }
}

TEST_CASE("votes and __syncthreads_count", "[backend]") {
    std::vector<int> predicate(32);
    for (int i = 0; i < 32; ++i) predicate[i] = i % 3 == 0;
    DeviceBuffer<int> d_pred{std::span<const int>(predicate)};
    DeviceBuffer<unsigned> ballot(32);
    DeviceBuffer<int> any(32), all(32), count(32);
    warpdrill::poison(ballot, any, all, count);
    launch(votes, {1, 32}, d_pred.data(), ballot.data(), any.data(), all.data(), count.data());
    warpdrill::check_launch();
    CHECK(ballot.download()[5] == 0x49249249u);
    CHECK(any.download()[0] == 1);
    CHECK(all.download()[0] == 0);
    CHECK(count.download()[31] == 11);
    CHECK(warpdrill::cpu::last_launch_stats().votes == 3);
}

TEST_CASE("atomics are atomic across blocks that run on different OS threads", "[backend]") {
    DeviceBuffer<int> counter(1);
    DeviceBuffer<float> total(1);
    DeviceBuffer<unsigned> maximum(1);
    cudaMemset(counter.data(), 0, sizeof(int));
    cudaMemset(total.data(), 0, sizeof(float));
    cudaMemset(maximum.data(), 0, sizeof(unsigned));
    launch(add_everywhere, {64, 128}, counter.data(), total.data(), maximum.data());
    warpdrill::check_launch();
    CHECK(counter.download()[0] == 64 * 128);
    CHECK(total.download()[0] == 64 * 128 * 0.5f);
    CHECK(maximum.download()[0] == 64 * 128 - 1);
    CHECK(warpdrill::cpu::last_launch_stats().atomics == 3 * 64 * 128);
}

TEST_CASE("atomicInc and atomicDec wrap as CUDA's do", "[backend]") {
    DeviceBuffer<unsigned> up(1);
    DeviceBuffer<unsigned> down(1);
    cudaMemset(up.data(), 0, sizeof(unsigned));
    cudaMemset(down.data(), 0, sizeof(unsigned));
    // 0, 1, ..., 9, 0, ...: 64 * 32 increments leave 2048 % 10; from 0 down,
    // the first decrement wraps to 9, so 2048 of them leave 9 - 2047 % 10.
    launch(wrapping_counters, {64, 32}, up.data(), down.data(), 9u);
    warpdrill::check_launch();
    CHECK(up.download()[0] == 2048 % 10);
    CHECK(down.download()[0] == 9 - 2047 % 10);
    // A value above the limit: atomicInc stores 0, atomicDec stores the limit.
    const unsigned above = 100;
    up.upload(std::span<const unsigned>(&above, 1));
    down.upload(std::span<const unsigned>(&above, 1));
    launch(wrapping_counters, {1, 1}, up.data(), down.data(), 9u);
    warpdrill::check_launch();
    CHECK(up.download()[0] == 0);
    CHECK(down.download()[0] == 9);
}

TEST_CASE("occupancy: the blocks one multiprocessor holds", "[backend]") {
    int blocks = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, read_dynamic_shared, 256, 0) == cudaSuccess);
    CHECK(blocks == 8);
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, read_dynamic_shared, 32, 0) == cudaSuccess);
    CHECK(blocks == 32);
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, read_dynamic_shared, 64, 40 * 1024) ==
          cudaSuccess);
    CHECK(blocks == 5);
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, read_dynamic_shared, 1025, 0) ==
          cudaErrorInvalidValue);
    CHECK(cudaGetLastError() == cudaErrorInvalidValue);  // recorded, as CUDA records it
}

TEST_CASE("dynamic shared memory starts poisoned", "[backend]") {
    DeviceBuffer<float> out(64);
    warpdrill::poison(out);
    launch(read_dynamic_shared, {1, 64, 64 * sizeof(float)}, out.data());
    warpdrill::check_launch();
    CHECK(std::isnan(out.download()[63]));
}

TEST_CASE("shuffles move 8-byte values and sub-warp masks", "[backend][shuffle]") {
    DeviceBuffer<double> doubles(32);
    warpdrill::poison(doubles);
    launch(shuffle_doubles, {1, 32}, doubles.data());
    warpdrill::check_launch();
    const auto d = doubles.download();
    CHECK(d[0] == 1.25);
    CHECK(d[31] == 31.25);

    DeviceBuffer<int> out(32);
    warpdrill::poison(out);
    launch(split_masks, {1, 32}, out.data());
    warpdrill::check_launch();
    CHECK(out.download()[20] == 16);
    CHECK(warpdrill::cpu::last_launch_stats().shuffles == 2);
}

TEST_CASE("launches that break CUDA's limits fail with CUDA's error codes", "[backend][diagnostics]") {
    DeviceBuffer<float> out(2048);
    launch(barrier_in_both_branches, {1, 1025}, out.data());
    CHECK(cudaGetLastError() == cudaErrorInvalidValue);
    launch(barrier_in_both_branches, {1, dim3(32, 32, 2)}, out.data());
    CHECK(cudaGetLastError() == cudaErrorInvalidValue);
    launch(read_dynamic_shared, {1, 32, 48 * 1024 + 1}, out.data());
    CHECK(cudaGetLastError() == cudaErrorInvalidValue);
    launch(read_dynamic_shared, {0, 32}, out.data());
    CHECK(cudaGetLastError() == cudaErrorInvalidValue);
    launch(read_dynamic_shared, {1, 0}, out.data());
    CHECK(cudaGetLastError() == cudaErrorInvalidValue);
    CHECK(cudaGetLastError() == cudaSuccess);
    CHECK_THROWS_AS(warpdrill::check_cuda(cudaErrorInvalidValue), warpdrill::CudaError);
}

TEST_CASE("__syncthreads() reached by only part of a block", "[backend][diagnostics]") {
    DeviceBuffer<float> out(32);
    const std::string message = fault_of([&] { launch(barrier_in_branch, {1, 32}, out.data()); });
    expect_says(message,
                {"threads 0-15 wait at __syncthreads() at cpu-cuda/tests/test_cpu_backend.cpp:",
                 "which threads 16-31 never reached: it sits inside the branch `if (threadIdx.x < 16)"});
}

TEST_CASE("__syncthreads() at two different places", "[backend][diagnostics]") {
    DeviceBuffer<float> out(32);
    const std::string message = fault_of([&] { launch(barrier_in_both_branches, {1, 8}, out.data()); });
    INFO(message);
    CHECK(contains(message,
                   "threads 0, 2, 4, 6 wait at __syncthreads() at cpu-cuda/tests/test_cpu_backend.cpp:"));
    CHECK(contains(message, "while threads 1, 3, 5, 7 wait at thread 1"));
}

TEST_CASE("a thread that returns while others wait at a barrier", "[backend][diagnostics]") {
    std::vector<float> in(64, 1.0f);
    DeviceBuffer<float> d_in{std::span<const float>(in)}, out(64);
    const std::string message = fault_of([&] { launch(early_return, {1, 64}, d_in.data(), out.data(), 40); });
    expect_says(message, {"in block (0,0,0): threads 0-39 wait at __syncthreads()",
                          "which threads 40-63 never reached: they returned from the kernel at "
                          "cpu-cuda/tests/test_cpu_backend.cpp:",
                          "(`if (i >= n) return;`)"});
}

TEST_CASE("lanes of a mask that returned take no part; a shuffle that reads one is named",
          "[backend][diagnostics]") {
    warpdrill::cpu::take_warnings();
    DeviceBuffer<int> out(32);
    warpdrill::poison(out);
    launch(shuffle_in_groups_after_others_returned, {1, 32}, out.data());
    warpdrill::check_launch();
    const std::vector<int> got = out.download();
    for (int lane = 0; lane < 8; ++lane) CHECK(got[lane] == (lane ^ 1));
    const std::vector<std::string> warnings = warpdrill::cpu::take_warnings();
    REQUIRE(warnings.size() == 1);
    CHECK(contains(warnings[0], "names lanes that have returned from the kernel (mask 0xffffffff, returned "
                                "0xffffff00)"));

    const std::string message = fault_of([&] { launch(shuffle_with_exited_lane, {1, 32}, out.data()); });
    expect_says(message,
                {"__shfl_down_sync() at cpu-cuda/tests/test_cpu_backend.cpp:",
                 "so it reads lane 31, which has returned from the kernel (thread 31 (warp 0, lane 31))",
                 "If the target thread is inactive, the retrieved value is undefined."});
}

TEST_CASE("a shuffle whose other lanes wait at __syncthreads()", "[backend][diagnostics]") {
    DeviceBuffer<int> out(32);
    const std::string message = fault_of([&] { launch(shuffle_against_barrier, {1, 32}, out.data()); });
    expect_says(message, {"deadlock: thread 0 (warp 0, lane 0) is at __shfl_down_sync()",
                          "waits for lane 16, but thread 16 (warp 0, lane 16) is at __syncthreads()"});
}

TEST_CASE("lanes of one mask at different intrinsics or widths", "[backend][diagnostics]") {
    DeviceBuffer<int> out(32);
    std::string message = fault_of([&] { launch(different_intrinsics, {1, 32}, out.data()); });
    INFO(message);
    CHECK(
        contains(message, "lanes of one mask disagree: thread 0 (warp 0, lane 0) is at __shfl_down_sync()"));
    CHECK(contains(message, "thread 16 (warp 0, lane 16) is at __shfl_xor_sync()"));
    message = fault_of([&] { launch(different_widths, {1, 32}, out.data()); });
    CHECK(contains(message, "with mask 0xffffffff and width 16, but thread 16"));
}

TEST_CASE("masks that leave out the caller, and bad widths", "[backend][diagnostics]") {
    DeviceBuffer<int> out(48);
    std::string message = fault_of([&] { launch(mask_without_self, {1, 32}, out.data()); });
    CHECK(contains(message, "thread 1 (warp 0, lane 1): __shfl_sync() at"));
    CHECK(contains(message, "mask 0x1, which leaves out the calling lane 1"));
    message = fault_of([&] { launch(bad_width, {1, 32}, out.data()); });
    CHECK(contains(message, "width 33: width must be a power of two from 1 to 32"));
}

TEST_CASE("a full mask in a partial warp: lanes that do not exist count as exited, a read from one is named",
          "[backend][diagnostics]") {
    warpdrill::cpu::take_warnings();
    DeviceBuffer<int> out(48);
    warpdrill::poison(out);
    launch(full_mask_in_partial_warp, {1, 48}, out.data());
    warpdrill::check_launch();
    const std::vector<int> got = out.download();
    for (int thread = 0; thread < 48; ++thread) CHECK(got[thread] == thread / 32 * 32);  // each warp's lane 0
    const std::vector<std::string> warnings = warpdrill::cpu::take_warnings();
    REQUIRE(warnings.size() == 1);
    CHECK(contains(warnings[0],
                   "names lanes that do not exist (mask 0xffffffff, missing 0xffff0000): the block has 48 threads"));
    CHECK(contains(warnings[0], "rule 2.1, advisory"));

    const std::string message = fault_of([&] { launch(full_mask_shuffle_down, {1, 16}, out.data()); });
    CHECK(contains(message, "so it reads lane 16, which does not exist (the block has 16 threads"));
}

TEST_CASE("the volatile last-warp unroll depends on thread order; __syncwarp fixes it",
          "[backend][diagnostics]") {
    std::vector<float> in(64);
    std::iota(in.begin(), in.end(), 1.0f);
    DeviceBuffer<float> d_in{std::span<const float>(in)}, out(1);
    auto run = [&](auto kernel, ThreadOrder order) {
        warpdrill::cpu::ScopedThreadOrder scoped(order);
        out.poison();
        launch(kernel, {1, 64}, d_in.data(), out.data());
        warpdrill::check_launch();
        return out.download()[0];
    };
    const float ascending = run(volatile_last_warp, ThreadOrder::ascending);
    const float descending = run(volatile_last_warp, ThreadOrder::descending);
    INFO("ascending " << ascending << ", descending " << descending);
    CHECK(ascending != descending);
    CHECK((ascending != 2080.0f || descending != 2080.0f));
    CHECK(run(sum_of_64_with_syncwarp, ThreadOrder::ascending) == 2080.0f);
    CHECK(run(sum_of_64_with_syncwarp, ThreadOrder::descending) == 2080.0f);
    CHECK(warpdrill::cpu::last_launch_stats().warp_syncs == 2 * 11);  // two warps
}

TEST_CASE("a misaligned 16-byte access faults as on a GPU", "[backend][diagnostics]") {
    DeviceBuffer<float> in(64), out(32);
    const std::string message = fault_of([&] {
        launch(misaligned_vector_load, {1, 32}, in.data(), out.data());
    });
    CHECK(contains(message, "thread 1 (warp 0, lane 1): misaligned 16-byte access"));
}

namespace {
__global__ void misaligned_pack(const float* in, float* out) {
    const auto pack = warpdrill::load_pack<float, 4>(in + 1);
    out[threadIdx.x] = pack.values[0];
}
}  // namespace

TEST_CASE("a misaligned Pack names the line that loads it", "[backend][diagnostics]") {
    DeviceBuffer<float> in(64), out(32);
    const std::string message = fault_of([&] { launch(misaligned_pack, {1, 32}, in.data(), out.data()); });
    expect_says(message, {"misaligned 16-byte access at cpu-cuda/tests/test_cpu_backend.cpp:"});
}

TEST_CASE("a refused registration says why, where compute-sanitizer reports the call",
          "[backend][diagnostics]") {
    warpdrill::cpu::take_warnings();
    DeviceBuffer<float> device(64);
    std::vector<float> host(1024);
    CHECK(cudaHostRegister(device.data(), 256, 0) == cudaErrorInvalidValue);
    CHECK(cudaHostRegister(host.data(), 4096, 0) == cudaSuccess);
    CHECK(cudaHostRegister(host.data() + 16, 64, 0) == cudaErrorHostMemoryAlreadyRegistered);
    CHECK(cudaHostUnregister(host.data()) == cudaSuccess);
    CHECK(cudaHostUnregister(host.data()) == cudaErrorHostMemoryNotRegistered);
    cudaGetLastError();
    const std::vector<std::string> warnings = warpdrill::cpu::take_warnings();
    REQUIRE(warnings.size() == 3);
    expect_says(warnings[0], {"cudaHostRegister at cpu-cuda/tests/test_cpu_backend.cpp:",
                              "returned cudaErrorInvalidValue: the memory is not pageable host memory"});
    expect_says(warnings[1],
                {"returned cudaErrorHostMemoryAlreadyRegistered: part of the range is registered"});
    expect_says(warnings[2], {"cudaHostUnregister at", "returned cudaErrorHostMemoryNotRegistered"});
}
