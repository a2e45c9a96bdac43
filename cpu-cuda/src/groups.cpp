// The device side of cooperative groups where it needs the scheduler: grid
// and cluster barriers, the cluster's shape, distributed shared memory and
// the check that a group splits into whole tiles.
#include "coresident.h"
#include "scheduler.h"

namespace warpdrill::cpu::detail {

void wait_for_other_blocks(BlockRunner& block, SyncKind kind, Where where) {
    const GridShape& shape = block.shape();
    if (kind == SyncKind::grid_sync && !shape.groups.cooperative) {
        throw KernelFault(
            "in block " + dims(block.block_idx()) + ": this_grid().sync() at " + where_text(where) +
            " in a kernel that was not launched cooperatively: a grid barrier needs every block of "
            "the grid resident at once, which only cudaLaunchCooperativeKernel (or "
            "cudaLaunchKernelEx with cudaLaunchAttributeCooperative) promises; a GPU stops the "
            "kernel there");
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
    if (rank != 0) {
        block.fault_here(
            "this_cluster().map_shared_rank() at " + where_text(where) + " asks for block rank " +
            std::to_string(rank) +
            ", but the kernel was launched without clusters: each block is a cluster of one, rank 0");
    }
    return address;
}

void check_tile(unsigned tile_size, unsigned parent_threads, Where where) {
    if (parent_threads % tile_size != 0) {
        block_of_caller().fault_here(
            "tiled_partition<" + std::to_string(tile_size) + ">() at " + where_text(where) +
            " splits a group of " + std::to_string(parent_threads) +
            " threads: its last tile would be partial, and that tile's shuffles and syncs would name threads "
            "that do not exist");
    }
}

}  // namespace warpdrill::cpu::detail
