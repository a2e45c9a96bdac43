// warpdrill's CPU backend: the part of CUDA's cooperative groups
// (<cooperative_groups.h>; cg::reduce is in cooperative_groups_reduce.h) that the course
// uses, with CUDA's names and semantics. Thread-block tiles are the warp
// intrinsics with the tile's mask and width; grid and cluster barriers are
// block barriers that then wait for the other blocks. Every sync point takes
// the caller's source location, as the intrinsics do, so that a mistake is
// reported at the learner's line. Include <cooperative_groups.h>, not this file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <source_location>

#include "warpdrill/cpu/cuda_runtime.h"

namespace warpdrill::cpu::detail {

inline unsigned block_threads() { return blockDim.x * blockDim.y * blockDim.z; }
inline unsigned rank_in_block() {
    return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
inline unsigned long long block_rank_in_grid() {
    return blockIdx.x + static_cast<unsigned long long>(gridDim.x) * (blockIdx.y + gridDim.y * blockIdx.z);
}

// Implemented with the scheduler (groups.cpp).
dim3 cluster_dims();  // (1,1,1) when the launch has no clusters
bool is_cooperative_launch();
std::uintptr_t map_shared_rank(std::uintptr_t address, std::size_t bytes, int rank, Where where);
void check_tile(unsigned tile_size, unsigned parent_threads, Where where);

}  // namespace warpdrill::cpu::detail

namespace cooperative_groups {

// ---- the block ----------------------------------------------------------------------
class thread_block {
  public:
    static void sync(std::source_location where = std::source_location::current()) {
        __syncthreads(where);
    }
    static unsigned thread_rank() { return warpdrill::cpu::detail::rank_in_block(); }
    static unsigned num_threads() { return warpdrill::cpu::detail::block_threads(); }
    static unsigned size() { return num_threads(); }
    static dim3 group_index() { return blockIdx; }
    static dim3 thread_index() { return threadIdx; }
    static dim3 dim_threads() { return blockDim; }
    static dim3 group_dim() { return blockDim; }
};
inline thread_block this_thread_block() { return {}; }

// ---- tiles: a warp, or a power-of-two part of one ---------------------------------------
template <unsigned Size, class ParentT = void>
class thread_block_tile;

// The parent (the block, or a larger tile) split into tiles of Size threads;
// the parent's size must be a multiple of Size.
template <unsigned Size, class ParentT>
thread_block_tile<Size, ParentT> tiled_partition(
    const ParentT& parent, std::source_location where = std::source_location::current());

template <unsigned Size, class ParentT>
class thread_block_tile {
    static_assert(Size >= 1 && Size <= 32 && (Size & (Size - 1)) == 0,
                  "cg::tiled_partition<Size>: warpdrill's CPU backend has tiles of 1, 2, 4, 8, 16 or 32 "
                  "threads (a power of two, at most one warp)");
    using Where = std::source_location;

  public:
    // The same tile with its parent's type forgotten, as CUDA allows:
    // thread_block_tile<32> warp = tiled_partition<32>(block).
    template <class OtherParent>
    thread_block_tile(const thread_block_tile<Size, OtherParent>& other)
        : parent_threads_(other.parent_threads_) {}

    static constexpr unsigned num_threads() { return Size; }
    static constexpr unsigned size() { return Size; }
    static unsigned thread_rank() { return warpdrill::cpu::detail::rank_in_block() % Size; }
    // Which tile of the parent group this is, and how many there are.
    unsigned meta_group_rank() const {
        return warpdrill::cpu::detail::rank_in_block() % parent_threads_ / Size;
    }
    unsigned meta_group_size() const { return parent_threads_ / Size; }

    void sync(Where where = Where::current()) const { __syncwarp(mask(), where); }

    template <class T>
    T shfl(T var, int src_rank, Where where = Where::current()) const {
        return __shfl_sync(mask(), var, src_rank, Size, where);
    }
    template <class T>
    T shfl_up(T var, unsigned delta, Where where = Where::current()) const {
        return __shfl_up_sync(mask(), var, delta, Size, where);
    }
    template <class T>
    T shfl_down(T var, unsigned delta, Where where = Where::current()) const {
        return __shfl_down_sync(mask(), var, delta, Size, where);
    }
    template <class T>
    T shfl_xor(T var, unsigned lane_mask, Where where = Where::current()) const {
        return __shfl_xor_sync(mask(), var, static_cast<int>(lane_mask), Size, where);
    }
    int any(int predicate, Where where = Where::current()) const {
        return __any_sync(mask(), predicate, where);
    }
    int all(int predicate, Where where = Where::current()) const {
        return __all_sync(mask(), predicate, where);
    }
    // Bit k is thread k of the tile.
    unsigned ballot(int predicate, Where where = Where::current()) const {
        return __ballot_sync(mask(), predicate, where) >> first_lane();
    }

