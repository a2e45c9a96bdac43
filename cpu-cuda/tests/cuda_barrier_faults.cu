// The mistakes around a cuda::barrier that a GPU shows (an H200:
// cpu-cuda/tests/gpu/barrier_probe.cu, results/barrier-probe-h200.txt) and
// the words the CPU backend names them with: synccheck's missing init,
// missing wait and barrier overflow, a hang where no arrival will end a
// wait, racecheck's race on a read between arrive() and wait(), and its
// silence on a write there.
#include <cuda/barrier>

// A __shared__ variable never runs its constructor, and cuda::barrier has one: init() sets it up.
#pragma nv_diag_suppress static_var_with_dynamic_init

#include <string>
#include <utility>

#include "fault_of.h"
#include "warpdrill/catch.h"
#include "warpdrill/cuda.h"
#include "warpdrill/host.h"

using warpdrill::DeviceBuffer;
using warpdrill::launch;
using warpdrill::testing::expect_says;
using warpdrill::testing::fault_of;

namespace {

using Barrier = cuda::barrier<cuda::thread_scope_block>;

__global__ void no_init(int* out) {
    __shared__ Barrier barrier;
    barrier.arrive_and_wait();
    out[threadIdx.x] = 1;
}

// A barrier of 32 in a block of 64: the second warp's arrivals complete a
// second phase before the first warp's waiters return.
__global__ void more_arrivals_than_expected(int* out) {
    __shared__ Barrier barrier;
    if (threadIdx.x == 0) init(&barrier, 32);
    __syncthreads();
    barrier.arrive_and_wait();
    out[threadIdx.x] = 1;
}

__global__ void leave_before_arriving(int* out) {
    __shared__ Barrier barrier;
    if (threadIdx.x == 0) init(&barrier, blockDim.x);
    __syncthreads();
    if (threadIdx.x == 5) return;
    barrier.arrive_and_wait();
    out[threadIdx.x] = 1;
}

// Half the block waits on the barrier, the other half at __syncthreads().
__global__ void wait_beside_syncthreads(int* out) {
    __shared__ Barrier barrier;
    if (threadIdx.x == 0) init(&barrier, blockDim.x);
    __syncthreads();
    if (threadIdx.x < 32) {
        barrier.arrive_and_wait();
    } else {
        __syncthreads();
    }
    out[threadIdx.x] = 1;
}

__global__ void arrive_too_often(int* out) {
    __shared__ Barrier barrier;
    if (threadIdx.x == 0) init(&barrier, 4);
    __syncthreads();
    if (threadIdx.x == 0) (void)barrier.arrive(5);
    out[threadIdx.x] = 1;
}

// Reads another warp's element between arrive() and wait().
__global__ void read_before_wait(int* out) {
    __shared__ Barrier barrier;
    __shared__ int staged[64];
    if (threadIdx.x == 0) init(&barrier, blockDim.x);
    __syncthreads();
    staged[threadIdx.x] = threadIdx.x;
    Barrier::arrival_token token = barrier.arrive();
    out[threadIdx.x] = staged[63 - threadIdx.x];
    barrier.wait(std::move(token));
}

// Writes between arrive() and wait(), read by another warp after its wait:
// racecheck reports no hazard here (measured), and neither does the backend.
__global__ void write_after_arrive(int* out) {
    __shared__ Barrier barrier;
    __shared__ int flag;
    if (threadIdx.x == 0) init(&barrier, blockDim.x);
    __syncthreads();
    Barrier::arrival_token token = barrier.arrive();
    if (threadIdx.x == 32) flag = 7;
    barrier.wait(std::move(token));
    if (threadIdx.x == 0) *out = flag;
}

}  // namespace

TEST_CASE("a cuda::barrier used before init() is synccheck's missing init", "[cuda-barrier][diagnostics]") {
    DeviceBuffer<int> out(64);
    const std::string message = fault_of([&] { launch(no_init, {1, 64}, out.data()); });
    expect_says(message, {"cuda::barrier::arrive() at cpu-cuda/tests/cuda_barrier_faults.cu:",
                          "init() has not set up in this block", "Missing init"});
}

TEST_CASE("a phase that completes twice before its waiters return leaves them waiting, as on a GPU",
          "[cuda-barrier][diagnostics]") {
    DeviceBuffer<int> out(64);
    const std::string message = fault_of([&] { launch(more_arrivals_than_expected, {1, 64}, out.data()); });
    expect_says(
        message,
        {"deadlock: threads 0-30 wait at cuda::barrier::wait() at cpu-cuda/tests/cuda_barrier_faults.cu:",
         "with a token of phase 0", "completed phase 0 and phase 1", "wait for phase 2", "Missing wait",
         "an H200 hangs"});
}

TEST_CASE("a wait that no arrival will end is a deadlock that names the missing arrivals",
          "[cuda-barrier][diagnostics]") {
    DeviceBuffer<int> out(64);
    std::string message = fault_of([&] { launch(leave_before_arriving, {1, 64}, out.data()); });
    expect_says(message, {"wait at cuda::barrier::wait() at cpu-cuda/tests/cuda_barrier_faults.cu:",
                          "for phase 0", "63 of its 64 expected arrivals", "thread 5 has left the kernel"});

    message = fault_of([&] { launch(wait_beside_syncthreads, {1, 64}, out.data()); });
    expect_says(message, {"threads 0-31 wait at cuda::barrier::wait()", "32 of its 64 expected arrivals",
                          "is at __syncthreads() at cpu-cuda/tests/cuda_barrier_faults.cu:"});
}

TEST_CASE("arriving more often than a phase expects breaks arrive()'s precondition",
          "[cuda-barrier][diagnostics]") {
    DeviceBuffer<int> out(64);
    const std::string message = fault_of([&] { launch(arrive_too_often, {1, 64}, out.data()); });
    expect_says(message, {"arrives 5 times at a phase of a cuda::barrier that expects 4 more arrivals",
                          "update is less than or equal to the expected count", "Barrier overflow"});
}

TEST_CASE("a read between arrive() and wait() races with the writes the phase releases, as racecheck says",
          "[cuda-barrier][diagnostics][race]") {
    warpdrill::cpu::take_warnings();
    DeviceBuffer<int> out(64);
    const std::string message = fault_of([&] { launch(read_before_wait, {1, 64}, out.data()); });
    expect_says(message, {"race on staged[", "staged[threadIdx.x] = threadIdx.x;",
                          "out[threadIdx.x] = staged[63 - threadIdx.x];"});
    warpdrill::cpu::take_warnings();

    launch(write_after_arrive, {1, 64}, out.data());
    warpdrill::check_launch();
    CHECK(out.download()[0] == 7);
}
