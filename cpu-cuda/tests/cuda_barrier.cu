// cuda::barrier<cuda::thread_scope_block> (<cuda/barrier>): what a phase
// orders and what a token waits for. The expected answers are an H200's,
// measured by cpu-cuda/tests/gpu/barrier_probe.cu
// (results/barrier-probe-h200.txt). This file compiles with nvcc too: on a
// GPU it holds libcu++ to the same answers.
#include <algorithm>
#include <vector>

#include "gpu/barrier_kernels.cuh"
#include "warpdrill/catch.h"
#include "warpdrill/cuda.h"
#include "warpdrill/host.h"

using warpdrill::DeviceBuffer;

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
