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
__global__ void add_into(float* dst, const float* src, std::int64_t n) {
    // TODO(1): with first = this thread's index in the grid and stride = the
    // grid's threads, for each pack p = first, first + stride, ... below n / 4:
    // load four floats of dst and of src at 4 * p (warpdrill::load_pack<float,
    // 4>), add them, store the sum to dst (warpdrill::store_pack). Then the
    // last n % 4 floats: thread `first` adds element 4 * (n / 4) + first, if
    // that is below n.
    (void)dst;
    (void)src;
    (void)n;
}

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
inline void enable_peer_access(int gpus) {
    // TODO(2): for each GPU g (cudaSetDevice(g)) and each of its two
    // neighbours in the ring, (g + 1) % gpus and (g + gpus - 1) % gpus: if
    // cudaDeviceCanAccessPeer says the pair can, cudaDeviceEnablePeerAccess(peer,
    // 0). cudaErrorPeerAccessAlreadyEnabled means a previous call did it:
    // clear it with cudaGetLastError(). End with GPU 0 current.
    (void)gpus;
}

// Reduce-scatter step `step`, slice `k`: GPU g sends slice k of chunk
// (g - step) mod G, once `ready` says GPU g has finished it, to GPU next(g)'s
// inbox; GPU next(g) adds it to its own once `arrived` says it is there. All
// sends of the step are queued before any add records `ready` again: a wait
// takes the latest record of its event.
inline void reduce_scatter_step(const Ring& ring, int step, int k) {
    // TODO(3): first, for each GPU g, with to = ring.next(g), c = (g - step)
    // mod G and slice = ring.slice(c, k): on ring.copies[to], wait for
    // ring.ready[g][k] (cudaStreamWaitEvent), copy the slice from g's data to
    // to's inbox of this step (cudaMemcpyPeerAsync; the slice's place in the
    // inbox is ring.inbox_of_step(to, step) + (slice.begin -
    // ring.chunk(c).begin)), and record ring.arrived[to][k] (with GPU `to`
    // current). Then, for each g again: with GPU `to` current, make
    // ring.adds[to] wait for ring.arrived[to][k], launch_add_into the inbox's
    // slice onto to's data on ring.adds[to], and record ring.ready[to][k].
    (void)ring;
    (void)step;
    (void)k;
}

// All-gather step `step`, slice `k`: GPU g copies slice k of chunk
// (g + 1 - step) mod G, which it holds whole, over GPU next(g)'s own, which
// then holds it whole too.
inline void all_gather_step(const Ring& ring, int step, int k) {
    // TODO(4): for each GPU g, with to = ring.next(g) and slice =
    // ring.slice((g + 1 - step) mod G, k): on ring.copies[to], wait for
    // ring.ready[g][k] and copy the slice from g's data over to's. Then for
    // each g: record ring.ready[to][k] on ring.copies[to], with GPU `to` current.
    (void)ring;
    (void)step;
    (void)k;
}

// The all-reduce, queued on every GPU's streams: it returns before it has
// run, as ncclAllReduce does, and the caller waits for the GPUs. Given.
inline void ring_allreduce(const Ring& ring) {
    for (int step = 0; step + 1 < ring.gpus; ++step) {
        for (int k = 0; k < ring.slices; ++k) reduce_scatter_step(ring, step, k);
    }
    for (int step = 0; step + 1 < ring.gpus; ++step) {
        for (int k = 0; k < ring.slices; ++k) all_gather_step(ring, step, k);
    }
    warpdrill::check_cuda(cudaSetDevice(0));
}
