// cuda::barrier<cuda::thread_scope_block> (<cuda/barrier>): what a phase
// orders and what a token waits for. The expected answers are an H200's,
// measured by cpu-cuda/tests/gpu/barrier_probe.cu
// (results/barrier-probe-h200.txt). This file compiles with nvcc too: on a
// GPU it holds libcu++ to the same answers.
#include <algorithm>
#include <utility>
#include <vector>

#include <cuda/std/chrono>

#include "gpu/barrier_kernels.cuh"
#include "warpdrill/catch.h"
#include "warpdrill/cuda.h"
#include "warpdrill/host.h"

using warpdrill::DeviceBuffer;

namespace {

// Warp 1 stages a value a lane for each of two phases and arrives, waiting
// for its first phase with try_wait_for and its token; warp 0 never arrives
// and watches the phases by parity: try_wait_parity_for in a loop for the
// first, wait_parity for the second (the backend runs warp 0 first, so its
// first tries come before any arrival). out[lane] = in[lane] * 3 and
// out[32 + lane] = in[lane] * 5.
__global__ void watched_phases(const int* in, int* out) {
    __shared__ Barrier barrier;
    __shared__ int staged[2][32];
    init_by_thread_0(barrier, 32);
    const int lane = threadIdx.x % 32;
    const cuda::std::chrono::nanoseconds a_while(1000);
    if (threadIdx.x >= 32) {
        staged[0][lane] = in[lane] * 3;
        Barrier::arrival_token token = barrier.arrive();
        while (!barrier.try_wait_for(std::move(token), a_while)) {
        }
        staged[1][lane] = in[lane] * 5;
        static_cast<void>(barrier.arrive());
    } else {
        while (!barrier.try_wait_parity_for(false, a_while)) {
        }
        out[lane] = staged[0][lane];
        barrier.wait_parity(true);
        out[32 + lane] = staged[1][lane];
    }
}

}  // namespace

TEST_CASE("a phase of a cuda::barrier orders the writes before each arrival before the reads after each wait",
          "[cuda-barrier]") {
    std::vector<int> ones(4 * 256, 1);
    DeviceBuffer<int> in(ones), sums(4);
    warpdrill::launch(sum, {4, 256}, in.data(), sums.data());
    warpdrill::check_launch();
    CHECK(sums.download() == std::vector<int>(4, 256));

    DeviceBuffer<int> out(256);
    warpdrill::launch(split_sum, {1, 256}, in.data(), out.data());
    warpdrill::check_launch();
    CHECK(out.download() == std::vector<int>(256, 3));
}

TEST_CASE("arrive_and_drop() takes a thread off the later phases", "[cuda-barrier]") {
    DeviceBuffer<int> out(std::vector<int>(64, 0));
    warpdrill::launch(drop, {1, 64}, out.data());
    warpdrill::check_launch();
    std::vector<int> expected(64, 0);
    std::fill(expected.begin(), expected.begin() + 32, 1);
    CHECK(out.download() == expected);
}

TEST_CASE("a cuda::barrier's completion function runs once a phase, before the waiters go on",
          "[cuda-barrier]") {
    DeviceBuffer<int> out(3 * 64);
    warpdrill::launch(completion, {1, 64}, out.data());
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
    warpdrill::launch(parity, {1, 1}, out.data());
    warpdrill::check_launch();
    CHECK(out.download()[0] == 2);
}

TEST_CASE(
    "threads that never arrive watch a cuda::barrier's phases by parity; try_wait_for ends once a phase has",
    "[cuda-barrier]") {
    std::vector<int> values(32);
    for (int lane = 0; lane < 32; ++lane) values[lane] = lane + 1;
    DeviceBuffer<int> in(values), out(64);
    out.poison();
    warpdrill::launch(watched_phases, {1, 64}, in.data(), out.data());
    warpdrill::check_launch();
    std::vector<int> expected(64);
    for (int lane = 0; lane < 32; ++lane) {
        expected[lane] = values[lane] * 3;
        expected[32 + lane] = values[lane] * 5;
    }
    CHECK(out.download() == expected);
}
