// Lesson 12: thread-block clusters (sm_90, Hopper). Lesson 11's kernel with
// one more level between the block and the grid: the blocks of a cluster run
// at the same time on neighbouring SMs, and each can read the others' shared
// memory (distributed shared memory). A cluster adds its blocks' sums there,
// so that one value per cluster reaches global memory, not one per block;
// after the grid's barrier block 0 adds the clusters' values.
#pragma once

#include <cstdint>

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include "warpdrill/cuda.h"
#include "warpdrill/groups.cuh"

namespace cg = cooperative_groups;

// Blocks per cluster, along x: every sm_90 GPU runs clusters of up to 8.
constexpr unsigned kClusterBlocks = 4;

// Sums in[0, n) into *out in one cooperative launch in clusters of
// kClusterBlocks blocks. cluster_sums[c] receives cluster c's sum. `in` is
// 16-byte aligned. Clusters need sm_90: compiled for an older GPU the body
// is empty, and the host never launches it there.
__global__ void reduce_cluster(const float* in, float* cluster_sums, float* out, std::int64_t n) {
#if WARPDRILL_HAS_CLUSTERS
    const cg::grid_group grid = cg::this_grid();
    const cg::cluster_group cluster = cg::this_cluster();
    const cg::thread_block block = cg::this_thread_block();
    const cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    __shared__ float block_total;  // this block's sum, read by its cluster's block rank 0

    const float sum = warpdrill::block_sum(
        block, warpdrill::grid_stride_sum(in, n, grid.thread_rank(), grid.num_threads()));
    if (block.thread_rank() == 0) block_total = sum;

    // begin:cluster_sum
    // Every block of the cluster has now written its block_total, and has
    // started: another block's shared memory exists only while it runs.
    cluster.sync();
    if (cluster.block_rank() == 0 && warp.meta_group_rank() == 0) {
        // Lane r reads block r's sum; the warp adds them, in rank order.
        const unsigned rank = warp.thread_rank();
        const float total = rank < cluster.num_blocks() ? *cluster.map_shared_rank(&block_total, rank) : 0.0f;
        const float cluster_total = cg::reduce(warp, total, cg::plus<float>());
        if (rank == 0) cluster_sums[blockIdx.x / cluster.num_blocks()] = cluster_total;
    }
    // No block may return, and take its shared memory with it, while block
    // rank 0 may still be reading it.
    cluster.sync();
    // end:cluster_sum

    grid.sync();
    if (blockIdx.x != 0) return;
    const float total = warpdrill::sum_in_order(block, cluster_sums, gridDim.x / cluster.num_blocks());
    if (block.thread_rank() == 0) *out = total;
#endif
}
