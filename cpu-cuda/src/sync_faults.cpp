#include "sync_faults.h"

#include <algorithm>

namespace warpdrill::cpu::detail {

namespace {

// What a barrier that not every thread of the block reaches breaks.
const std::string kBarrierRule =
    "The Programming Guide: \"__syncthreads() is allowed in conditional code but only if the conditional "
    "evaluates identically across the entire thread block, otherwise the code execution is likely to hang or "
    "produce unintended side effects.\"";

// What the two warnings about lanes in a mask that take no part quote.
const std::string kMaskGuideline =
    "NVIDIA's CUDA C++ guidelines (rule 2.1, advisory) say: \"only include device-threads participating in a "
    "warp collective operation in the mask parameter\"";

// Why a block must not return while another reads its shared memory.
constexpr const char* kSharedMemoryLifetime =
    "a block's shared memory ends with the block, so the cluster must meet at a this_cluster().sync() after "
    "the last read of another block's shared memory";

// "0-15, 17, 20-31"
std::string ranges(const std::vector<int>& ranks) {
    std::string text;
    for (std::size_t i = 0; i < ranks.size();) {
        std::size_t j = i;
        while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) ++j;
        if (!text.empty()) text += ", ";
        text += std::to_string(ranks[i]);
        if (j > i) text += "-" + std::to_string(ranks[j]);
        i = j + 1;
    }
    return text;
}

// "block (1,0,0)" or "blocks (0,0,0), (2,0,0)", the first few of many.
std::string block_list(const std::vector<uint3>& blocks) {
    constexpr std::size_t kNamed = 6;
    std::string text = blocks.size() == 1 ? "block " : "blocks ";
    for (std::size_t i = 0; i < std::min(blocks.size(), kNamed); ++i)
        text += (i ? ", " : "") + dims(blocks[i]);
    if (blocks.size() > kNamed) text += " and " + std::to_string(blocks.size() - kNamed) + " more";
    return text;
}

// "__shfl_down_sync() at reduce.cuh:14"
std::string call_text(const SyncCall& call) {
    return std::string(name_of(call.kind)) + " at " + to_string(call.place);
}

// "thread 5 (warp 0, lane 5) is at __shfl_down_sync() at reduce.cuh:14"
std::string wait_text(const Waiter& waiter) { return waiter.thread + " is at " + call_text(waiter.call); }

// "... with mask 0xffffffff and width 16"
std::string lane_call_text(const LaneCall& lane) {
    return wait_text(lane.waiter) + " with mask " + hex_text(lane.mask) +
           (lane.width ? " and width " + std::to_string(*lane.width) : "");
}

// "its tile of 64 threads (threads 0-63)"
std::string tile_text(Tile tile) {
    return "its tile of " + std::to_string(tile.width) + " threads (threads " + std::to_string(tile.first) +
           "-" + std::to_string(tile.first + tile.width - 1) + ")";
}

// "this_cluster().map_shared_rank() at cluster.cu:12"
std::string map_shared_rank_text(Where where) {
    return "this_cluster().map_shared_rank() at " + where_text(where);
}

}  // namespace

const char* name_of(SyncKind kind) {
    switch (kind) {
        case SyncKind::syncthreads: return "__syncthreads()";
        case SyncKind::syncthreads_count: return "__syncthreads_count()";
        case SyncKind::syncthreads_and: return "__syncthreads_and()";
        case SyncKind::syncthreads_or: return "__syncthreads_or()";
        case SyncKind::grid_sync: return "this_grid().sync()";
        case SyncKind::cluster_sync: return "this_cluster().sync()";
        case SyncKind::syncwarp: return "__syncwarp()";
        case SyncKind::coalesce: return "cg::coalesced_threads()";
        case SyncKind::tile_sync: return "a multi-warp tile's sync()";
        case SyncKind::tile_shfl: return "a multi-warp tile's shfl(), any(), all(), reduce or scan";
        case SyncKind::shfl_idx: return "__shfl_sync()";
        case SyncKind::shfl_up: return "__shfl_up_sync()";
        case SyncKind::shfl_down: return "__shfl_down_sync()";
        case SyncKind::shfl_xor: return "__shfl_xor_sync()";
        case SyncKind::ballot: return "__ballot_sync()";
        case SyncKind::any: return "__any_sync()";
        case SyncKind::all: return "__all_sync()";
        case SyncKind::match_any: return "__match_any_sync()";
        case SyncKind::match_all: return "__match_all_sync()";
        case SyncKind::reduce_add: return "__reduce_add_sync()";
        case SyncKind::reduce_min: return "__reduce_min_sync()";
        case SyncKind::reduce_max: return "__reduce_max_sync()";
    }
    return "?";
}