  private:
    template <unsigned, class>
    friend class thread_block_tile;
    template <unsigned S, class P>
    friend thread_block_tile<S, P> tiled_partition(const P&, std::source_location);

    explicit thread_block_tile(unsigned parent_threads) : parent_threads_(parent_threads) {}
    static unsigned first_lane() { return warpdrill::cpu::detail::rank_in_block() % warpSize / Size * Size; }
    static unsigned mask() { return Size == 32 ? 0xffffffffu : ((1u << Size) - 1) << first_lane(); }

    unsigned parent_threads_;
};

template <unsigned Size, class ParentT>
thread_block_tile<Size, ParentT> tiled_partition(const ParentT& parent, std::source_location where) {
    warpdrill::cpu::detail::check_tile(Size, parent.num_threads(), where);
    return thread_block_tile<Size, ParentT>(parent.num_threads());
}

// ---- the grid of a cooperative launch ------------------------------------------------------
class grid_group {
  public:
    // Only a cooperative launch may sync its grid.
    bool is_valid() const { return warpdrill::cpu::detail::is_cooperative_launch(); }
    void sync(std::source_location where = std::source_location::current()) const {
        warpdrill::cpu::detail::block_sync(warpdrill::cpu::detail::SyncKind::grid_sync, 0, where);
    }
    static unsigned long long thread_rank() {
        using namespace warpdrill::cpu::detail;
        return block_rank_in_grid() * block_threads() + rank_in_block();
    }
    static unsigned long long num_threads() { return num_blocks() * warpdrill::cpu::detail::block_threads(); }
    static unsigned long long size() { return num_threads(); }
    static unsigned long long block_rank() { return warpdrill::cpu::detail::block_rank_in_grid(); }
    static unsigned long long num_blocks() {
        return static_cast<unsigned long long>(gridDim.x) * gridDim.y * gridDim.z;
    }
    static dim3 block_index() { return blockIdx; }
    static dim3 dim_blocks() { return gridDim; }
    static dim3 group_dim() { return gridDim; }
};
inline grid_group this_grid() { return {}; }

// ---- the cluster of a cluster launch (a block is a cluster of one without) -----------------
class cluster_group {
  public:
    static void sync(std::source_location where = std::source_location::current()) {
        warpdrill::cpu::detail::block_sync(warpdrill::cpu::detail::SyncKind::cluster_sync, 0, where);
    }
    static dim3 dim_blocks() { return warpdrill::cpu::detail::cluster_dims(); }
    static unsigned num_blocks() {
        const dim3 d = dim_blocks();
        return d.x * d.y * d.z;
    }
    static dim3 block_index() {
        const dim3 d = dim_blocks();
        return dim3(blockIdx.x % d.x, blockIdx.y % d.y, blockIdx.z % d.z);
    }
    static unsigned block_rank() {
        const dim3 d = dim_blocks();
        const dim3 b = block_index();
        return b.x + d.x * (b.y + d.y * b.z);
    }
    static unsigned num_threads() { return num_blocks() * warpdrill::cpu::detail::block_threads(); }
    static unsigned size() { return num_threads(); }
    static unsigned thread_rank() {
        return block_rank() * warpdrill::cpu::detail::block_threads() +
               warpdrill::cpu::detail::rank_in_block();
    }
    // The same variable in the shared memory of block `rank` of the cluster.
    template <class T>
    static T* map_shared_rank(T* address, int rank,
                              std::source_location where = std::source_location::current()) {
        return reinterpret_cast<T*>(warpdrill::cpu::detail::map_shared_rank(
            reinterpret_cast<std::uintptr_t>(address), sizeof(T), rank, where));
    }
};
inline cluster_group this_cluster() { return {}; }

// CUDA's free function: g.sync().
template <class Group>
void sync(const Group& group, std::source_location where = std::source_location::current()) {
    group.sync(where);
}

}  // namespace cooperative_groups
