// What a running block shows those who watch it. Every load and store a
// tracked kernel makes, and every sync point its threads pass, is told to
// the observers of the block, each the same events in the same order:
//   - the race checker (race_check.h): two threads, one element, nothing
//     ordering them;
//   - the initialisation check (init_check.h): a read of bytes nothing wrote;
//   - the profiler (profile.h): the GPU's memory counts.
// They are peers: none knows of another. Before any of them hears of an
// access, the block's watch (access.h) has located it, and faulted it when
// it lies nowhere a GPU thread may reach: that is the address check.
// Internal to the backend.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "warpdrill/cpu/cuda_runtime.h"

namespace warpdrill::cpu::detail {

struct DeviceAllocation;

// atomic_write: an atomic read-modify-write (atomicAdd, atomicCAS);
// atomic_store: an atomic or volatile store, which reads nothing.
enum class AccessKind : std::uint8_t { read, write, atomic_read, atomic_write, atomic_store };

inline bool is_write(AccessKind kind) {
    return kind == AccessKind::write || kind == AccessKind::atomic_write || kind == AccessKind::atomic_store;
}
inline bool is_atomic(AccessKind kind) {
    return kind == AccessKind::atomic_read || kind == AccessKind::atomic_write || kind == AccessKind::atomic_store;
}
inline bool reads_value(AccessKind kind) { return kind != AccessKind::write && kind != AccessKind::atomic_store; }

enum class MemorySpace : std::uint8_t { global, shared };

// Buffers larger than this are a kernel's inputs, which every thread reads,
// and their elements are not checked for races; smaller ones are outputs,
// partial sums, counters, whose races are looked for.
constexpr std::size_t kRaceCheckedBytes = std::size_t{256} << 10;

// One load or store, located.
struct ObservedAccess {
    std::uintptr_t address = 0;
    std::size_t bytes = 0;
    AccessKind kind = AccessKind::read;
    bool is_volatile = false;
    std::uint32_t code = 0;  // the instruction's code offset (program.h)
    int thread = 0;          // the thread's rank in its block
    MemorySpace space = MemorySpace::global;
    // What holds it: a static __shared__ array (an index into tls_variables()),
    // a buffer or __device__ variable (allocation), or else the block's
    // dynamic shared memory.
    int array = -1;
    DeviceAllocation* allocation = nullptr;
    std::uintptr_t start = 0;  // of that array, buffer or dynamic shared memory
    // In a buffer larger than kRaceCheckedBytes.
    bool input = false;

    // How the access orders with others: a volatile one of global memory is
    // an atomic one (a flag between blocks); of shared memory, a plain one
    // (the pre-Volta warp unroll).
    AccessKind ordering() const {
        if (!is_volatile || space != MemorySpace::global) return kind;
        return is_write(kind) ? AccessKind::atomic_store : AccessKind::atomic_read;
    }
};

class BlockObserver {
  public:
    virtual ~BlockObserver() = default;
    virtual void start_block(std::uint32_t /*linear_block*/) {}
    virtual void access(const ObservedAccess& access) = 0;
    // A thread reached a sync point (a barrier, a warp intrinsic) or its end:
    // everything it did before is done.
    virtual void sync_point() {}
    // A warp intrinsic completed for the lanes `mask` of the warp that starts
    // at rank `base`; `live` holds its lanes that have not returned.
    virtual void warp_sync(SyncKind /*kind*/, int /*base*/, unsigned /*mask*/, unsigned /*live*/) {}
    // A __syncthreads() completed; live[w] holds warp w's lanes that have not returned.
    virtual void block_barrier(const std::vector<unsigned>& /*live*/) {}
    // The warps first_warp to first_warp + warps - 1 met at a barrier of a
    // tile of several warps (cooperative groups).
    virtual void tile_barrier(int /*first_warp*/, int /*warps*/) {}
    // A grid or cluster barrier completed: every block it spans has done
    // everything before it.
    virtual void group_barrier(SyncKind /*kind*/) {}
    virtual void fence(bool /*device_scope*/) {}
    // cuda::barrier (<cuda/barrier>): `thread` arrived at a phase; a phase
    // completed; `thread` returned from a wait for a completed phase.
    virtual void barrier_arrive(int /*thread*/) {}
    virtual void barrier_phase() {}
    virtual void barrier_passed(int /*thread*/) {}
    // A condition of the program's source (cudacc --branches) that `thread`
    // evaluated: whether it held.
    virtual void branch(int /*thread*/, const char* /*statement*/, const Where& /*where*/, bool /*taken*/) {}
    virtual void end_block() {}
};

}  // namespace warpdrill::cpu::detail