// ---- warp intrinsics ----

std::string caller_outside_mask(const SyncCall& call, unsigned mask, int lane) {
    return call_text(call) + " was called with mask " + hex_text(mask) + ", which leaves out the calling lane " +
           std::to_string(lane) + ": every calling lane must be in its mask";
}

std::string mask_names_missing_lanes(const SyncCall& call, unsigned mask, unsigned missing,
                                     int block_threads) {
    return call_text(call) + " names lanes that do not exist (mask " + hex_text(mask) + ", missing " +
           hex_text(missing) + "): the block has " + std::to_string(block_threads) +
           " threads, so its last warp is partial. A GPU runs it, and so does the CPU backend, but " +
           kMaskGuideline;
}

std::string bad_shuffle_width(const SyncCall& call, int width) {
    return call_text(call) + " was called with width " + std::to_string(width) +
           ": width must be a power of two from 1 to 32 (on a GPU another width gives results CUDA does not "
           "define)";
}

std::string mask_names_returned_lanes(const Waiter& waiter, unsigned mask, unsigned returned) {
    return wait_text(waiter) + " names lanes that have returned from the kernel (mask " + hex_text(mask) +
           ", returned " + hex_text(returned) +
           "). They take no part, as the Programming Guide has it (\"all non-exited threads named in mask "
           "must execute the same intrinsic\"), and a shuffle that reads one is stopped; " +
           kMaskGuideline;
}

std::string shuffle_reads_absent_lane(const ShuffleRead& read, AbsentLane why, int block_threads,
                                      const std::string& source_thread) {
    std::string lane;
    switch (why) {
        case AbsentLane::missing:
            lane = ", which does not exist (the block has " + std::to_string(block_threads) +
                   " threads, so its last warp is partial)";
            break;
        case AbsentLane::outside_mask: lane = ", which is not in the mask"; break;
        case AbsentLane::returned:
            lane = ", which has returned from the kernel (" + source_thread + ")";
            break;
    }
    return wait_text(read.reader) + " with mask " + hex_text(read.mask) + ", width " + std::to_string(read.width) +
           " and parameter " + std::to_string(read.param) + ", so it reads lane " +
           std::to_string(read.source) + lane +
           ". The Programming Guide: \"Threads may only read data from another thread which is actively "
           "participating in the __shfl_sync() command. If the target thread is inactive, the retrieved "
           "value is undefined.\"";
}

std::string lane_waits_at_barrier(const Waiter& waiter, unsigned mask, int lane, const Waiter& other) {
    return "deadlock: " + wait_text(waiter) + " with mask " + hex_text(mask) + " and waits for lane " +
           std::to_string(lane) + ", but " + wait_text(other) +
           ": the lanes of a warp intrinsic's mask must all reach it";
}

std::string lanes_disagree(const LaneCall& mine, const LaneCall& theirs) {
    return "lanes of one mask disagree: " + lane_call_text(mine) + ", but " + lane_call_text(theirs) +
           ": every lane of a mask must call the same intrinsic with the same mask and width";
}

std::string no_thread_can_proceed() { return "deadlock: no thread can proceed"; }

std::string spin_without_writer(const std::vector<int>& spinning, const std::optional<Waiter>& waiting) {
    return (spinning.size() == 1 ? "thread " + ranges(spinning) + " keeps"
                                 : "threads " + ranges(spinning) + " keep") +
           " reading one address, waiting for a value that no thread writes: " +
           (waiting ? "the other threads of the block wait: " + wait_text(*waiting)
                    : "no other thread of the block is left to write it") +
           ". A spin-wait needs the writer to be able to run: if it is another block, a GPU gives no "
           "guarantee that it ever does, unless the launch is cooperative";
}

