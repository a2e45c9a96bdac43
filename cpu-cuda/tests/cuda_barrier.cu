// cuda::barrier<cuda::thread_scope_block> (<cuda/barrier>): what a phase
// orders and what a token waits for. The expected answers are an H200's,
// measured by cpu-cuda/tests/gpu/barrier_probe.cu
// (results/barrier-probe-h200.txt). This file compiles with nvcc too: on a
// GPU it holds libcu++ to the same answers.
#include <cuda/barrier>

// A __shared__ variable never runs its constructor, and cuda::barrier has one: init() sets it up.
#pragma nv_diag_suppress static_var_with_dynamic_init

#include <algorithm>
#include <utility>
#include <vector>

#include "warpdrill/catch.h"
#include "warpdrill/cuda.h"
#include "warpdrill/host.h"

using warpdrill::DeviceBuffer;

namespace {

using Barrier = cuda::barrier<cuda::thread_scope_block>;

// Each warp's lane 0 writes its warp's sum; thread 0 adds them once a phase
// of the whole block has completed.
__global__ void sum_with_barrier(const int* in, int* out) {
    __shared__ Barrier barrier;
    __shared__ int warp_sums[32];
    if (threadIdx.x == 0) init(&barrier, blockDim.x);
    __syncthreads();
    int value = in[blockIdx.x * blockDim.x + threadIdx.x];
    for (int offset = 16; offset > 0; offset /= 2) value += __shfl_down_sync(0xffffffffu, value, offset);
    if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = value;
    barrier.arrive_and_wait();
    if (threadIdx.x == 0) {
        int total = 0;
        for (unsigned warp = 0; warp < blockDim.x / 32; ++warp) total += warp_sums[warp];
        out[blockIdx.x] = total;
    }
}

// arrive() and wait() apart, with work between them that needs no other thread.
__global__ void split_arrive_and_wait(const int* in, int* out) {
    __shared__ Barrier barrier;
    __shared__ int staged[256];
    if (threadIdx.x == 0) init(&barrier, blockDim.x);
    __syncthreads();
    staged[threadIdx.x] = in[threadIdx.x];
    Barrier::arrival_token token = barrier.arrive();
    const int own = in[threadIdx.x] * 2;
    barrier.wait(std::move(token));
    out[threadIdx.x] = own + staged[(threadIdx.x + 128) % blockDim.x];
}

// Warp 1 takes part in one phase and drops out; warp 0 goes on alone.
__global__ void drop_out(int* out) {
    __shared__ Barrier barrier;
    if (threadIdx.x == 0) init(&barrier, blockDim.x);
    __syncthreads();
    barrier.arrive_and_wait();
    if (threadIdx.x >= 32) {
        barrier.arrive_and_drop();
        return;
    }
    barrier.arrive_and_wait();
    barrier.arrive_and_wait();
    out[threadIdx.x] = 1;
}

// The completion function runs once a phase, before any waiter goes on.
struct CountPhase {
    int* phases;
    __device__ void operator()() noexcept { ++*phases; }
};
__global__ void count_phases(int* out) {
    __shared__ cuda::barrier<cuda::thread_scope_block, CountPhase> barrier;
    __shared__ int phases;
    if (threadIdx.x == 0) {
        phases = 0;
        init(&barrier, blockDim.x, CountPhase{&phases});
    }
    __syncthreads();
    for (int round = 0; round < 3; ++round) {
        barrier.arrive_and_wait();
        out[round * blockDim.x + threadIdx.x] = phases;
    }
}

// A barrier of one thread: a token of phase 1 waited for once phase 1 has completed.
__global__ void wait_for_a_completed_phase(int* out) {
    __shared__ Barrier barrier;
    init(&barrier, 1);
    barrier.arrive_and_wait();
    Barrier::arrival_token second = barrier.arrive();
    out[0] = 1;
    barrier.wait(std::move(second));
    out[0] = 2;
}

}  // namespace

TEST_CASE("a phase of a cuda::barrier orders the writes before each arrival before the reads after each wait",
          "[cuda-barrier]") {
    std::vector<int> ones(4 * 256, 1);
    DeviceBuffer<int> in(ones), sums(4);
    warpdrill::launch(sum_with_barrier, {4, 256}, in.data(), sums.data());
    warpdrill::check_launch();
    CHECK(sums.download() == std::vector<int>(4, 256));

    DeviceBuffer<int> out(256);
    warpdrill::launch(split_arrive_and_wait, {1, 256}, in.data(), out.data());
    warpdrill::check_launch();
    CHECK(out.download() == std::vector<int>(256, 3));
}

TEST_CASE("arrive_and_drop() takes a thread off the later phases", "[cuda-barrier]") {
    DeviceBuffer<int> out(std::vector<int>(64, 0));
    warpdrill::launch(drop_out, {1, 64}, out.data());
    warpdrill::check_launch();
    std::vector<int> expected(64, 0);
    std::fill(expected.begin(), expected.begin() + 32, 1);
    CHECK(out.download() == expected);
}

TEST_CASE("a cuda::barrier's completion function runs once a phase, before the waiters go on",
          "[cuda-barrier]") {
    DeviceBuffer<int> out(3 * 64);
    warpdrill::launch(count_phases, {1, 64}, out.data());
    warpdrill::check_launch();
    const std::vector<int> got = out.download();
    for (int round = 0; round < 3; ++round) {
        CAPTURE(round);
        CHECK(std::vector<int>(got.begin() + round * 64, got.begin() + (round + 1) * 64) ==
              std::vector<int>(64, round + 1));
    }
}

TEST_CASE("a token of a phase that has completed does not wait", "[cuda-barrier]") {
    DeviceBuffer<int> out(std::vector<int>{0});
    warpdrill::launch(wait_for_a_completed_phase, {1, 1}, out.data());
    warpdrill::check_launch();
    CHECK(out.download()[0] == 2);
}
