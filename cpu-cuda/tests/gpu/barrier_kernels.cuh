// The kernels that ask what cuda::barrier<cuda::thread_scope_block> does:
// run one at a time on a GPU by barrier_probe.cu (results/barrier-probe-h200.txt),
// and on both backends by cpu-cuda/tests/cuda_barrier.cu and
// cuda_barrier_faults.cu, which hold the CPU backend to the GPU's answers.
// Each file that includes it gets copies of its own (an unnamed namespace).
#pragma once

#include <cuda/barrier>

#include <cstddef>
#include <utility>

// A __shared__ variable never runs its constructor, and cuda::barrier has one: init() sets it up.
#pragma nv_diag_suppress static_var_with_dynamic_init

namespace {

using Barrier = cuda::barrier<cuda::thread_scope_block>;

// Thread 0 sets the barrier up for `expected` arrivals a phase, before any thread uses it.
__device__ void init_by_thread_0(Barrier& barrier, std::ptrdiff_t expected) {
    if (threadIdx.x == 0) init(&barrier, expected);
    __syncthreads();
}

// Each warp's lane 0 writes its warp's sum; thread 0 adds them once a phase
// of the whole block has completed (arrive_and_wait): out[block] = its sum.
__global__ void sum(const int* in, int* out) {
    __shared__ Barrier barrier;
    __shared__ int warp_sums[32];
    init_by_thread_0(barrier, blockDim.x);
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

// The same with arrive() and wait() apart, independent work between them.
__global__ void split_sum(const int* in, int* out) {
    __shared__ Barrier barrier;
    __shared__ int staged[256];
    init_by_thread_0(barrier, blockDim.x);
    staged[threadIdx.x] = in[threadIdx.x];
    Barrier::arrival_token token = barrier.arrive();
    const int own = in[threadIdx.x] * 2;  // work that needs no other thread
    barrier.wait(std::move(token));
    out[threadIdx.x] = own + staged[(threadIdx.x + 128) % blockDim.x];
}

// A write after arrive(), read by another warp after its wait(): nothing orders the two.
__global__ void write_after_arrive(int* out) {
    __shared__ Barrier barrier;
    __shared__ int flag;
    init_by_thread_0(barrier, blockDim.x);
    Barrier::arrival_token token = barrier.arrive();
    if (threadIdx.x == 32) flag = 7;
    barrier.wait(std::move(token));
    if (threadIdx.x == 0) *out = flag;
}

// A read of another warp's write before the phase it arrived at completes.
__global__ void read_before_wait(int* out) {
    __shared__ Barrier barrier;
    __shared__ int staged[64];
    init_by_thread_0(barrier, blockDim.x);
    staged[threadIdx.x] = threadIdx.x;
    Barrier::arrival_token token = barrier.arrive();
    out[threadIdx.x] = staged[63 - threadIdx.x];
    barrier.wait(std::move(token));
}

// Warp 1 takes part in one phase and drops out; warp 0 goes on alone for two more.
__global__ void drop(int* out) {
    __shared__ Barrier barrier;
    init_by_thread_0(barrier, blockDim.x);
    barrier.arrive_and_wait();
    if (threadIdx.x >= 32) {
        barrier.arrive_and_drop();
        return;
    }
    barrier.arrive_and_wait();
    barrier.arrive_and_wait();
    out[threadIdx.x] = 1;
}

// A completion function runs once a phase, before any waiter goes on.
struct CountPhase {
    int* phases;
    __device__ void operator()() noexcept { ++*phases; }
};
__global__ void completion(int* out) {
    using Counting = cuda::barrier<cuda::thread_scope_block, CountPhase>;
    __shared__ Counting barrier;
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

// One thread, a barrier of one: a token of phase 0 waited for once phases 0
// and 1 have completed (the barrier is in phase 2).
__global__ void old_token(int* out) {
    __shared__ Barrier barrier;
    init(&barrier, 1);
    Barrier::arrival_token first = barrier.arrive();
    barrier.arrive_and_wait();
    out[0] = 1;
    barrier.wait(std::move(first));
    out[0] = 2;
}
// The same, a token of phase 1 once phases 0 and 1 have completed.
__global__ void parity(int* out) {
    __shared__ Barrier barrier;
    init(&barrier, 1);
    barrier.arrive_and_wait();
    Barrier::arrival_token second = barrier.arrive();
    out[0] = 1;
    barrier.wait(std::move(second));
    out[0] = 2;
}

// No init(): the barrier's shared memory holds whatever was there.
__global__ void uninitialized(int* out) {
    __shared__ Barrier barrier;
    barrier.arrive_and_wait();
    out[threadIdx.x] = 1;
}

// A barrier of 32 in a block of 64: each thread arrives once, two phases complete.
__global__ void over_arrival(int* out) {
    __shared__ Barrier barrier;
    init_by_thread_0(barrier, 32);
    barrier.arrive_and_wait();
    out[threadIdx.x] = 1;
}

// A barrier of the whole block that one thread leaves before arriving.
__global__ void exit_without_arriving(int* out) {
    __shared__ Barrier barrier;
    init_by_thread_0(barrier, blockDim.x);
    if (threadIdx.x == 5) return;
    barrier.arrive_and_wait();
    out[threadIdx.x] = 1;
}

// One thread arrives 5 times at a phase that expects 4 arrivals.
__global__ void arrive_past_count(int* out) {
    __shared__ Barrier barrier;
    init_by_thread_0(barrier, 4);
    if (threadIdx.x == 0) (void)barrier.arrive(5);
    out[threadIdx.x] = 1;
}

}  // namespace