// ---- block barriers ----

std::string barriers_differ(const std::vector<int>& waiting, const SyncCall& barrier,
                            const std::vector<int>& elsewhere, const Waiter& other) {
    return "threads " + ranges(waiting) + " wait at " + call_text(barrier) + " while threads " +
           ranges(elsewhere) + " wait at " + wait_text(other) +
           ": every thread of a block must reach the same " + name_of(barrier.kind) + ". " + kBarrierRule;
}

std::string exit_before_barrier(const std::vector<int>& waiting, const SyncCall& barrier,
                                const std::vector<int>& exited, const std::optional<BarrierBypass>& bypass) {
    std::string how = " never reached before they left the kernel";
    if (bypass) {
        const std::string at = barrier.place.file + ":" + std::to_string(bypass->statement.line);
        const std::string& statement = bypass->statement.text;
        switch (bypass->how) {
            case Bypass::branch:
                how = " never reached: it sits inside the branch `" + statement + "` at " + at +
                      ", which those threads did not take";
                break;
            case Bypass::early_return:
                how = " never reached: they returned from the kernel at " + at + " (`" + statement +
                      "`) before it";
                break;
            case Bypass::loop:
                how = " never reached: it sits inside the loop `" + statement + "` at " + at +
                      ", which those threads left after fewer rounds";
                break;
        }
    }
    return "threads " + ranges(waiting) + " wait at " + call_text(barrier) + ", which threads " +
           ranges(exited) + how + ": every thread of a block must reach every __syncthreads(). " +
           kBarrierRule;
}

// ---- cooperative groups' tiles ----

std::string tile_member_returned(const Waiter& waiter, Tile tile, const std::string& member) {
    return wait_text(waiter) + ", which every thread of " + tile_text(tile) + " must reach, but " + member +
           " has already returned from the kernel";
}

std::string tile_threads_disagree(const Waiter& waiter, Tile tile, const Waiter& member) {
    return "the threads of one tile disagree: " + wait_text(waiter) + " (" + tile_text(tile) + "), but " +
           wait_text(member) +
           ": every thread of a tile must reach each of its collectives, and the same one";
}

std::string partial_multiwarp_tile(unsigned tile_size, unsigned parent_threads, Where where) {
    return "tiled_partition<" + std::to_string(tile_size) + ">() at " + where_text(where) +
           " splits a group of " + std::to_string(parent_threads) +
           " threads: its last tile would be partial, and a tile of several warps syncs all its threads, "
           "which that one does not have";
}

std::string bad_runtime_tile_size(unsigned tile_size, Where where) {
    return "cg::tiled_partition(group, " + std::to_string(tile_size) + ") at " + where_text(where) +
           ": a tile size given at run time must be a power of two from 1 to 32 (CUDA's cooperative groups "
           "trap on any other, and the kernel stops with an unspecified launch failure)";
}

std::string block_tile_memory_too_small(unsigned max_block_size, unsigned block_threads, Where where) {
    return "this_thread_block(block_tile_memory<" + std::to_string(max_block_size) + ">) at " +
           where_text(where) + " in a block of " + std::to_string(block_threads) +
           " threads: block_tile_memory's MaxBlockSize is the most threads the block may have, and the "
           "scratch it reserves is too small for more";
}

std::string partition_of_grid_or_cluster(const char* group, Where where) {
    return "cg::tiled_partition() at " + where_text(where) + " of " + group +
           ": CUDA partitions only a thread_block, a thread_block_tile or a coalesced_group (tiles of "
           "anything else are undefined)";
}

std::string tile_rank_out_of_range(SyncKind kind, unsigned source_rank, unsigned tile_size, Where where) {
    return std::string(name_of(kind)) + " at " + where_text(where) + " reads thread rank " +
           std::to_string(source_rank) + " of a tile of " + std::to_string(tile_size) +
           " threads: the rank must be less than the tile's size (on a GPU it reads another tile's scratch "
           "memory)";
}

// ---- grid and cluster barriers, distributed shared memory ----

