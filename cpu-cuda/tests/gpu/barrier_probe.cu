// What a GPU does with cuda::barrier<cuda::thread_scope_block>, and what
// compute-sanitizer says of it: one case a run, each in a process of its own
// (three cases hang a GPU: those get a time limit, and synccheck only).
// results/barrier-probe-h200.txt keeps what an H200 printed.
//   nvcc -std=c++20 -arch=sm_90 -lineinfo -o barrier_probe cpu-cuda/tests/gpu/barrier_probe.cu &&
//   for c in sum split_sum write_after_arrive read_before_wait drop completion old_token parity \
//            uninitialized over_arrival exit_without_arriving arrive_past_count; do
//     timeout 15 ./barrier_probe $c || echo "$c: hangs"
//     for tool in racecheck synccheck initcheck; do
//       timeout 60 compute-sanitizer --tool $tool --show-backtrace no ./barrier_probe $c; done; done
#include <cuda/barrier>

// A __shared__ variable never runs its constructor, and cuda::barrier has one: init() sets it up.
#pragma nv_diag_suppress static_var_with_dynamic_init

#include <cstdio>
#include <cstring>
#include <utility>

using Barrier = cuda::barrier<cuda::thread_scope_block>;

// Each warp's lane 0 writes its warp's sum; thread 0 adds them after one
// phase of a barrier of the whole block (arrive_and_wait).
__global__ void sum(const int* in, int* out) {
    __shared__ Barrier barrier;
    __shared__ int warp_sums[32];
    if (threadIdx.x == 0) init(&barrier, blockDim.x);
    __syncthreads();
    int value = in[threadIdx.x];
    for (int offset = 16; offset > 0; offset /= 2) value += __shfl_down_sync(0xffffffffu, value, offset);
    if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = value;
    barrier.arrive_and_wait();
    if (threadIdx.x == 0) {
        int total = 0;
        for (int w = 0; w < blockDim.x / 32; ++w) total += warp_sums[w];
        *out = total;
    }
}

// The same with arrive() and wait() apart, independent work between them.
__global__ void split_sum(const int* in, int* out) {
    __shared__ Barrier barrier;
    __shared__ int staged[256];
    if (threadIdx.x == 0) init(&barrier, blockDim.x);
    __syncthreads();
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
    if (threadIdx.x == 0) init(&barrier, blockDim.x);
    __syncthreads();
    Barrier::arrival_token token = barrier.arrive();
    if (threadIdx.x == 32) flag = 7;
    barrier.wait(std::move(token));
    if (threadIdx.x == 0) *out = flag;
}

// A read of another warp's write before the phase it arrived at completes.
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

// Warp 1 takes part in one phase and drops out; warp 0 goes on alone for two more.
__global__ void drop(int* out) {
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
    if (threadIdx.x == 0) init(&barrier, 32);
    __syncthreads();
    barrier.arrive_and_wait();
    out[threadIdx.x] = 1;
}

// A barrier of the whole block that one thread leaves before arriving.
__global__ void exit_without_arriving(int* out) {
    __shared__ Barrier barrier;
    if (threadIdx.x == 0) init(&barrier, blockDim.x);
    __syncthreads();
    if (threadIdx.x == 5) return;
    barrier.arrive_and_wait();
    out[threadIdx.x] = 1;
}

// One thread arrives 5 times at a phase that expects 4 arrivals.
__global__ void arrive_past_count(int* out) {
    __shared__ Barrier barrier;
    if (threadIdx.x == 0) init(&barrier, 4);
    __syncthreads();
    if (threadIdx.x == 0) (void)barrier.arrive(5);
    out[threadIdx.x] = 1;
}

int main(int argc, char** argv) {
    if (argc != 2) return 2;
    const char* which = argv[1];
    int *in = nullptr, *out = nullptr;
    cudaMalloc(&in, 256 * sizeof(int));
    cudaMalloc(&out, 1024 * sizeof(int));
    int ones[256];
    for (int& one : ones) one = 1;
    cudaMemcpy(in, ones, sizeof ones, cudaMemcpyHostToDevice);
    cudaMemset(out, 0, 1024 * sizeof(int));
    int shown = 1;
    if (!std::strcmp(which, "sum")) sum<<<1, 256>>>(in, out);
    if (!std::strcmp(which, "split_sum")) split_sum<<<1, 256>>>(in, out), shown = 4;
    if (!std::strcmp(which, "write_after_arrive")) write_after_arrive<<<1, 64>>>(out);
    if (!std::strcmp(which, "read_before_wait")) read_before_wait<<<1, 64>>>(out), shown = 2;
    if (!std::strcmp(which, "drop")) drop<<<1, 64>>>(out), shown = 2;
    if (!std::strcmp(which, "completion")) completion<<<1, 64>>>(out), shown = 192;
    if (!std::strcmp(which, "old_token")) old_token<<<1, 1>>>(out);
    if (!std::strcmp(which, "parity")) parity<<<1, 1>>>(out);
    if (!std::strcmp(which, "uninitialized")) uninitialized<<<1, 64>>>(out), shown = 2;
    if (!std::strcmp(which, "over_arrival")) over_arrival<<<1, 64>>>(out), shown = 64;
    if (!std::strcmp(which, "exit_without_arriving")) exit_without_arriving<<<1, 64>>>(out), shown = 2;
    if (!std::strcmp(which, "arrive_past_count")) arrive_past_count<<<1, 64>>>(out), shown = 2;
    const cudaError_t error = cudaDeviceSynchronize();
    int got[1024] = {};
    cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost);
    int total = 0;
    for (int i = 0; i < 1024; ++i) total += got[i];
    std::printf("%s: %s, out[0..%d) =", which, cudaGetErrorName(error), shown < 8 ? shown : 8);
    for (int i = 0; i < shown && i < 8; ++i) std::printf(" %d", got[i]);
    std::printf(", sum of out %d\n", total);
    return 0;
}
