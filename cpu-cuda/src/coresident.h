// Launches whose blocks must run at the same time: a cooperative launch,
// whose grid barrier needs every block of the grid resident, and a cluster
// launch, whose blocks meet at cluster barriers and read each other's shared
// memory. Each block gets an OS thread of its own (its threads are fibers on
// it, as always), so that a block waiting at a barrier cannot keep another
// from running. The blocks that run together form a gang: the whole grid of
// a cooperative launch, one cluster of a cluster launch (several gangs take
// turns at the clusters). Internal to the backend.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "scheduler.h"

namespace warpdrill::cpu::detail {

// One thread's instance of one module's thread-local storage: where that OS
// thread keeps its static __shared__ variables.
struct TlsBlock {
    std::size_t module;
    std::byte* data;
    std::size_t size;
};

class CoResidentBlocks {
  public:
    static bool needed(const GroupLaunch& groups);
    CoResidentBlocks(dim3 grid, std::size_t dynamic_smem_bytes, const GroupLaunch& groups);

    // The OS threads to start: one per block that runs at once.
    unsigned workers() const { return static_cast<unsigned>(slots_.size()); }
    // Runs worker `worker`'s blocks with `runner`, each in step with the
    // rest of its gang; throws KernelFault.
    void run_blocks(unsigned worker, BlockRunner& runner, const std::atomic<bool>& failed);
    // After a fault anywhere: wakes every block that waits, to end the launch.
    void abort();

    // Called with every thread of the calling worker's block at a grid or
    // cluster barrier: returns when the rest of the grid or cluster is there.
    void wait(SyncKind kind, Where where);
    // The address in the shared memory of block `rank` of the caller's
    // cluster that matches `address` in the caller's own.
    std::uintptr_t map_shared_rank(const BlockRunner& caller, std::uintptr_t address, std::size_t bytes,
                                   int rank, Where where);

  private:
    enum class SlotState : std::uint8_t { running, waiting, returned };
    // Another block's last access to this block's shared memory.
    struct RemoteRead {
        bool happened = false;
        std::uint64_t cluster_syncs = 0;  // how many cluster barriers both had passed
        unsigned reader_rank = 0;
        Where where;
    };
    struct Slot {
        BlockRunner* runner = nullptr;
        std::vector<TlsBlock> tls;
        uint3 block{};
        SlotState state = SlotState::running;
        SyncKind kind = SyncKind::grid_sync;  // where it waits, while waiting
        Where where;
        std::uint64_t cluster_syncs = 0;  // cluster barriers this block has passed
        RemoteRead last_remote_read;
    };
    struct Barrier {
        unsigned arrived = 0;
        std::uint64_t generation = 0;
    };
    // Where an address lies in a block's shared memory: `offset` bytes into
    // one __shared__ variable (at `start` in its module's thread-local
    // storage), or into the dynamic shared memory.
    struct SharedRegion {
        std::size_t offset;
        std::size_t size;
        std::string what;  // "the __shared__ array values", "the dynamic shared memory"
        std::size_t tls_module;  // 0: the dynamic shared memory
        std::size_t start = 0;
    };

    uint3 block_of(std::uint64_t linear) const;
    unsigned first_slot_of_gang(unsigned slot) const { return slot / gang_blocks_ * gang_blocks_; }
    unsigned first_slot_of_cluster(unsigned slot) const { return slot / cluster_blocks_ * cluster_blocks_; }
    void finish_block(unsigned slot);
    template <class OnPass>
    void arrive(Barrier& barrier, unsigned first_slot, unsigned members, std::unique_lock<std::mutex>& lock,
                unsigned slot, OnPass on_pass);
    template <class Done>
    void wait_until(std::unique_lock<std::mutex>& lock, Done done);
    void fault_if_stuck(unsigned slot);
    std::string describe_stuck(unsigned first, unsigned count) const;
    SharedRegion locate(const BlockRunner& caller, const Slot& slot, std::uintptr_t address,
                        Where where) const;
    SharedRegion locate_variable(const BlockRunner& caller, std::size_t offset, Where where) const;
    std::byte* region_base(const Slot& slot, const SharedRegion& region) const;

    dim3 grid_;
    std::size_t dynamic_smem_bytes_;
    GroupLaunch groups_;
    unsigned cluster_blocks_;
    unsigned gang_blocks_;
    std::uint64_t rounds_;  // how many gangs' worth of blocks the grid holds
    unsigned gangs_;

    std::mutex mutex_;
    std::condition_variable changed_;
    std::vector<Slot> slots_;
    Barrier grid_barrier_;
    std::vector<Barrier> cluster_barriers_;  // one per cluster running
    std::vector<Barrier> round_ends_;        // one per gang
    std::string fault_;                      // why every waiting block must stop
    bool aborted_ = false;
};

}  // namespace warpdrill::cpu::detail