std::string grid_sync_not_cooperative(Where where) {
    return "this_grid().sync() at " + where_text(where) +
           " in a kernel that was not launched cooperatively: a grid barrier needs every block of the grid "
           "resident at once, which only cudaLaunchCooperativeKernel (or cudaLaunchKernelEx with "
           "cudaLaunchAttributeCooperative) promises; a GPU stops the kernel there";
}

std::string blocks_stuck(const std::vector<BlocksAt>& waiting, const std::vector<uint3>& returned) {
    std::string text;
    for (const BlocksAt& place : waiting) {
        text += (text.empty() ? "" : " while ") + block_list(place.blocks) +
                (place.blocks.size() == 1 ? " waits at " : " wait at ") + name_of(place.kind) + " at " +
                where_text(place.where);
    }
    if (!returned.empty()) text += " while " + block_list(returned) + " returned from the kernel";
    if (waiting.size() == 1 && !returned.empty()) {
        const SyncKind kind = waiting.front().kind;
        return text + ": every thread of the " + (kind == SyncKind::grid_sync ? "grid" : "cluster") +
               " must reach every " + name_of(kind) +
               ", or the blocks that wait there never go on (on a GPU they hang)";
    }
    return text + ": no block can go on, each waits for blocks that wait elsewhere (on a GPU they hang)";
}

std::string stopped_by_other_block() { return "the launch was stopped by a fault in another block"; }

std::string block_returned_while_read(unsigned rank, unsigned reader_rank, Where read_at) {
    return "the block (rank " + std::to_string(rank) +
           " of its cluster) returned from the kernel while block rank " + std::to_string(reader_rank) +
           " may still read its shared memory, mapped by " + map_shared_rank_text(read_at) +
           " after the last this_cluster().sync() both passed: " + kSharedMemoryLifetime;
}

std::string shared_rank_without_clusters(Where where, int rank) {
    return map_shared_rank_text(where) + " asks for block rank " + std::to_string(rank) +
           ", but the kernel was launched without clusters: each block is a cluster of one, rank 0";
}

std::string shared_rank_outside_cluster(Where where, int rank, unsigned cluster_blocks) {
    return map_shared_rank_text(where) + " asks for block rank " + std::to_string(rank) +
           ", but the cluster has " + std::to_string(cluster_blocks) + " blocks (ranks 0 to " +
           std::to_string(cluster_blocks - 1) + ")";
}

std::string shared_rank_past_end(Where where, std::size_t bytes, std::size_t offset,
                                 const std::string& region, std::size_t region_bytes, int rank) {
    return map_shared_rank_text(where) + " maps " + std::to_string(bytes) + " bytes at offset " +
           std::to_string(offset) + " of " + region + ", which holds " + std::to_string(region_bytes) +
           " bytes: the access runs past the end of block rank " + std::to_string(rank) + "'s shared memory";
}

std::string shared_rank_before_first_sync(Where where, int rank) {
    return map_shared_rank_text(where) + " reaches into block rank " + std::to_string(rank) +
           " before the cluster's first this_cluster().sync(): that block may not have started yet, so its "
           "shared memory holds nothing it wrote";
}

std::string shared_rank_of_returned_block(Where where, int rank, uint3 block) {
    return map_shared_rank_text(where) + " reaches into block rank " + std::to_string(rank) + " (block " +
           dims(block) + "), which has already returned from the kernel: " + kSharedMemoryLifetime;
}

std::string shared_rank_of_unshared_address(Where where) {
    return map_shared_rank_text(where) +
           " was given an address that is not in the block's shared memory: it maps a __shared__ variable or "
           "the dynamic shared memory of one block to the same place in another";
}

std::string shared_rank_in_no_variable(Where where, const std::optional<PastArray>& near) {
    return map_shared_rank_text(where) + " was given an address in no __shared__ variable of the block" +
           (near ? ": it lies " + std::to_string(near->bytes_past) +
                       " bytes past the end of the __shared__ array " + near->name + " (" +
                       std::to_string(near->bytes) + " bytes)"
                 : "");
}

}  // namespace warpdrill::cpu::detail
