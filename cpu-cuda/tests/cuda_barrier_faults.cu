// The mistakes around a cuda::barrier that a GPU shows (an H200:
// cpu-cuda/tests/gpu/barrier_probe.cu, results/barrier-probe-h200.txt) and
// the words the CPU backend names them with: synccheck's missing init,
// missing wait and barrier overflow, a hang where no arrival will end a
// wait, racecheck's race on a read between arrive() and wait(), and its
// silence on a write there.
#include <cuda/pipeline>
#include <cooperative_groups.h>

#include <chrono>
#include <string>

#include "fault_of.h"
#include "gpu/barrier_kernels.cuh"
#include "warpdrill/catch.h"
#include "warpdrill/cuda.h"
#include "warpdrill/host.h"

using warpdrill::DeviceBuffer;
using warpdrill::launch;
using warpdrill::testing::expect_says;
using warpdrill::testing::fault_of;

namespace {

// Half the block waits on the barrier, the other half at __syncthreads().
__global__ void wait_beside_syncthreads(int* out) {
    __shared__ Barrier barrier;
    init_by_thread_0(barrier, blockDim.x);
    if (threadIdx.x < 32) {
        barrier.arrive_and_wait();
    } else {
        __syncthreads();
    }
    out[threadIdx.x] = 1;
}

// The producers never commit: the consumers wait for a stage that never fills.
__global__ void consume_uncommitted(int* out) {
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> state;
    const auto role = threadIdx.x < 32 ? cuda::pipeline_role::producer : cuda::pipeline_role::consumer;
    auto pipe = cuda::make_pipeline(cooperative_groups::this_thread_block(), &state, role);
    if (threadIdx.x >= 32) {
        pipe.consumer_wait();
        out[threadIdx.x] = 1;
        pipe.consumer_release();
    }
}

// The consumers take the first stage and never release it: the producers,
// round the two stages, wait to fill it again.
__global__ void produce_unreleased(int* out) {
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> state;
    const auto role = threadIdx.x < 32 ? cuda::pipeline_role::producer : cuda::pipeline_role::consumer;
    auto pipe = cuda::make_pipeline(cooperative_groups::this_thread_block(), &state, role);
    if (threadIdx.x < 32) {
        for (int tile = 0; tile < 3; ++tile) {
            pipe.producer_acquire();
            pipe.producer_commit();
        }
    } else {
        pipe.consumer_wait();
        out[threadIdx.x] = 1;
    }
}

// One warp tries a phase that expects the whole block's arrivals; the other
// warp never arrives.
__global__ void try_unarrived_phase(int* out) {
    __shared__ Barrier barrier;
    init_by_thread_0(barrier, blockDim.x);
    if (threadIdx.x < 32) {
        while (!barrier.try_wait_parity_for(false, std::chrono::nanoseconds(100))) {
        }
    }
    out[threadIdx.x] = 1;
}

}  // namespace

TEST_CASE("a cuda::barrier used before init() is synccheck's missing init", "[cuda-barrier][diagnostics]") {
    DeviceBuffer<int> out(64);
    const std::string message = fault_of([&] { launch(uninitialized, {1, 64}, out.data()); });
    expect_says(message, {"cuda::barrier::arrive() at cpu-cuda/tests/gpu/barrier_kernels.cuh:",
                          "init() has not set up in this block", "Missing init"});
}

TEST_CASE("a phase that completes twice before its waiters return leaves them waiting, as on a GPU",
          "[cuda-barrier][diagnostics]") {
    DeviceBuffer<int> out(64);
    const std::string message = fault_of([&] { launch(over_arrival, {1, 64}, out.data()); });
    expect_says(
        message,
        {"deadlock: threads 0-30 wait at cuda::barrier::wait() at cpu-cuda/tests/gpu/barrier_kernels.cuh:",
         "with a token of phase 0", "completed phase 0 and phase 1", "wait for phase 2", "Missing wait",
         "an H200 hangs"});
}

TEST_CASE("a wait that no arrival will end is a deadlock that names the missing arrivals",
          "[cuda-barrier][diagnostics]") {
    DeviceBuffer<int> out(64);
    std::string message = fault_of([&] { launch(exit_without_arriving, {1, 64}, out.data()); });
    expect_says(message, {"wait at cuda::barrier::wait() at cpu-cuda/tests/gpu/barrier_kernels.cuh:",
                          "for phase 0", "63 of its 64 expected arrivals", "thread 5 has left the kernel"});

    message = fault_of([&] { launch(wait_beside_syncthreads, {1, 64}, out.data()); });
    expect_says(message, {"threads 0-31 wait at cuda::barrier::wait()", "32 of its 64 expected arrivals",
                          "is at __syncthreads() at cpu-cuda/tests/cuda_barrier_faults.cu:"});
}

TEST_CASE("a try_wait loop that no arrival will end is the barrier's deadlock, once only tries are left",
          "[cuda-barrier][diagnostics]") {
    DeviceBuffer<int> out(64);
    const std::string message = fault_of([&] { launch(try_unarrived_phase, {1, 64}, out.data()); });
    expect_says(message,
                {"threads 0-31 wait at cuda::barrier::try_wait_*() at cpu-cuda/tests/cuda_barrier_faults.cu:",
                 "for phase 0", "0 of its 64 expected arrivals", "threads 32-63 have left the kernel"});
}

TEST_CASE("arriving more often than a phase expects breaks arrive()'s precondition",
          "[cuda-barrier][diagnostics]") {
    DeviceBuffer<int> out(64);
    const std::string message = fault_of([&] { launch(arrive_past_count, {1, 64}, out.data()); });
    expect_says(message, {"arrives 5 times at a phase of a cuda::barrier that expects 4 more arrivals",
                          "update is less than or equal to the expected count", "Barrier overflow"});
}

TEST_CASE("a read between arrive() and wait() races with the writes the phase releases, as racecheck says",
          "[cuda-barrier][diagnostics][race]") {
    warpdrill::cpu::take_warnings();
    DeviceBuffer<int> out(64);
    warpdrill::poison(out);
    const std::string message = fault_of([&] { launch(read_before_wait, {1, 64}, out.data()); });
    expect_says(message, {"race on staged[", "staged[threadIdx.x] = threadIdx.x;",
                          "out[threadIdx.x] = staged[63 - threadIdx.x];"});
    warpdrill::cpu::take_warnings();

    launch(write_after_arrive, {1, 64}, out.data());
    warpdrill::check_launch();
    CHECK(out.download()[0] == 7);
}

TEST_CASE("a block pipeline's waits that no commit or release will end are named at the pipeline's call",
          "[cuda-barrier][cuda-pipeline][diagnostics]") {
    DeviceBuffer<int> out(64);
    std::string message = fault_of([&] { launch(consume_uncommitted, {1, 64}, out.data()); });
    expect_says(message, {"deadlock: threads 32-63 wait at cuda::pipeline::consumer_wait() at "
                          "cpu-cuda/tests/cuda_barrier_faults.cu:",
                          "(its round 0), which 0 of its 32 producers have committed",
                          "threads 0-31 have left the kernel"});

    message = fault_of([&] { launch(produce_unreleased, {1, 64}, out.data()); });
    expect_says(message, {"deadlock: threads 0-31 wait at cuda::pipeline::producer_acquire() at "
                          "cpu-cuda/tests/cuda_barrier_faults.cu:",
                          "to be released (its round 0), which 0 of its 32 consumers have released",
                          "threads 32-63 have left the kernel"});
}
