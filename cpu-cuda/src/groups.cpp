// The device side of cooperative groups where it needs the scheduler: grid
// and cluster barriers, the cluster's shape, distributed shared memory,
// coalesced_threads(), the collectives of tiles of several warps, and the
// checks on tile sizes.
#include <bit>

#include "access.h"
#include "coresident.h"
#include "scheduler.h"
#include "sync_faults.h"

namespace warpdrill::cpu::detail {
namespace {
constexpr int kWarpSize = 32;
}  // namespace

void wait_for_other_blocks(BlockRunner& block, SyncKind kind, Where where) {
    const GridShape& shape = block.shape();
    if (kind == SyncKind::grid_sync && !shape.groups.cooperative) {
        throw KernelFault(in_block(block.block_idx(), grid_sync_not_cooperative(where)));
    }
    // Without a cluster launch a block is a cluster of one: nobody else to wait for.
    if (shape.coresident) shape.coresident->wait(kind, where);
}

dim3 cluster_dims() { return block_of_caller().shape().groups.cluster; }

bool is_cooperative_launch() { return block_of_caller().shape().groups.cooperative; }

std::uintptr_t map_shared_rank(std::uintptr_t address, std::size_t bytes, int rank, Where where) {
    BlockRunner& block = block_of_caller();
    if (CoResidentBlocks* blocks = block.shape().coresident) {
        return blocks->map_shared_rank(block, address, bytes, rank, where);
    }
    if (rank != 0) block.fault_here(shared_rank_without_clusters(where, rank));
    return address;
}

void check_tile(unsigned tile_size, unsigned parent_threads, Where where) {
    // A tile of one warp or less may be partial (a block of 4 threads split
    // into tiles of 32): its missing lanes count as exited, as a partial
    // warp's do. A tile of several warps waits at its barrier for them all.
    if (tile_size > static_cast<unsigned>(kWarpSize) && parent_threads % tile_size != 0) {
        block_of_caller().fault_here(partial_multiwarp_tile(tile_size, parent_threads, where));
    }
}

void check_runtime_tile(unsigned tile_size, Where where) {
    if (tile_size == 0 || tile_size > 32 || !std::has_single_bit(tile_size)) {
        block_of_caller().fault_here(bad_runtime_tile_size(tile_size, where));
    }
}

void check_tile_memory(unsigned max_block_size, Where where) {
    const BlockRunner& block = block_of_caller();
    const dim3 shape = block.shape().block;
    const unsigned block_threads = shape.x * shape.y * shape.z;
    if (block_threads > max_block_size) {
        block.fault_here(block_tile_memory_too_small(max_block_size, block_threads, where));
    }
}

[[noreturn]] void fault_partition(bool grid, Where where) {
    block_of_caller().fault_here(partition_of_grid_or_cluster(grid, where));
}

unsigned coalesce(Where where) { return static_cast<unsigned>(block_of_caller().group_sync(SyncKind::coalesce, 0, 0, 0, where)); }

unsigned active_mask(Where where) {
    return static_cast<unsigned>(block_of_caller().group_sync(SyncKind::activemask, 0, 0, 0, where));
}

std::uint64_t tile_collective(SyncKind kind, unsigned tile_size, unsigned source_rank, std::uint64_t bits,
                              Where where) {
    BlockRunner& block = block_of_caller();
    if (source_rank >= tile_size) {
        block.fault_here(tile_rank_out_of_range(kind, source_rank, tile_size, where));
    }
    return block.group_sync(kind, static_cast<int>(tile_size), static_cast<int>(source_rank), bits, where);
}

std::uint64_t BlockRunner::group_sync(SyncKind kind, int width, int param, std::uint64_t bits, Where where) {
    if (watch_) watch_->sync_point();
    FiberThread& self = *running_;
    self.sync = {kind, 0, width, param, bits, where};
    yield(self);
    return self.result;
}

// A GPU runs the lanes of a warp that took the same path together, and
// coalesced_threads() and __activemask() name them. The fibers of a warp run one
// at a time, so the group is found when no lane of the warp can run any more:
// the lanes that wait at this same call are the ones that got there together;
// the others took another path (and wait elsewhere, or have returned).
bool BlockRunner::complete_coalesce_from(int rank) {
    const int base = rank / kWarpSize * kWarpSize;
    const unsigned live = live_lanes(rank / kWarpSize);
    const SyncPoint& mine = threads_[rank].sync;
    unsigned together = 0;
    for (int lane = 0; lane < kWarpSize; ++lane) {
        if (!(live >> lane & 1u)) continue;
        const FiberThread& other = threads_[base + lane];
        if (other.state != ThreadState::waiting) return false;  // may still get here
        if (other.sync.kind == mine.kind && same_place(other.sync.where, mine.where)) {
            together |= 1u << lane;
        }
    }
    for (int lane = 0; lane < kWarpSize; ++lane) {
        if (!(together >> lane & 1u)) continue;
        threads_[base + lane].result = together;
        threads_[base + lane].state = ThreadState::ready;
    }
    return true;
}

namespace {

// The same collective of the same tile: syncs meet anywhere (as __syncwarp()
// does), other collectives at one line.
bool same_tile_collective(const SyncPoint& a, const SyncPoint& b) {
    return a.kind == b.kind && a.width == b.width && (a.kind == SyncKind::tile_sync || same_place(a.where, b.where));
}

}  // namespace

// A collective of a tile of several warps completes when every thread of the
// tile waits at it; a shfl gives each the value of the rank it asked for.
// Only the tile's first thread looks (it must be there too), so that a
// round costs one pass over each tile. A tile that can never complete is
// reported with the deadlock (report_tile_mismatch).
bool BlockRunner::complete_tile_collective_from(int rank) {
    const SyncPoint& mine = threads_[rank].sync;
    const int first = rank / mine.width * mine.width;
    if (rank != first) return false;
    for (int member = first; member < first + mine.width; ++member) {
        const FiberThread& other = threads_[member];
        if (other.state != ThreadState::waiting || !same_tile_collective(mine, other.sync)) return false;
    }
    for (int member = first; member < first + mine.width; ++member) {
        FiberThread& thread = threads_[member];
        thread.result = threads_[first + thread.sync.param].sync.bits;
    }
    for (int member = first; member < first + mine.width; ++member) threads_[member].state = ThreadState::ready;
    order_tile_accesses(first, mine.width);
    return true;
}

// What the tile's threads did before the collective happens before what they
// do after it, for the race checks: between its warps, and between the lanes
// of each.
void BlockRunner::order_tile_accesses(int first, int width) {
    if (watch_) watch_->tile_barrier(first / kWarpSize, width / kWarpSize);
}

// No thread can move, and `rank` waits at a tile collective: name the thread
// of its tile that has returned, or waits somewhere else.
void BlockRunner::report_tile_mismatch(int rank) {
    const SyncPoint& mine = threads_[rank].sync;
    const Tile tile{rank / mine.width * mine.width, mine.width};
    for (int member = tile.first; member < tile.first + tile.width; ++member) {
        const FiberThread& other = threads_[member];
        if (other.state == ThreadState::exited || !same_tile_collective(mine, other.sync)) capture_stacks({rank, member});
        if (other.state == ThreadState::exited) {
            fault(tile_member_returned(waiter(rank), tile, describe_thread(member)));
        }
        if (!same_tile_collective(mine, other.sync)) {
            fault(tile_threads_disagree(waiter(rank), tile, waiter(member)));
        }
    }
}

}  // namespace warpdrill::cpu::detail
