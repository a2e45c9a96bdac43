// The race checker, as compute-sanitizer's racecheck: two threads touch one
// element, at least one writes, and nothing orders them: no __syncthreads()
// between them (a block), no __syncwarp() (lanes of one warp), no
// __threadfence() + atomic handshake (two blocks). Each 4-byte word of
// shared memory and of a checked buffer has a shadow cell that remembers
// its last accesses; the checker keeps, per thread, what it has seen of the
// others (clocks), as a vector-clock race detector does.
// Large buffers are inputs, read by every thread (observer.h): their bounds
// and initialisation are checked, not their races.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "device_memory.h"
#include "faults.h"
#include "observer.h"

namespace warpdrill::cpu::detail {

class BlockWatch;

// One access, as a shadow cell remembers it.
struct Access {
    std::uint32_t code = 0;    // code offset of the instruction (program.h)
    std::uint32_t block = 0;   // linear block index in the grid
    std::uint32_t epoch = 0;   // the block's completed __syncthreads() before it
    std::uint32_t clock = 0;   // the lane's __syncwarp() clock before it
    std::uint32_t tile_clock = 0;  // its warp's clock of tile barriers (a multi-warp tile's sync) before it
    std::uint32_t fences = 0;  // the block's __threadfence() count before it
    std::uint32_t grid_syncs = 0;     // the this_grid().sync() its block had passed
    std::uint32_t cluster_syncs = 0;  // the this_cluster().sync() its block had passed
    std::uint16_t thread = 0;  // rank in the block
    AccessKind kind = AccessKind::read;
    // The bytes of its word it touched (bit i: byte i; 0xf for a whole word or
    // more): a __half or a char is an element of its own, and two threads may
    // write neighbouring ones of one word. 0: no access.
    std::uint8_t bytes = 0;
    bool valid() const { return bytes != 0; }
    bool overlaps(const Access& other) const { return (bytes & other.bytes) != 0; }
};

// The state of one 4-byte word: the last write, and an earlier one to other
// bytes of it (a neighbouring __half) that nothing orders before it; two reads
// since: the latest, and an earlier one that nothing orders before it (the
// reads of several threads are not ordered among themselves, and a later
// write must be ordered after all of them).
struct ShadowCell {
    std::uint64_t generation = 0;  // a launch (global memory) or a block's run (shared memory)
    Access write;
    Access other_write;
    Access read;
    Access other_read;
};
// All-zero cells are unused ones (generations count from 1), so a shadow can
// come from calloc (zeroed_array.h): a checked launch of a kernel that reads a
// few words of a large buffer stays cheap.
static_assert(std::is_trivially_copyable_v<ShadowCell> && std::is_trivially_destructible_v<ShadowCell>);

// Launch-wide: global memory's ordering between blocks.
class GridOrder {
  public:
    GridOrder(std::uint64_t launch, dim3 grid);

    std::uint64_t launch() const { return launch_; }
    std::uint32_t fences(std::uint32_t block) const { return fences_[block].load(std::memory_order_relaxed); }
    void fence(std::uint32_t block) { fences_[block].fetch_add(1, std::memory_order_relaxed); }
    // An atomic on `address` by `block`: releases what the block fenced, and
    // acquires what earlier atomics on the same address released.
    void atomic(std::uintptr_t address, std::uint32_t block);
    // Whether `block` has acquired the writer's fence count `fences` of `writer`.
    bool acquired(std::uint32_t block, std::uint32_t writer, std::uint32_t fences) const;
    bool took_atomic(std::uint32_t block) const;
    std::mutex& cell_lock(std::uintptr_t address) { return stripes_[(address >> 2) % kStripes]; }
    // A profiled launch goes on past its races (backend.h: ProfileScope):
    // the first is kept, as a checked launch would have stopped at it.
    void note_race(std::string message);
    std::string first_race() const;
    // Whether a race has been noted: the later ones' messages (each a look
    // at the debug information) are not worth making.
    bool noted_race() const { return noted_race_.load(std::memory_order_relaxed); }

