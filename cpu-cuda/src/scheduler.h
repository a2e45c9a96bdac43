// The CPU backend's scheduler: runs one block's threads as fibers on one OS
// thread, switching only at sync points, and checks at every sync point that
// the threads involved agree. Internal to the backend.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "fiber.h"
#include "program.h"
#include "shared_windows.h"
#include "stack_pool.h"
#include "warpdrill/cpu/cuda_barrier.h"
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

class BlockRunner;

// Laid out for the sync points: what each one reads and writes of a thread
// (its variables, state, result, sync point and the fiber's switch) fills
// the first two cache lines, and the rest lies after. A block's 256 threads
// or more are run in turn at every sync point, so each line more a thread
// touches is hundreds more that the cache must hold or fetch again.
struct alignas(64) FiberThread {
    BuiltinVariables vars{};
    ThreadState state = ThreadState::ready;
    // Suspended inside an instrumentation callback (a fault or a spin): such
    // a fiber is never unwound, since the callback's caller cannot unwind.
    bool in_callback = false;
    // Asked of a waiting thread whose sync point sits in a library header (a
    // course helper's __syncthreads()): its stack there, to name the learner's call.
    bool stack_wanted = false;
    int rank = 0;  // linear index in the block
    std::uint64_t result = 0;
    SyncPoint sync;
    Fiber fiber;
    std::uintptr_t spin_address = 0;  // the address this thread read last, and how often in a row
    unsigned spin_reads = 0;
    std::vector<std::uint32_t> stack;
    BlockRunner* block = nullptr;
};

class CoResidentBlocks;
struct Waiter;  // sync_faults.h
struct LaneCall;

struct GridShape {
    dim3 grid;
    dim3 block;
    std::size_t dynamic_smem_bytes = 0;
    const std::function<void()>* thread_body = nullptr;
    ThreadOrder order = ThreadOrder::ascending;
    std::uint64_t seed = 0;
    GroupLaunch groups;
    CoResidentBlocks* coresident = nullptr;  // for cooperative and cluster launches (coresident.h)
    int device = 0;                          // the GPU it runs on
    std::uint64_t launch = 0;                // the launch's number, counted from 1
};

class BlockWatch;

// Set while a launch has run long enough that a spinning thread may be why.
extern std::atomic<bool> spin_watch;
// The running fiber's BlockRunner::watch_spin, where a fiber runs.
void watch_spin(std::uintptr_t address);
// -fsanitize=bounds: an index past a fixed-size array.
void index_out_of_bounds(const char* array_type, long long index, const char* file, unsigned line);
// assert() failed in a kernel thread: ends the launch, never returns. False
// where no kernel thread runs (device_assert.cpp).
bool assert_failed_in_kernel(const char* assertion, const char* file, unsigned line, const char* function);

class BlockRunner {
  public:
    BlockRunner(const GridShape& shape, StackCache& stacks);
    // Runs every thread of one block to completion; throws KernelFault.
    void run(uint3 block_idx);
    const LaunchStats& stats() const { return stats_; }
    // Tells `watch` of every memory access and sync point of the blocks it runs from now on.
    void watch_with(BlockWatch* watch) { watch_ = watch; }

