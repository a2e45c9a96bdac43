// What host code may ask of the CPU backend beyond CUDA's runtime API: the
// order in which it runs a block's threads and the streams' queued work, the
// counters of the last launch and of the host's waits, and the error it
// throws when a kernel breaks CUDA's rules.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace warpdrill::cpu {

// Between two sync points a thread runs alone; the order says which of the
// block's ready threads runs first. A kernel whose result changes with the
// order reads shared data that no barrier protects.
enum class ThreadOrder { ascending, descending, shuffled };

void set_thread_order(ThreadOrder order, std::uint64_t seed = 0);
ThreadOrder thread_order();
const char* to_string(ThreadOrder order);

// Sets the order for the lifetime of the object, then restores the old one.
class ScopedThreadOrder {
  public:
    explicit ScopedThreadOrder(ThreadOrder order, std::uint64_t seed = 0);
    ~ScopedThreadOrder();
    ScopedThreadOrder(const ScopedThreadOrder&) = delete;
    ScopedThreadOrder& operator=(const ScopedThreadOrder&) = delete;

  private:
    ThreadOrder saved_;
};

// Work queued on different streams that nothing orders (no stream order, no
// event waited for, no synchronisation) runs, when a synchronisation needs
// it, latest queued first, so that a consumer whose wait is missing runs
// before its producer; or in the order it was queued, so that a wait for an
// event recorded after the wait shows too.
enum class StreamOrder { latest_first, queued };

void set_stream_order(StreamOrder order);
StreamOrder stream_order();
const char* to_string(StreamOrder order);

class ScopedStreamOrder {
  public:
    explicit ScopedStreamOrder(StreamOrder order);
    ~ScopedStreamOrder();
    ScopedStreamOrder(const ScopedStreamOrder&) = delete;
    ScopedStreamOrder& operator=(const ScopedStreamOrder&) = delete;

  private:
    StreamOrder saved_;
};

// How many times the host has waited for the GPUs so far: each
// cudaDeviceSynchronize, cudaStreamSynchronize, cudaEventSynchronize, and
// each copy or memset that returns only when it is done (cudaMemcpy,
// cudaMemcpyPeer, cudaMemset, a cudaMemcpyAsync to host memory).
std::uint64_t host_waits();

// Counts for one launch. Collective operations count once per completion:
// a __syncthreads() that 256 threads pass is one block barrier, a
// __shfl_down_sync of a full warp is one shuffle, a grid barrier that 8
// blocks pass is 8 grid syncs.
struct LaunchStats {
    std::uint64_t blocks = 0;
    std::uint64_t threads = 0;
    std::uint64_t block_barriers = 0;
    std::uint64_t warp_syncs = 0;
    std::uint64_t shuffles = 0;
    std::uint64_t votes = 0;
    std::uint64_t atomics = 0;  // one per thread that calls an atomic
    std::uint64_t warp_reductions = 0;  // __reduce_*_sync
    std::uint64_t grid_syncs = 0;       // this_grid().sync(), once per block that passes it
    std::uint64_t cluster_syncs = 0;    // this_cluster().sync(), once per block that passes it
    // Loads and stores of 16 bytes at once (float4, a Pack of four floats), one
    // per thread; counted where accesses are checked (launches of up to 2^17 threads).
    std::uint64_t wide_accesses = 0;

    LaunchStats& operator+=(const LaunchStats& other);
};

LaunchStats last_launch_stats();

// Thrown by a launch whose kernel broke a rule that a GPU would answer with a
// hang or a wrong result: the message names the file, the line and the threads.
class KernelFault : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

}  // namespace warpdrill::cpu
