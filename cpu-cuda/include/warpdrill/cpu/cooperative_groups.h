// warpdrill's CPU backend: CUDA's cooperative groups (<cooperative_groups.h>;
// cg::reduce and the scans are in cooperative_groups_reduce.h and
// cooperative_groups_scan.h), with CUDA's names and semantics. This file has
// thread_group, the type every group converts to, and the block, grid and
// cluster; the tiles are in cooperative_groups_tiles.h, coalesced groups and
// tiles sized at run time in cooperative_groups_coalesced.h. Tiles of a warp
// or less are the warp intrinsics with the tile's mask and width; grid and
// cluster barriers are block barriers that then wait for the other blocks.
// Every sync point takes the caller's source location, as the intrinsics do,
// so that a mistake is reported at the learner's line. Include
// <cooperative_groups.h>, not this file.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <source_location>

#include "warpdrill/cpu/cuda_runtime.h"

namespace warpdrill::cpu::detail {

inline constexpr unsigned kLanesPerWarp = 32;

inline unsigned block_threads() { return blockDim.x * blockDim.y * blockDim.z; }
inline unsigned rank_in_block() {
    return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
inline unsigned lane_of_caller() { return rank_in_block() % kLanesPerWarp; }
inline unsigned long long block_rank_in_grid() {
    return blockIdx.x + static_cast<unsigned long long>(gridDim.x) * (blockIdx.y + gridDim.y * blockIdx.z);
}
// The lowest `count` bits (count up to 32).
inline unsigned low_bits(unsigned count) { return count >= 32 ? ~0u : (1u << count) - 1; }

// Implemented with the scheduler (groups.cpp).
dim3 cluster_dims();  // (1,1,1) when the launch has no clusters
bool is_cooperative_launch();
std::uintptr_t map_shared_rank(std::uintptr_t address, std::size_t bytes, int rank, Where where);
// Fault when a group of parent_threads does not split into whole tiles of
// several warps,
// when a tile size given at run time is not one CUDA has, when the block has
// more threads than its block_tile_memory was made for, and when a group
// CUDA cannot partition is partitioned.
void check_tile(unsigned tile_size, unsigned parent_threads, Where where);
void check_runtime_tile(unsigned tile_size, Where where);
void check_tile_memory(unsigned max_block_size, Where where);
[[noreturn]] void fault_partition(bool grid, Where where);  // of the grid, or (grid false) of a cluster
// coalesced_threads(): the lanes of the caller's warp that reach this call
// together with it.
unsigned coalesce(Where where);
// One collective (SyncKind::tile_sync or tile_shfl) of the caller's tile of
// tile_size threads (several warps): waits for every thread of the tile and
// returns the bits that the thread of rank source_rank in the tile brought.
std::uint64_t tile_collective(SyncKind kind, unsigned tile_size, unsigned source_rank, std::uint64_t bits,
                              Where where);

// A value of any trivially copyable type through a warp shuffle, 8 bytes at a
// time: CUDA's group shuffles take any such type (the intrinsics, 8 bytes at most).
template <class T, class ShuffleWord>
T shuffle_words(const T& value, ShuffleWord shuffle_word) {
    static_assert(std::is_trivially_copyable_v<T>, "a group shuffles only trivially copyable types");
    std::uint64_t words[(sizeof(T) + 7) / 8] = {};
    std::memcpy(words, &value, sizeof(T));
    for (std::uint64_t& word : words) word = shuffle_word(word);
    T result = value;
    std::memcpy(&result, words, sizeof(T));
    return result;
}

}  // namespace warpdrill::cpu::detail

namespace cooperative_groups {

class thread_block;
class grid_group;
class cluster_group;
class coalesced_group;

// ---- the group every group converts to -------------------------------------------------
// A copy of the group it was made from (a block, grid, cluster, or some lanes
// of one warp: a coalesced group or a tile of at most 32 threads), which
// forwards each call to that group's own.
class thread_group {
  public:
    unsigned long long num_threads() const;
    unsigned long long size() const { return num_threads(); }
    unsigned long long thread_rank() const;
    void sync(std::source_location where = std::source_location::current()) const;