    // Called from inside a fiber.
    unsigned block_sync(SyncKind kind, int predicate, Where where);
    std::uint64_t warp_sync(SyncKind kind, unsigned mask, int width, int param, std::uint64_t bits,
                            Where where);
    // A coalesced_threads() call or a collective of a tile of several warps (groups.cpp).
    std::uint64_t group_sync(SyncKind kind, int width, int param, std::uint64_t bits, Where where);
    // cuda::barrier (cuda_barrier.cpp, <cuda/barrier>).
    void barrier_init(BarrierState& barrier, std::ptrdiff_t expected, Where where);
    Arrival barrier_arrive(BarrierState& barrier, std::ptrdiff_t update, bool drop, Where where);
    void barrier_complete_phase(BarrierState& barrier);
    void barrier_wait(const BarrierState& barrier, std::uint32_t phase, Where where, SyncKind kind);
    bool barrier_try_wait(const BarrierState& barrier, std::uint32_t phase, Where where);
    void count_atomic() { ++stats_.atomics; }
    void note_branch(bool taken, const char* statement, Where where);
    void count_wide_access() { ++stats_.wide_accesses; }
    // The block's dynamic shared memory, aligned to a page.
    std::byte* dynamic_shared_memory() { return dynamic_smem_.data(); }
    [[noreturn]] void fault_here(const std::string& what) const;
    // As fault_here, for what the backend does not run (a BackendLacks).
    [[noreturn]] void lacks_here(const std::string& what) const;
    // From an instrumentation callback: ends the running thread's kernel with
    // a fault, without returning (the callback cannot throw).
    [[noreturn]] void fail_running(const std::string& what);
    // fail_running with the running thread named first, as fault_here names it.
    [[noreturn]] void fail_here(const std::string& what);
    // The running thread read `address` again: after many reads in a row it
    // spins on a flag, so it lets the other threads run.
    void watch_spin(std::uintptr_t address);

    FiberThread* running() const { return running_; }
    uint3 block_idx() const { return block_idx_; }
    const GridShape& shape() const { return shape_; }

  private:
    void start_threads();
    static void run_thread(void* thread);  // a fiber's body
    void resume(FiberThread& thread);
    void yield(FiberThread& thread);
    static void tell_stack(FiberThread& thread);
    int run_ready_threads();  // returns how many ran
    const std::vector<int>& next_order();
    bool complete_warp_syncs();
    bool complete_warp_sync_from(int rank);
    void complete_warp_sync(int base, unsigned mask);
    // The two halves of complete_warp_sync; `first`: the sync point of the mask's first lane.
    void complete_shuffle(int base, unsigned mask, const SyncPoint& first);
    void complete_warp_collective(int base, unsigned mask, const SyncPoint& first);
    unsigned lanes_holding(int base, unsigned mask, std::uint64_t bits) const;
    // A warp intrinsic's call that a lane's mask or the width makes wrong:
    // faults, or warns and returns the mask without the lanes the warp lacks.
    [[gnu::noinline, gnu::cold]] unsigned check_warp_call(SyncKind kind, unsigned mask, int width,
                                                          Where where);
    // Cooperative groups (groups.cpp).
    bool complete_coalesce_from(int rank);
    bool complete_tile_collective_from(int rank);
    void order_tile_accesses(int first, int width);
    void report_tile_mismatch(int rank);
    // Notes a thread's arrival at a block-wide sync point, and whether it is
    // the same one as the first arrival's, for complete_block_barrier().
    void arrive_at_block_sync(const FiberThread& thread);
    bool complete_block_barrier();
    [[noreturn]] void fault_at_barrier();
    [[noreturn]] void report_deadlock();
    // The block's index in the grid, x fastest.
    std::uint32_t linear_block() const;
    // cuda::barrier (cuda_barrier.cpp).
    void check_barrier(const BarrierState& barrier, SyncKind call, Where where) const;
    [[noreturn]] void report_barrier_deadlock(int rank);
    [[noreturn]] void report_spin_deadlock();
    // A thread that tries a cuda::barrier's phase that has not completed, if any.
    std::optional<int> barrier_try_waiter() const;
    [[noreturn]] void fault_source_lane(int rank, int source);
    void warn_returned_lanes(int rank, unsigned returned);
    [[noreturn]] void fault_exit_before_barrier(const std::vector<int>& waiting);
    void bury_callback_fibers();
    [[noreturn]] void fault(const std::string& what) const;
    unsigned existing_lanes(int warp) const;
    unsigned live_lanes(int warp) const;  // existing lanes that have not returned
  public:
    // thread_text of the thread: with its threadIdx in a block of two or three dimensions.
    std::string describe_thread(int rank) const;