  private:
    static constexpr std::size_t kStripes = 1024;
    std::uint64_t launch_;
    std::size_t blocks_;
    std::unique_ptr<std::atomic<std::uint32_t>[]> fences_;
    mutable std::mutex mutex_;
    std::string first_race_;
    std::atomic<bool> noted_race_{false};
    std::unordered_map<std::uintptr_t, std::vector<std::uint32_t>> released_;  // per address, per block
    std::unordered_map<std::uint32_t, std::vector<std::uint32_t>> acquired_;   // per block, per block
    std::unique_ptr<std::mutex[]> stripes_;
};

// Per worker thread: the running block's clocks and its shared memory's cells.
class RaceCheck : public BlockObserver {
  public:
    // `stop_at_race`: a race ends the kernel (a checked launch), or is noted
    // in `order` and the kernel goes on (a profiled one).
    RaceCheck(const BlockWatch& watch, GridOrder& order, int threads, std::size_t dynamic_smem_bytes,
              bool stop_at_race);

    void start_block(std::uint32_t linear_block) override;
    void access(const ObservedAccess& access) override;
    // Decides a write that waited for its value (PendingWrite).
    void sync_point() override {
        if (pending_write_) settle(*std::exchange(pending_write_, std::nullopt));
    }
    void warp_sync(SyncKind kind, int base, unsigned mask, unsigned live) override;
    void block_barrier(const std::vector<unsigned>& /*live*/) override;
    // A cuda::barrier orders what a thread did before its arrival before
    // what the waiters of that phase do after it. The block's epoch stands
    // for the phases, so what a thread does between its arrival and its
    // return from a wait keeps the epoch it arrived at (held_epochs_): its
    // reads there are not ordered after the writes the phase releases. Its
    // writes there count as ordered before the phase, as racecheck counts
    // them (0 hazards on an H200: cpu-cuda/tests/gpu/barrier_probe.cu).
    void barrier_arrive(int thread) override;
    void barrier_phase() override { ++epoch_; }
    void barrier_passed(int thread) override;
    void tile_barrier(int first_warp, int warps) override;
    void group_barrier(SyncKind kind) override;
    void fence(bool device_scope) override;

  private:
    // A write to a word that another lane of the same warp wrote, with nothing
    // ordering the two: a race, unless it writes the value already there (the
    // GPU keeps either, and racecheck reports no hazard), which is known once
    // the write is done.
    struct PendingWrite {
        ObservedAccess access;
        Access before, now;
        std::array<std::byte, 16> earlier{};  // what the earlier write left there
    };
    static bool may_write_same_value(const Access& before, const Access& now, std::size_t bytes);
    void settle(const PendingWrite& write);

    void warp_barrier(int base, unsigned mask);
    ShadowCell* cell_of(const ObservedAccess& access);
    // The earlier access `now` conflicts with, if any; updates the cell otherwise.
    // In shared memory, an atomic update and a plain read of one word that
    // nothing orders do not conflict (racecheck reports no hazard, NVIDIA's
    // newdelete sample relies on it): the earlier one is put in `unordered`, for a warning.
    std::optional<Access> check(ShadowCell& cell, bool global, const Access& now,
                                std::optional<Access>& unordered);
    static bool atomic_update_and_plain_read(const Access& before, const Access& now);
    void warn_unordered_read(const ObservedAccess& observed, const Access& before, const Access& now) const;
    bool ordered(const Access& before, const Access& now) const;
    bool same_cluster(std::uint32_t a, std::uint32_t b) const;
    // This thread's access now, of `bytes` at `address` (its byte mask in its word).
    Access record(const ObservedAccess& access) const;
    void race(const ObservedAccess& access, const Access& before, const Access& now) const;
    Accessor accessor(const Access& access) const;

    const BlockWatch& watch_;
    GridOrder& order_;
    int threads_;
    int warps_;
    bool stop_at_race_;
    std::uint32_t block_ = 0;
    std::uint32_t epoch_ = 0;
    static constexpr std::uint32_t kNotHeld = ~0u;
    std::vector<std::uint32_t> held_epochs_;  // by thread: the epoch it arrived at, or kNotHeld
    int held_ = 0;                            // threads whose epoch is held
    std::uint32_t grid_syncs_ = 0;
    std::uint32_t cluster_syncs_ = 0;
    std::uint64_t generation_ = 0;
    std::vector<std::uint32_t> clocks_;       // thread t's view of its warp's 32 lanes: clocks_[t * 32 + lane]
    std::vector<std::uint32_t> tile_clocks_;  // warp w's view of the block's warps: tile_clocks_[w * warps_ + v]
    std::vector<ShadowCells> array_cells_;    // by static __shared__ variable (tls_variables())
    ShadowCells dynamic_cells_;
    std::optional<PendingWrite> pending_write_;
};

}  // namespace warpdrill::cpu::detail
