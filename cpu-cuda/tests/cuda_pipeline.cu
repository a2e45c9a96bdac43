// cuda::memcpy_async into shared memory through a pipeline of one thread, a
// pipeline of a block (producers and consumers) and a cuda::barrier
// (<cuda/pipeline>): each sums a buffer exactly. This file compiles with
// nvcc too: on a GPU it holds libcu++ to the same sums.
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cooperative_groups.h>

#include <numeric>
#include <vector>

#include "warpdrill/catch.h"
#include "warpdrill/cuda.h"
#include "warpdrill/host.h"

// A __shared__ variable never runs its constructor, and cuda::barrier has one: init() sets it up.
#pragma nv_diag_suppress static_var_with_dynamic_init

using warpdrill::DeviceBuffer;

namespace {

constexpr int kThreads = 128;
constexpr int kStages = 2;

// Thread 0 adds the block's staged values.
__device__ void add_staged(const int* staged, int* total) {
    if (threadIdx.x == 0) {
        for (int i = 0; i < kThreads; ++i) *total += staged[i];
    }
}

// Each thread stages its element of each tile through its own pipeline, two
// tiles in flight: the next tile's copy is made while this one is added.
__global__ void sum_through_thread_pipelines(const int* in, int tiles, int* total) {
    __shared__ int staged[kStages][kThreads];
    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    const auto one_int = cuda::aligned_size_t<alignof(int)>(sizeof(int));
    for (int fetched = 0; fetched < kStages && fetched < tiles; ++fetched) {
        pipe.producer_acquire();
        cuda::memcpy_async(&staged[fetched][threadIdx.x], &in[fetched * kThreads + threadIdx.x], one_int,
                           pipe);
        pipe.producer_commit();
    }
    for (int tile = 0; tile < tiles; ++tile) {
        pipe.consumer_wait();
        __syncthreads();
        add_staged(staged[tile % kStages], total);
        __syncthreads();
        pipe.consumer_release();
        const int next = tile + kStages;
        if (next < tiles) {
            pipe.producer_acquire();
            cuda::memcpy_async(&staged[next % kStages][threadIdx.x], &in[next * kThreads + threadIdx.x],
                               one_int, pipe);
            pipe.producer_commit();
        }
    }
}

// Warp 0 produces: it copies each tile into a stage. The other warps consume:
// warp 1's lane 0 adds each tile once every producer committed it.
__global__ void sum_through_a_block_pipeline(const int* in, int tiles, int* total) {
    namespace cg = cooperative_groups;
    __shared__ int staged[kStages][kThreads];
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, kStages> state;
    const cg::thread_block block = cg::this_thread_block();
    const bool producer = threadIdx.x < 32;
    auto pipe = cuda::make_pipeline(block, &state,
                                    producer ? cuda::pipeline_role::producer : cuda::pipeline_role::consumer);
    for (int tile = 0; tile < tiles; ++tile) {
        if (producer) {
            pipe.producer_acquire();
            for (int i = threadIdx.x; i < kThreads; i += 32) {
                cuda::memcpy_async(&staged[tile % kStages][i], &in[tile * kThreads + i], sizeof(int), pipe);
            }
            pipe.producer_commit();
        } else {
            pipe.consumer_wait();
            if (threadIdx.x == 32) {
                for (int i = 0; i < kThreads; ++i) *total += staged[tile % kStages][i];
            }
            pipe.consumer_release();
        }
    }
}

// Each thread copies its element, then arrives: the phase covers the copies.
__global__ void sum_through_a_barrier(const int* in, int* total) {
    __shared__ int staged[kThreads];
    __shared__ cuda::barrier<cuda::thread_scope_block> barrier;
    if (threadIdx.x == 0) init(&barrier, blockDim.x);
    __syncthreads();
    cuda::memcpy_async(&staged[threadIdx.x], &in[threadIdx.x], sizeof(int), barrier);
    barrier.arrive_and_wait();
    add_staged(staged, total);
}

// The ints 1, 2, ..., n.
std::vector<int> counting(int n) {
    std::vector<int> values(n);
    std::iota(values.begin(), values.end(), 1);
    return values;
}

}  // namespace

TEST_CASE("cuda::memcpy_async through a pipeline of one thread, two stages in flight", "[cuda-pipeline]") {
    for (const int tiles : {1, 2, 5}) {
        CAPTURE(tiles);
        DeviceBuffer<int> in(counting(tiles * kThreads)), total(std::vector<int>{0});
        warpdrill::launch(sum_through_thread_pipelines, {1, kThreads}, in.data(), tiles, total.data());
        warpdrill::check_launch();
        CHECK(total.download()[0] == tiles * kThreads * (tiles * kThreads + 1) / 2);
    }
}

TEST_CASE("a block's pipeline: the consumers wait for every producer's commit, the producers for the release",
          "[cuda-pipeline]") {
    const int tiles = 5;
    DeviceBuffer<int> in(counting(tiles * kThreads)), total(std::vector<int>{0});
    warpdrill::launch(sum_through_a_block_pipeline, {1, kThreads}, in.data(), tiles, total.data());
    warpdrill::check_launch();
    CHECK(total.download()[0] == tiles * kThreads * (tiles * kThreads + 1) / 2);
}

TEST_CASE("cuda::memcpy_async with a cuda::barrier: the phase covers the copy", "[cuda-pipeline]") {
    DeviceBuffer<int> in(counting(kThreads)), total(std::vector<int>{0});
    warpdrill::launch(sum_through_a_barrier, {1, kThreads}, in.data(), total.data());
    warpdrill::check_launch();
    CHECK(total.download()[0] == kThreads * (kThreads + 1) / 2);
}
