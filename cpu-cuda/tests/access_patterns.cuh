// Access patterns whose hardware counts can be worked out by hand: coalesced,
// strided and broadcast reads of global memory, 8- and 16-byte accesses,
// shared-memory bank conflicts of 2 and 32 ways and their cure by padding,
// a partial warp, a divergent branch, a loop whose trip count differs by
// lane, and many shared loads that cannot conflict (to measure ncu's excess). cpu-cuda/tests/profile_patterns.cu checks the CPU backend's profile of
// each against the count worked out in its comments; cpu-cuda/tests/gpu/
// access_patterns.cu runs the same launches on a GPU for ncu
// (scripts/ncu-table.sh). Every kernel reads `in` and writes `out`, both
// cudaMalloc'd (so 256-byte aligned) and at least kPatternFloats long.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "warpdrill/cuda.h"

constexpr int kPatternFloats = 1 << 20;  // shared_conflict_free's grid fills a GPU (the others read a few)

__global__ void coalesced_copy(const float* in, float* out) {
    const unsigned t = threadIdx.x;
    out[t] = in[t];
}

__global__ void strided_read(const float* in, float* out, int stride) {
    const unsigned t = threadIdx.x;
    out[t] = in[t * stride];
}

__global__ void offset_read(const float* in, float* out, int offset) {
    const unsigned t = threadIdx.x;
    out[t] = in[t + offset];
}

__global__ void broadcast_read(const float* in, float* out) { out[threadIdx.x] = in[0]; }

__global__ void float2_copy(const float2* in, float2* out) { out[threadIdx.x] = in[threadIdx.x]; }

__global__ void float4_copy(const float4* in, float4* out) { out[threadIdx.x] = in[threadIdx.x]; }

// Lane t stores to and loads from word t * stride of a shared array.
__global__ void shared_strided(const float* in, float* out, int stride) {
    __shared__ float cells[32 * 33];
    const unsigned t = threadIdx.x;
    cells[t * stride] = in[t];
    __syncwarp();
    out[t] = cells[t * stride];
}

// One lane writes a word, every lane reads it.
__global__ void shared_broadcast(const float* in, float* out) {
    __shared__ float cell;
    const unsigned t = threadIdx.x;
    if (t == 0) cell = in[0];
    __syncwarp();
    out[t] = cell;
}

// Lane t stores and loads float2 number t * stride of a shared array.
__global__ void shared_float2(const float* in, float* out, int stride) {
    __shared__ float2 cells[64];
    const unsigned t = threadIdx.x;
    cells[t * stride] = make_float2(in[t], 1.0f);
    __syncwarp();
    const float2 value = cells[t * stride];
    out[t] = value.x + value.y;
}

// Lane t stores and loads float4 number t * stride of a shared array.
__global__ void shared_float4(const float* in, float* out, int stride) {
    __shared__ float4 cells[64];
    const unsigned t = threadIdx.x;
    cells[t * stride] = make_float4(in[t], 1.0f, 2.0f, 3.0f);
    __syncwarp();
    const float4 value = cells[t * stride];
    out[t] = value.x + value.y + value.z + value.w;
}

// Only the even lanes copy.
__global__ void divergent_copy(const float* in, float* out) {
    const unsigned t = threadIdx.x;
    if (t % 2 == 0) out[t] = in[t];
}

// Lane t adds t % 4 elements: the loop's load runs 0 to 3 times per lane.
__global__ void lane_dependent_loop(const float* in, float* out) {
    const unsigned t = threadIdx.x;
    float sum = 0.0f;
    for (unsigned i = 0; i < t % 4; ++i) sum += in[4 * t + i];
    out[t] = sum;
}

// Two warps store, wait at a barrier, and load each other's words.
__global__ void exchange_through_barrier(const float* in, float* out) {
    __shared__ float cells[64];
    const unsigned t = threadIdx.x;
    cells[t] = in[t];
    __syncthreads();
    out[t] = cells[63 - t];
}

// The lower half-warp shuffles among itself; the upper half does nothing.
__global__ void half_warp_shuffle(const float* in, float* out) {
    const unsigned t = threadIdx.x;
    if (t < 16) out[t] = __shfl_sync(0xffffu, in[t], 0, 16);
}

// Every lane adds its element to out[0].
__global__ void atomic_sum(const float* in, float* out) { atomicAdd(out, in[threadIdx.x]); }

