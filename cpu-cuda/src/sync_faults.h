// Every fault and warning about a kernel's sync points: barriers, warp
// intrinsics, cooperative groups' tiles, grid and cluster barriers,
// distributed shared memory, and the deadlocks they make. Each message is a
// function of named fields, which the scheduler (scheduler.cpp, groups.cpp)
// and the co-resident blocks (coresident.cpp) fill in; the wording, in
// English and Chinese, is in messages/backend.toml. Each says which rule of
// CUDA's the kernel broke, quoting the Programming Guide where it has one.
// Internal to the backend.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "faults.h"  // thread_text (a Waiter's thread), in_block
#include "program.h"
#include "warpdrill/cpu/cuda_runtime.h"

namespace warpdrill::cpu::detail {

// "__syncthreads()", "__shfl_down_sync()", "this_grid().sync()"; a multi-warp
// tile's sync() and collectives in words (messages/backend.toml).
std::string name_of(SyncKind kind);

// A sync point as the learner sees it: the call, and the learner's own line
// (the line that calls the course helper the call sits in).
struct SyncCall {
    SyncKind kind;
    SourcePlace place;
};
// A thread waiting at a sync point: "thread 5 (warp 0, lane 5) is at __syncwarp() at reduce.cuh:14".
struct Waiter {
    std::string thread;  // thread_text
    SyncCall call;
};

// ---- warp intrinsics (scheduler.cpp) ----

// A lane calls a warp intrinsic whose mask leaves the lane itself out.
std::string caller_outside_mask(const SyncCall& call, unsigned mask, int lane);
// A warning: the mask names lanes that the block's partial last warp does
// not have (`missing`). Quotes NVIDIA's CUDA C++ guidelines, rule 2.1.
std::string mask_names_missing_lanes(const SyncCall& call, unsigned mask, unsigned missing,
                                     int block_threads);
// A shuffle's width is not a power of two from 1 to 32.
std::string bad_shuffle_width(const SyncCall& call, int width);
// A warning: the mask names lanes that have returned from the kernel
// (`returned`). Quotes the Programming Guide's rule for warp intrinsics and
// NVIDIA's CUDA C++ guidelines, rule 2.1.
std::string mask_names_returned_lanes(const Waiter& waiter, unsigned mask, unsigned returned);

// A shuffle, and the lane it reads for `reader`.
struct ShuffleRead {
    Waiter reader;
    unsigned mask;
    int width;
    int param;   // the source lane, the offset or the lane mask
    int source;  // the lane it reads
};
// Why the lane a shuffle reads takes no part in it.
enum class AbsentLane {
    missing,       // the block's partial last warp does not have it
    outside_mask,  // the mask leaves it out
    returned,      // it has returned from the kernel
};
// A shuffle reads a lane that takes no part: `block_threads` is said of a
// missing lane, `source_thread` (thread_text) of one that returned. Quotes
// the Programming Guide on __shfl_sync().
std::string shuffle_reads_absent_lane(const ShuffleRead& read, AbsentLane why, int block_threads,
                                      const std::string& source_thread);

// A lane at a warp intrinsic, with its mask and, for a shuffle, its width.
struct LaneCall {
    Waiter waiter;
    unsigned mask;
    std::optional<int> width;  // shuffles only
};
// A deadlock: `waiter` waits at a warp intrinsic for `lane` of its mask,
// which waits at a block barrier (`other`).
std::string lane_waits_at_barrier(const Waiter& waiter, unsigned mask, int lane, const Waiter& other);
// Two lanes of one mask wait at different intrinsics, or at one with
// different masks or widths.
std::string lanes_disagree(const LaneCall& mine, const LaneCall& theirs);
// A deadlock in which no thread was found waiting for another: the last resort.
std::string no_thread_can_proceed();
// Only threads that spin on one address run, and no thread writes what they
// wait for; `waiting` is a thread of the block at a sync point, if any is.
std::string spin_without_writer(const std::vector<int>& spinning, const std::optional<Waiter>& waiting);

// ---- block barriers (scheduler.cpp) ----

// The threads of a block wait at different barriers: `waiting` at
// `barrier`, `elsewhere` where `other` (the first of them) is. Quotes the
// Programming Guide on __syncthreads() in conditional code.
std::string barriers_differ(const std::vector<int>& waiting, const SyncCall& barrier,
                            const std::vector<int>& elsewhere, const Waiter& other);
// How threads that left the kernel passed a barrier by, as the source reads.
enum class Bypass {
    branch,        // it sits inside a branch they did not take
    early_return,  // they returned before it
    loop,          // it sits inside a loop they left after fewer rounds
};
struct BarrierBypass {
    Bypass how;
    SourceStatement statement;  // the branch, the return or the loop
};
// Threads `exited` left the kernel while threads `waiting` wait at
// `barrier`. Quotes the Programming Guide on __syncthreads() in conditional
// code.
std::string exit_before_barrier(const std::vector<int>& waiting, const SyncCall& barrier,
                                const std::vector<int>& exited, const std::optional<BarrierBypass>& bypass);

// ---- cooperative groups' tiles (groups.cpp) ----

// The threads of a tile of several warps: the first and how many.
struct Tile {
    int first;
    int width;
};
// A thread of a tile has returned (`member`, thread_text) while `waiter`
// waits at one of the tile's collectives.
std::string tile_member_returned(const Waiter& waiter, Tile tile, const std::string& member);
// Two threads of one tile wait at different collectives.
std::string tile_threads_disagree(const Waiter& waiter, Tile tile, const Waiter& member);
// tiled_partition<N>(), N of several warps, of a group of `parent_threads`
// that N does not divide: its last tile would be partial.
std::string partial_multiwarp_tile(unsigned tile_size, unsigned parent_threads, Where where);
// cg::tiled_partition(group, n) with an n that CUDA's cooperative groups trap on.
std::string bad_runtime_tile_size(unsigned tile_size, Where where);
// this_thread_block(block_tile_memory<N>) in a block of more than N threads.
std::string block_tile_memory_too_small(unsigned max_block_size, unsigned block_threads, Where where);
// cg::tiled_partition() of the grid (`grid`) or of a cluster.
std::string partition_of_grid_or_cluster(bool grid, Where where);
// A collective of a tile of several warps asks for a rank past the tile's end.
std::string tile_rank_out_of_range(SyncKind kind, unsigned source_rank, unsigned tile_size, Where where);

// ---- grid and cluster barriers, distributed shared memory (groups.cpp, coresident.cpp) ----

// this_grid().sync() in a kernel launched without cudaLaunchCooperativeKernel.
std::string grid_sync_not_cooperative(Where where);
// The blocks of a grid or a cluster that wait at one barrier.
struct BlocksAt {
    SyncKind kind;
    Where where;
    std::vector<uint3> blocks;
};
// No block of a cooperative launch or a cluster can go on: `waiting` at
// their barriers, `returned` from the kernel.
std::string blocks_stuck(const std::vector<BlocksAt>& waiting, const std::vector<uint3>& returned);
// A block that waits at a grid or cluster barrier is woken to end the
// launch: another block faulted.
std::string stopped_by_other_block();
// Another block of the cluster (rank `reader_rank`) read the shared memory
// of this one (rank `rank`), mapped at `read_at`, and no cluster barrier
// came between that read and this block's return.
std::string block_returned_while_read(unsigned rank, unsigned reader_rank, Where read_at);
// this_cluster().map_shared_rank() at `where` asks for block `rank`, which
// is not 0 in a launch without clusters,
std::string shared_rank_without_clusters(Where where, int rank);
// or is not a rank of the cluster of `cluster_blocks` blocks.
std::string shared_rank_outside_cluster(Where where, int rank, unsigned cluster_blocks);
// It maps `bytes` at `offset` in `region` ("the __shared__ array values"),
// which holds `region_bytes`: the access runs past the region's end.
std::string shared_rank_past_end(Where where, std::size_t bytes, std::size_t offset,
                                 const std::string& region, std::size_t region_bytes, int rank);
// It reaches into block `rank` before the cluster's first barrier,
std::string shared_rank_before_first_sync(Where where, int rank);
// or after that block (`block`) returned from the kernel.
std::string shared_rank_of_returned_block(Where where, int rank, uint3 block);
// It was given an address in none of the block's shared memory,
std::string shared_rank_of_unshared_address(Where where);
// or in the executable's __shared__ variables but in none of them; `near`
// is the array it lies past, if it lies past one.
struct PastArray {
    std::size_t bytes_past;
    std::string name;
    std::size_t bytes;
};
std::string shared_rank_in_no_variable(Where where, const std::optional<PastArray>& near);

// ---- cuda::barrier (cuda_barrier.cpp) ----

// `call` uses a barrier that init() has not set up in this block:
// compute-sanitizer's synccheck reports "Missing init".
std::string barrier_missing_init(const SyncCall& call);
// init() asks for `expected` arrivals a phase, outside 0 to `max`.
std::string barrier_expected_out_of_range(const SyncCall& call, std::ptrdiff_t expected, std::ptrdiff_t max);
// arrive(`update`) at a phase that expects `pending` more arrivals (or update < 1).
std::string barrier_too_many_arrivals(const SyncCall& call, std::ptrdiff_t update, int pending);
// A block-scope barrier that block `owner` set up.
std::string barrier_of_other_block(const SyncCall& call, std::uint32_t owner);
// Threads wait on a barrier whose phase no arrival will complete.
struct BarrierDeadlock {
    std::vector<int> waiting;
    SyncCall wait;                // the first waiter's wait(), or its pipeline's call
    std::uint32_t token_phase;    // the phase its token is of
    std::uint32_t phase;          // the barrier's phase now
    int arrived, expected;        // the arrivals of that phase so far, and all it expects
    std::vector<int> exited;      // threads that left the kernel
    std::optional<Waiter> other;  // a thread that waits elsewhere, if one does
};
std::string barrier_deadlock(const BarrierDeadlock& deadlock);

}  // namespace warpdrill::cpu::detail
