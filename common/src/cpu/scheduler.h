// The CPU backend's scheduler: runs one block's threads as fibers on one OS
// thread, switching only at sync points, and checks at every sync point that
// the threads involved agree. Internal to the backend.
#pragma once

#include <boost/context/fiber.hpp>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "stack_pool.h"
#include "warpdrill/cpu/cuda_runtime.h"

namespace warpdrill::cpu::detail {

enum class ThreadState : std::uint8_t { ready, waiting, exited };

// Where a waiting thread stands and what it brought to the sync point.
struct SyncPoint {
    SyncKind kind = SyncKind::syncthreads;
    unsigned mask = 0;
    int width = 0;
    int param = 0;  // lane, offset, lane mask or predicate
    std::uint64_t bits = 0;
    Where where;
};

struct FiberThread {
    BuiltinVariables vars{};
    int rank = 0;  // linear index in the block
    ThreadState state = ThreadState::ready;
    SyncPoint sync;
    std::uint64_t result = 0;
    boost::context::fiber fiber;      // resumed by the scheduler
    boost::context::fiber scheduler;  // resumed by the fiber to yield
};

class CoResidentBlocks;

struct GridShape {
    dim3 grid;
    dim3 block;
    std::size_t dynamic_smem_bytes = 0;
    const std::function<void()>* thread_body = nullptr;
    ThreadOrder order = ThreadOrder::ascending;
    std::uint64_t seed = 0;
    GroupLaunch groups;
    CoResidentBlocks* coresident = nullptr;  // for cooperative and cluster launches (coresident.h)
};

class BlockRunner {
  public:
    BlockRunner(const GridShape& shape, StackCache& stacks);
    // Runs every thread of one block to completion; throws KernelFault.
    void run(uint3 block_idx);
    const LaunchStats& stats() const { return stats_; }

    // Called from inside a fiber.
    unsigned block_sync(SyncKind kind, int predicate, const Where& where);
    std::uint64_t warp_sync(SyncKind kind, unsigned mask, int width, int param, std::uint64_t bits,
                            const Where& where);
    unsigned active_mask() const;
    void count_atomic() { ++stats_.atomics; }
    // Aligned to 16 bytes, as a GPU's is.
    std::byte* dynamic_shared_memory() {
        const auto address = reinterpret_cast<std::uintptr_t>(dynamic_smem_.data());
        return reinterpret_cast<std::byte*>((address + 15) & ~std::uintptr_t{15});
    }
    [[noreturn]] void fault_here(const std::string& what) const;

    FiberThread* running() const { return running_; }
    uint3 block_idx() const { return block_idx_; }
    const GridShape& shape() const { return shape_; }

  private:
    void start_threads();
    void resume(FiberThread& thread);
    void yield(FiberThread& thread);
    void run_ready_threads();
    const std::vector<int>& next_order();
    bool complete_warp_syncs();
    bool complete_warp_sync_from(int rank);
    void complete_warp_sync(int base, unsigned mask);
    bool complete_block_barrier();
    [[noreturn]] void report_deadlock() const;
    [[noreturn]] void fault(const std::string& what) const;
    unsigned existing_lanes(int warp) const;
    std::string describe_thread(int rank) const;
    std::string describe_wait(int rank) const;

    const GridShape& shape_;
    StackCache& stacks_;
    uint3 block_idx_{};
    int thread_count_ = 0;
    int exited_ = 0;
    std::vector<FiberThread> threads_;
    std::vector<int> order_;
    std::vector<int> barrier_waiters_;  // reused by complete_block_barrier()
    std::mt19937_64 shuffle_rng_;
    std::vector<std::byte> dynamic_smem_;
    FiberThread* running_ = nullptr;
    std::exception_ptr thread_error_;
    LaunchStats stats_;
};

// Text for diagnostics: "__syncthreads()", "file.cu:12", "(1,0,0)".
const char* name_of(SyncKind kind);
std::string where_text(const Where& where);
std::string dims(uint3 v);

// The block whose fiber calls: faults when no kernel is running.
BlockRunner& block_of_caller();

// With every thread of `block` at a grid or cluster barrier: waits for the
// other blocks of the grid or cluster (coresident.cpp).
void wait_for_other_blocks(BlockRunner& block, SyncKind kind, const Where& where);

}  // namespace warpdrill::cpu::detail
