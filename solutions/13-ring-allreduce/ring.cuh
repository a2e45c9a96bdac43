// Lesson 13: past one GPU. G GPUs each hold a vector of M floats; afterwards
// every one of them holds the element-wise sum: an all-reduce, the operation
// data-parallel training spends its communication on. The ring does it in
// two phases over the GPUs' links. In the reduce-scatter, G - 1 steps, each
// GPU sends one chunk (an M/G-th of the vector) to the next GPU, which adds it
// to its own; after it, GPU g holds the whole sum of one chunk. In the
// all-gather, G - 1 more steps, the finished chunks travel once around the
// ring, copied. Every GPU sends and receives 2(G - 1)/G of the vector, however
// many GPUs there are. Copies run on the copy streams, adds on the add
// streams, and events order the two, so that the host queues the whole
// all-reduce and returns; each chunk goes in slices, so that the add of one
// slice overlaps the copy of the next.
#pragma once

#include <algorithm>
#include <cstdint>

#include "warpdrill/course/ring.h"
#include "warpdrill/cuda.h"
#include "warpdrill/host.h"
#include "warpdrill/pack.cuh"

using warpdrill::course::Ring;
using warpdrill::course::Span;

// dst[i] += src[i] for i in [0, n), four floats per 16-byte load; dst and src
// are 16-byte aligned. A grid-stride loop over the packs, then the last n % 4
// floats one thread each.
// begin:add_into
__global__ void add_into(float* dst, const float* src, std::int64_t n) {
    using Pack4 = warpdrill::Pack<float, 4>;
    const std::int64_t first = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
    const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
    const std::int64_t packs = n / 4;
    for (std::int64_t p = first; p < packs; p += stride) {
        Pack4 sum = warpdrill::load_pack<float, 4>(dst + 4 * p);
        const Pack4 other = warpdrill::load_pack<float, 4>(src + 4 * p);
        for (int k = 0; k < 4; ++k) sum.values[k] += other.values[k];
        warpdrill::store_pack(dst + 4 * p, sum);
    }
    const std::int64_t tail = 4 * packs + first;
    if (tail < n) dst[tail] += src[tail];
}
// end:add_into

// Queues add_into over n floats on `stream`, a stream of the current GPU:
// one thread per pack of four, at most 1024 blocks of 256.
inline void launch_add_into(float* dst, const float* src, std::int64_t n, cudaStream_t stream) {
    if (n == 0) return;
    const auto blocks = static_cast<unsigned>(std::clamp<std::int64_t>((n / 4 + 255) / 256, 1, 1024));
    warpdrill::launch(add_into, {blocks, 256, 0, stream}, dst, src, n);
}

// Lets each GPU's copies and kernels reach its two neighbours' memory directly
// (over NVLink, where the GPUs have it), where the pair allows it. Called
// more than once: enabling what is enabled is an error to clear, not a failure.
// begin:peer_access
inline void enable_peer_access(int gpus) {
    for (int g = 0; g < gpus; ++g) {
        warpdrill::check_cuda(cudaSetDevice(g));
        for (const int peer : {(g + 1) % gpus, (g + gpus - 1) % gpus}) {
            int possible = 0;
            warpdrill::check_cuda(cudaDeviceCanAccessPeer(&possible, g, peer));
            if (!possible) continue;
            const cudaError_t result = cudaDeviceEnablePeerAccess(peer, 0);
            if (result == cudaErrorPeerAccessAlreadyEnabled) {
                cudaGetLastError();
            } else {
                warpdrill::check_cuda(result);
            }
        }
    }
    warpdrill::check_cuda(cudaSetDevice(0));
}
// end:peer_access

// Reduce-scatter step `step`, slice `k`: GPU g sends slice k of chunk
// (g - step) mod G, once `ready` says GPU g has finished it, to GPU next(g)'s
// inbox; GPU next(g) adds it to its own once `arrived` says it is there. All
// sends of the step are queued before any add records `ready` again: a wait
// takes the latest record of its event.
// begin:reduce_scatter
inline void reduce_scatter_step(const Ring& ring, int step, int k) {
    const int G = ring.gpus;
    for (int g = 0; g < G; ++g) {
        const int to = ring.next(g);
        const int c = (g - step + G) % G;
        const Span slice = ring.slice(c, k);
        float* inbox = ring.inbox_of_step(to, step) + (slice.begin - ring.chunk(c).begin);
        warpdrill::check_cuda(cudaStreamWaitEvent(ring.copies[to], ring.ready[g][k]));
        warpdrill::check_cuda(cudaMemcpyPeerAsync(inbox, to, ring.data[g] + slice.begin, g,
                                                  slice.size() * sizeof(float), ring.copies[to]));
        warpdrill::check_cuda(cudaSetDevice(to));
        warpdrill::check_cuda(cudaEventRecord(ring.arrived[to][k], ring.copies[to]));
    }
    for (int g = 0; g < G; ++g) {
        const int to = ring.next(g);
        const int c = (g - step + G) % G;
        const Span slice = ring.slice(c, k);
        const float* inbox = ring.inbox_of_step(to, step) + (slice.begin - ring.chunk(c).begin);
        warpdrill::check_cuda(cudaSetDevice(to));
        warpdrill::check_cuda(cudaStreamWaitEvent(ring.adds[to], ring.arrived[to][k]));
        launch_add_into(ring.data[to] + slice.begin, inbox, slice.size(), ring.adds[to]);
        warpdrill::check_cuda(cudaEventRecord(ring.ready[to][k], ring.adds[to]));
    }
}
// end:reduce_scatter

// All-gather step `step`, slice `k`: GPU g copies slice k of chunk
// (g + 1 - step) mod G, which it holds whole, over GPU next(g)'s own, which
// then holds it whole too.
// begin:all_gather
inline void all_gather_step(const Ring& ring, int step, int k) {
    const int G = ring.gpus;
    for (int g = 0; g < G; ++g) {
        const int to = ring.next(g);
        const Span slice = ring.slice((g + 1 - step + G) % G, k);
        warpdrill::check_cuda(cudaStreamWaitEvent(ring.copies[to], ring.ready[g][k]));
        warpdrill::check_cuda(cudaMemcpyPeerAsync(ring.data[to] + slice.begin, to, ring.data[g] + slice.begin, g,
                                                  slice.size() * sizeof(float), ring.copies[to]));
    }
    for (int g = 0; g < G; ++g) {
        const int to = ring.next(g);
        warpdrill::check_cuda(cudaSetDevice(to));
        warpdrill::check_cuda(cudaEventRecord(ring.ready[to][k], ring.copies[to]));
    }
}
// end:all_gather

// The all-reduce, queued on every GPU's streams: it returns before it has
// run, as ncclAllReduce does, and the caller waits for the GPUs. Given.
// begin:ring_allreduce
inline void ring_allreduce(const Ring& ring) {
    for (int step = 0; step + 1 < ring.gpus; ++step) {
        for (int k = 0; k < ring.slices; ++k) reduce_scatter_step(ring, step, k);
    }
    for (int step = 0; step + 1 < ring.gpus; ++step) {
        for (int k = 0; k < ring.slices; ++k) all_gather_step(ring, step, k);
    }
    warpdrill::check_cuda(cudaSetDevice(0));
}
// end:ring_allreduce
