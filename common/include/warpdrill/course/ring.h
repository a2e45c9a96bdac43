// Lesson 13's ring of GPUs: what the learner's ring all-reduce is given
// (a Ring: every GPU's vector, its inbox, its streams and events, and where
// each chunk and slice lies), the buffers behind it, and what the lesson's
// given launch code (check/launch.cu) offers its checks and the benchmark.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "warpdrill/cuda.h"

namespace warpdrill::course {

inline constexpr int kMaxRingGpus = 8;
inline constexpr int kMaxSlices = 8;

// A range of floats of the vector, [begin, end).
struct Span {
    std::int64_t begin = 0;
    std::int64_t end = 0;
    std::int64_t size() const { return end - begin; }
};

// G GPUs in a ring, GPU g sending to GPU next(g). Each holds a vector of M
// floats, cut into G chunks; chunk c starts at c * chunk_floats(), a multiple
// of 4, so every chunk starts 16-byte aligned; the last chunks may be shorter,
// or empty when M is small. Each chunk goes over the ring in `slices` slices,
// which also start at multiples of 4.
struct Ring {
    int gpus = 1;
    std::int64_t floats = 0;
    int slices = 1;
    float* data[kMaxRingGpus] = {};   // on GPU g: its M floats, and afterwards the sum
    float* inbox[kMaxRingGpus] = {};  // on GPU g: G - 1 chunks, one per reduce-scatter step
    cudaStream_t copies[kMaxRingGpus] = {};  // on GPU g: the copies into GPU g
    cudaStream_t adds[kMaxRingGpus] = {};    // on GPU g: the adds on GPU g
    // On GPU g, per slice: recorded after a copy into GPU g's inbox arrived, and
    // after the slice of the chunk GPU g sends next is final.
    cudaEvent_t arrived[kMaxRingGpus][kMaxSlices] = {};
    cudaEvent_t ready[kMaxRingGpus][kMaxSlices] = {};

    int next(int gpu) const { return (gpu + 1) % gpus; }
    int previous(int gpu) const { return (gpu + gpus - 1) % gpus; }
    // The longest chunk: M / G rounded up to a multiple of 4 floats.
    std::int64_t chunk_floats() const;
    Span chunk(int c) const;
    Span slice(int c, int k) const;
    // Where reduce-scatter step `step` delivers into GPU `gpu`: chunk_floats() floats.
    float* inbox_of_step(int gpu, int step) const { return inbox[gpu] + step * chunk_floats(); }
};

// The buffers, streams and events of a Ring on GPUs 0 to gpus - 1, freed at
// the end. The inboxes start filled with NaN (0xff bytes).
class RingBuffers {
  public:
    RingBuffers(int gpus, std::int64_t floats, int slices);
    ~RingBuffers();
    RingBuffers(const RingBuffers&) = delete;
    RingBuffers& operator=(const RingBuffers&) = delete;

    const Ring& ring() const { return ring_; }
    void upload(int gpu, std::span<const float> values);
    std::vector<float> download(int gpu) const;
    // Fills inbox slot `step` of GPU `gpu` with value(gpu, step).
    void fill_inboxes(const std::function<float(int gpu, int step)>& value);
    // Waits until every GPU has finished its work.
    void synchronize() const;

  private:
    Ring ring_;
};

// Defined by lesson 13's check/launch.cu from the learner's (or the solution's) ring.cuh:
// the all-reduce (it returns with the work queued), peer access between
// ring neighbours, the add kernel alone, and the warp-ring shuffle exercise.
void run_ring_allreduce(const Ring& ring);
void enable_ring_peer_access(int gpus);
void add_into_on_device(float* dst, const float* src, std::int64_t n);
inline constexpr int kWarpRingValues = 32;
void launch_warp_ring(const int* in, int* out, int threads, int width);

}  // namespace warpdrill::course