  private:
    // Who waits at which sync point (and, at a warp intrinsic, with which
    // mask and width), for the messages of sync_faults.h.
    Waiter waiter(int rank) const;
    LaneCall lane_call(int rank) const;
    // Where a waiting thread's sync point is, as the learner sees it: the
    // learner's own line, with the helper it called, once capture_stacks() has
    // asked the thread for its stack; the sync point's own line otherwise.
    SourcePlace sync_place(int rank) const;
    // The same for the running thread, at its call at `where`.
    SourcePlace running_sync_place(Where where) const;
    void capture_stacks(const std::vector<int>& ranks);

    const GridShape& shape_;
    StackCache& stacks_;
    uint3 block_idx_{};
    int thread_count_ = 0;
    int exited_ = 0;
    std::vector<FiberThread> threads_;
    std::vector<int> order_;
    std::mt19937_64 shuffle_rng_;
    DynamicSharedWindow dynamic_smem_;
    FiberThread* running_ = nullptr;
    std::exception_ptr thread_error_;
    LaunchStats stats_;
    BlockWatch* watch_ = nullptr;
    std::vector<std::pair<std::byte*, std::size_t>> static_shared_;  // this worker's __shared__ variables
    std::uintptr_t static_shared_low_ = 0, static_shared_high_ = 0;  // and the span they cover
    int at_block_sync_ = 0;  // threads waiting at __syncthreads() or a grid or cluster barrier
    SyncPoint barrier_;      // where the first of them waits
    bool barrier_agrees_ = true;  // and whether all the others wait there too
    unsigned barrier_votes_ = 0;  // how many brought a true predicate (__syncthreads_count and the like)
    int spinners_ = 0;       // threads that yielded from a spin in this round
    std::chrono::steady_clock::time_point spinning_since_{};  // when only spinners began to run
};

// Inline: the returns that follow a switch of stacks are mispredicted, so the
// fewer calls stand between a sync point and its switch, the faster.
inline void BlockRunner::yield(FiberThread& thread) {
    thread.state = ThreadState::waiting;
    thread.fiber.suspend();
    if (thread.stack_wanted) tell_stack(thread);
}

// Resumed only to tell where it waits (capture_stacks): it still waits. Out
// of line, so that yield's callers keep no room for the stack on theirs.
[[gnu::noinline, gnu::cold]] inline void BlockRunner::tell_stack(FiberThread& thread) {
    while (thread.stack_wanted) {
        thread.stack = call_stack();
        thread.stack_wanted = false;
        thread.fiber.suspend();
    }
}

// A wait on a cuda::barrier's phase: the barrier's own, or a pipeline's on a stage's.
inline bool is_barrier_wait(SyncKind kind) {
    return kind == SyncKind::barrier_wait || kind == SyncKind::barrier_try_wait ||
           kind == SyncKind::pipeline_producer_acquire || kind == SyncKind::pipeline_consumer_wait;
}
// The calls that find the lanes running together: coalesced_threads() and __activemask().
inline bool is_coalesce(SyncKind kind) { return kind == SyncKind::coalesce || kind == SyncKind::activemask; }
inline bool is_tile_collective(SyncKind kind) { return kind == SyncKind::tile_sync || kind == SyncKind::tile_shfl; }
// Whether two sync points are the same line of source.
inline bool same_place(const Where& a, const Where& b) {
    // One file's name is usually one string literal: compare pointers first.
    return a.line() == b.line() &&
           (a.file_name() == b.file_name() || std::string_view(a.file_name()) == b.file_name());
}

// The block whose fiber calls, or nullptr in host code.
BlockRunner* running_block();
// The block whose fiber calls: faults when no kernel is running.
BlockRunner& block_of_caller();

// With every thread of `block` at a grid or cluster barrier: waits for the
// other blocks of the grid or cluster (coresident.cpp).
void wait_for_other_blocks(BlockRunner& block, SyncKind kind, Where where);

}  // namespace warpdrill::cpu::detail