// Each block stores its 256 words, waits, and every warp reads 32 words in a
// row 8 times over (all 256 once): no two lanes of a load share a bank, so no
// load can conflict, and every shared-load wavefront that ncu counts past one per load
// is its own excess. The grid is a lesson's (4096 blocks of 256 threads), so
// that, as in the lessons, other blocks' global loads pass through the SM's
// L1 while these shared loads run: on an H100 ncu then counts some 1% more
// wavefronts than loads, where 16 blocks alone get none
// (results/README.md, "ncu's shared-load excess").
constexpr unsigned kConflictFreeBlocks = kPatternFloats / 256;
__global__ void shared_conflict_free(const float* in, float* out) {
    __shared__ float cells[256];
    const unsigned t = threadIdx.x;
    const unsigned i = blockIdx.x * blockDim.x + t;
    cells[t] = in[i];
    __syncthreads();
    float sum = 0.0f;
    for (unsigned k = 0; k < 8; ++k) sum += cells[(t + 32 * k) % 256];
    out[i] = sum;
}

// Every launch the tests check, in order, named by kernel and shape.
struct PatternLaunch {
    std::string name;
    std::function<void(const float* in, float* out)> run;
};

inline std::vector<PatternLaunch> pattern_launches() {
    using warpdrill::launch;
    const auto as2 = [](const float* p) { return reinterpret_cast<const float2*>(p); };
    const auto as4 = [](const float* p) { return reinterpret_cast<const float4*>(p); };
    return {
        {"coalesced_copy, 32 threads",
         [](const float* in, float* out) {
             launch(coalesced_copy, {1, 32}, in, out);
         }},
        {"coalesced_copy, 256 threads",
         [](const float* in, float* out) {
             launch(coalesced_copy, {1, 256}, in, out);
         }},
        {"coalesced_copy, 48 threads",
         [](const float* in, float* out) {
             launch(coalesced_copy, {1, 48}, in, out);
         }},
        {"strided_read, stride 2",
         [](const float* in, float* out) {
             launch(strided_read, {1, 32}, in, out, 2);
         }},
        {"strided_read, stride 8",
         [](const float* in, float* out) {
             launch(strided_read, {1, 32}, in, out, 8);
         }},
        {"strided_read, stride 32",
         [](const float* in, float* out) {
             launch(strided_read, {1, 32}, in, out, 32);
         }},
        {"offset_read, offset 1",
         [](const float* in, float* out) {
             launch(offset_read, {1, 32}, in, out, 1);
         }},
        {"broadcast_read",
         [](const float* in, float* out) {
             launch(broadcast_read, {1, 32}, in, out);
         }},
        {"float2_copy",
         [as2](const float* in, float* out) {
             launch(float2_copy, {1, 32}, as2(in), reinterpret_cast<float2*>(out));
         }},
        {"float4_copy",
         [as4](const float* in, float* out) {
             launch(float4_copy, {1, 32}, as4(in), reinterpret_cast<float4*>(out));
         }},
        {"shared_strided, stride 1",
         [](const float* in, float* out) {
             launch(shared_strided, {1, 32}, in, out, 1);
         }},
        {"shared_strided, stride 2",
         [](const float* in, float* out) {
             launch(shared_strided, {1, 32}, in, out, 2);
         }},
        {"shared_strided, stride 32",
         [](const float* in, float* out) {
             launch(shared_strided, {1, 32}, in, out, 32);
         }},
        {"shared_strided, stride 33",
         [](const float* in, float* out) {
             launch(shared_strided, {1, 32}, in, out, 33);
         }},
        {"shared_broadcast",
         [](const float* in, float* out) {
             launch(shared_broadcast, {1, 32}, in, out);
         }},
        {"shared_float2, stride 1",
         [](const float* in, float* out) {
             launch(shared_float2, {1, 32}, in, out, 1);
         }},
        {"shared_float2, stride 2",
         [](const float* in, float* out) {
             launch(shared_float2, {1, 32}, in, out, 2);
         }},
        {"shared_float4, stride 1",
         [](const float* in, float* out) {
             launch(shared_float4, {1, 32}, in, out, 1);
         }},
        {"shared_float4, stride 2",
         [](const float* in, float* out) {
             launch(shared_float4, {1, 32}, in, out, 2);
         }},
        {"divergent_copy",
         [](const float* in, float* out) {
             launch(divergent_copy, {1, 32}, in, out);
         }},
        {"lane_dependent_loop",
         [](const float* in, float* out) {
             launch(lane_dependent_loop, {1, 32}, in, out);
         }},
        {"exchange_through_barrier",
         [](const float* in, float* out) {
             launch(exchange_through_barrier, {1, 64}, in, out);
         }},
        {"half_warp_shuffle",
         [](const float* in, float* out) {
             launch(half_warp_shuffle, {1, 32}, in, out);
         }},
        {"atomic_sum",
         [](const float* in, float* out) {
             launch(atomic_sum, {1, 32}, in, out);
         }},
        {"shared_conflict_free",
         [](const float* in, float* out) {
             launch(shared_conflict_free, {kConflictFreeBlocks, 256}, in, out);
         }},
    };
}