  protected:
    enum class Kind : std::uint8_t { block, grid, cluster, lanes };
    explicit thread_group(Kind kind) : kind_(kind) {}
    thread_group(unsigned lanes, unsigned meta_rank, unsigned meta_size, bool tiled)
        : kind_(Kind::lanes), lanes_(lanes), meta_rank_(meta_rank), meta_size_(meta_size), tiled_(tiled) {}
    friend thread_group tiled_partition(const thread_group& parent, unsigned tile_size, std::source_location where);

    Kind kind_;
    unsigned lanes_ = 0;  // Kind::lanes: the caller's warp's lanes in the group
    // Which group of its partition this is, and of how many (coalesced groups and tiles).
    unsigned meta_rank_ = 0;
    unsigned meta_size_ = 1;
    bool tiled_ = false;  // made by tiled_partition: consecutive ranks of the block
};

// ---- the block ----------------------------------------------------------------------
class thread_block : public thread_group {
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

  private:
    thread_block() : thread_group(Kind::block) {}
    friend thread_block this_thread_block();
};
inline thread_block this_thread_block() { return {}; }

// ---- the grid of a cooperative launch ------------------------------------------------------
class grid_group : public thread_group {
  public:
    // Only a cooperative launch may sync its grid.
    bool is_valid() const { return warpdrill::cpu::detail::is_cooperative_launch(); }
    static void sync(std::source_location where = std::source_location::current()) {
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

  private:
    grid_group() : thread_group(Kind::grid) {}
    friend grid_group this_grid();
};
inline grid_group this_grid() { return {}; }

// ---- the cluster of a cluster launch (a block is a cluster of one without) -----------------
class cluster_group : public thread_group {
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

  private:
    cluster_group() : thread_group(Kind::cluster) {}
    friend cluster_group this_cluster();
};
inline cluster_group this_cluster() { return {}; }

// ---- thread_group forwards to the group it was made from --------------------------------
inline unsigned long long thread_group::num_threads() const {
    switch (kind_) {
        case Kind::block: return thread_block::num_threads();
        case Kind::grid: return grid_group::num_threads();
        case Kind::cluster: return cluster_group::num_threads();
        case Kind::lanes: break;
    }
    return static_cast<unsigned>(std::popcount(lanes_));
}

inline unsigned long long thread_group::thread_rank() const {
    using warpdrill::cpu::detail::lane_of_caller;
    switch (kind_) {
        case Kind::block: return thread_block::thread_rank();
        case Kind::grid: return grid_group::thread_rank();
        case Kind::cluster: return cluster_group::thread_rank();
        case Kind::lanes: break;
    }
    return static_cast<unsigned>(std::popcount(lanes_ & warpdrill::cpu::detail::low_bits(lane_of_caller())));
}

inline void thread_group::sync(std::source_location where) const {
    switch (kind_) {
        case Kind::block: return thread_block::sync(where);
        case Kind::grid: return grid_group::sync(where);
        case Kind::cluster: return cluster_group::sync(where);
        case Kind::lanes: return __syncwarp(lanes_, where);
    }
}

// ---- CUDA's free functions: g.sync(), g.thread_rank(), g.num_threads() ---------------------
template <class Group>
void sync(const Group& group, std::source_location where = std::source_location::current()) {
    group.sync(where);
}
template <class Group>
auto thread_rank(const Group& group) -> decltype(group.thread_rank()) {
    return group.thread_rank();
}
template <class Group>
auto group_size(const Group& group) -> decltype(group.num_threads()) {
    return group.num_threads();
}

}  // namespace cooperative_groups

#include "warpdrill/cpu/cooperative_groups_coalesced.h"
#include "warpdrill/cpu/cooperative_groups_tiles.h"
