// warpdrill's CPU backend: thread_block_tile<Size> and tiled_partition<Size>,
// with CUDA's semantics. A tile of at most a warp (1, 2, 4, 8, 16 or 32
// threads) is the warp intrinsics with the tile's mask and width. A tile of
// several warps (64 to 1024 threads) meets in the scheduler: its sync() and
// its shfl(), any() and all() wait for every thread of the tile. As on an
// sm_80 or later GPU (the backend imitates sm_90), such tiles need no
// block_tile_memory, but take one. Included by cooperative_groups.h.
#pragma once

#include <source_location>
#include <type_traits>

#include "warpdrill/cpu/cooperative_groups.h"

namespace warpdrill::cpu::detail {

// What every tile has: its size, the caller's rank in it, and which tile of
// its parent (the group it was split from) it is.
template <unsigned Size>
class tile_shape {
  public:
    static constexpr unsigned num_threads() { return Size; }
    static constexpr unsigned size() { return Size; }
    static unsigned thread_rank() { return rank_in_block() % Size; }
    unsigned meta_group_rank() const { return rank_in_block() % parent_threads_ / Size; }
    unsigned meta_group_size() const { return parent_threads_ / Size; }

    explicit tile_shape(unsigned parent_threads) : parent_threads_(parent_threads) {}

  protected:
    unsigned parent_threads_;
};

// A tile of at most a warp: the warp intrinsics with the tile's lanes.
template <unsigned Size>
class warp_tile : public tile_shape<Size> {
  public:
    using tile_shape<Size>::tile_shape;

    void sync(Where where = Where::current()) const { __syncwarp(mask(), where); }

    template <class T>
    T shfl(T var, int src_rank, Where where = Where::current()) const {
        return shuffle_words(var, [&](std::uint64_t word) { return __shfl_sync(mask(), word, src_rank, Size, where); });
    }
    template <class T>
    T shfl_up(T var, unsigned delta, Where where = Where::current()) const {
        return shuffle_words(var, [&](std::uint64_t word) { return __shfl_up_sync(mask(), word, delta, Size, where); });
    }
    template <class T>
    T shfl_down(T var, unsigned delta, Where where = Where::current()) const {
        return shuffle_words(var,
                             [&](std::uint64_t word) { return __shfl_down_sync(mask(), word, delta, Size, where); });
    }
    template <class T>
    T shfl_xor(T var, unsigned lane_mask, Where where = Where::current()) const {
        return shuffle_words(var, [&](std::uint64_t word) {
            return __shfl_xor_sync(mask(), word, static_cast<int>(lane_mask), Size, where);
        });
    }
    int any(int predicate, Where where = Where::current()) const { return __any_sync(mask(), predicate, where); }
    int all(int predicate, Where where = Where::current()) const { return __all_sync(mask(), predicate, where); }
    // Bit k is thread k of the tile.
    unsigned ballot(int predicate, Where where = Where::current()) const {
        return __ballot_sync(mask(), predicate, where) >> first_lane();
    }

    // The calling thread's tile's lanes of its warp.
    static unsigned lanes() { return mask(); }

  protected:
    static unsigned first_lane() { return lane_of_caller() / Size * Size; }
    static unsigned mask() { return low_bits(Size) << first_lane(); }
};

// A tile of several warps. Its collectives take values of at most 8 bytes, as CUDA's do.
template <unsigned Size>
class multi_warp_tile : public tile_shape<Size> {
  public:
    using tile_shape<Size>::tile_shape;

    void sync(Where where = Where::current()) const { tile_collective(SyncKind::tile_sync, Size, 0, 0, where); }

    // The value of the thread of rank src_rank in the tile.
    template <class T>
    T shfl(T var, unsigned src_rank, Where where = Where::current()) const {
        static_assert(sizeof(T) <= 8 && std::is_trivially_copyable_v<T>,
                      "the collectives of a tile of more than 32 threads take values of at most 8 bytes");
        return from_bits<T>(tile_collective(SyncKind::tile_shfl, Size, src_rank, to_bits(var), where));
    }
    int any(int predicate, Where where = Where::current()) const {
        return __any_sync(~0u, from_each_warp(__any_sync(~0u, predicate, where), 0, where), where);
    }
    int all(int predicate, Where where = Where::current()) const {
        return __all_sync(~0u, from_each_warp(__all_sync(~0u, predicate, where), 0, where), where);
    }

    static constexpr unsigned kWarps = Size / kLanesPerWarp;
    // Lane k of every warp of the tile gets the value that lane `lane` of the
    // tile's warp k % kWarps brought: the warps' values, spread over each warp
    // (one collective, where each thread reads the rank it needs).
    template <class T>
    T from_each_warp(T var, unsigned lane, Where where) const {
        const unsigned source_rank = lane_of_caller() % kWarps * kLanesPerWarp + lane;
        return from_bits<T>(tile_collective(SyncKind::tile_shfl, Size, source_rank, to_bits(var), where));
    }
    // The caller's warp's index in the tile.
    static unsigned warp_rank() { return tile_shape<Size>::thread_rank() / kLanesPerWarp; }
};

template <unsigned Size>
using tile_of = std::conditional_t<(Size <= kLanesPerWarp), warp_tile<Size>, multi_warp_tile<Size>>;

}  // namespace warpdrill::cpu::detail

namespace cooperative_groups {

template <unsigned Size, class ParentT = void>
class thread_block_tile;

// The parent (the block, or a larger tile) split into tiles of Size threads;
// the parent's size must be a multiple of Size.
template <unsigned Size, class ParentT>
thread_block_tile<Size, ParentT> tiled_partition(const ParentT& parent,
                                                 std::source_location where = std::source_location::current());

// Size threads of consecutive ranks in the block. The tile knows its
// parent's type; thread_block_tile<Size> (ParentT void) is the same tile
// with that forgotten, and is a thread_group when it is at most a warp.
template <unsigned Size, class ParentT>
class thread_block_tile : public warpdrill::cpu::detail::tile_of<Size> {
    static_assert(Size >= 1 && Size <= 1024 && (Size & (Size - 1)) == 0,
                  "cg::tiled_partition<Size>: a tile has a power of two from 1 to 1024 threads");

  public:
    operator thread_block_tile<Size, void>() const { return thread_block_tile<Size, void>(this->parent_threads_); }

  private:
    template <unsigned S, class P>
    friend thread_block_tile<S, P> tiled_partition(const P&, std::source_location);
    explicit thread_block_tile(unsigned parent_threads) : warpdrill::cpu::detail::tile_of<Size>(parent_threads) {}
};

namespace details {
// thread_block_tile<Size, void> of at most a warp derives from thread_group too.
template <unsigned Size, bool IsGroup = (Size <= warpdrill::cpu::detail::kLanesPerWarp)>
class parentless_tile : public warpdrill::cpu::detail::tile_of<Size> {
  protected:
    explicit parentless_tile(unsigned parent_threads) : warpdrill::cpu::detail::tile_of<Size>(parent_threads) {}
};
template <unsigned Size>
class parentless_tile<Size, true> : public thread_group, public warpdrill::cpu::detail::warp_tile<Size> {
    using Tile = warpdrill::cpu::detail::warp_tile<Size>;

  public:
    using Tile::num_threads;
    using Tile::size;
    using Tile::sync;
    using Tile::thread_rank;

  protected:
    explicit parentless_tile(unsigned parent_threads)
        : thread_group(Tile::mask(), 0, 1, true), Tile(parent_threads) {
        meta_rank_ = Tile::meta_group_rank();
        meta_size_ = Tile::meta_group_size();
    }
};
}  // namespace details

template <unsigned Size>
class thread_block_tile<Size, void> : public details::parentless_tile<Size> {
    // Made from a tile with a parent: thread_block_tile<32> warp = tiled_partition<32>(block).
    template <unsigned, class>
    friend class thread_block_tile;
    explicit thread_block_tile(unsigned parent_threads) : details::parentless_tile<Size>(parent_threads) {}
};

namespace details {
template <class Group>
inline constexpr unsigned tile_size_of = 0;  // not a tile
template <unsigned Size, class ParentT>
inline constexpr unsigned tile_size_of<thread_block_tile<Size, ParentT>> = Size;
}  // namespace details

// A tile of several warps is made by all the threads of its parent, which
// meet there (CUDA's tile then readies its barrier).
template <unsigned Size, class ParentT>
thread_block_tile<Size, ParentT> tiled_partition(const ParentT& parent, std::source_location where) {
    constexpr unsigned parent_tile = details::tile_size_of<ParentT>;
    static_assert(std::is_same_v<ParentT, thread_block> || parent_tile != 0,
                  "cg::tiled_partition<Size>(parent): the parent is a thread_block or a thread_block_tile");
    static_assert(parent_tile == 0 || Size < parent_tile,
                  "cg::tiled_partition<Size>(tile): a tile splits only into smaller tiles");
    warpdrill::cpu::detail::check_tile(Size, parent.num_threads(), where);
    if constexpr (Size > warpdrill::cpu::detail::kLanesPerWarp) parent.sync(where);
    return thread_block_tile<Size, ParentT>(parent.num_threads());
}

// ---- a tile of at most a warp partitioned by value ---------------------------------------
template <class Label, unsigned Size, class ParentT>
coalesced_group labeled_partition(const thread_block_tile<Size, ParentT>& /*parent*/, Label label,
                                  std::source_location where = std::source_location::current()) {
    static_assert(Size <= warpdrill::cpu::detail::kLanesPerWarp,
                  "Labeled partition is available only for tiles of size smaller or equal to 32");
    const unsigned lanes = warpdrill::cpu::detail::warp_tile<Size>::lanes();
    return details::partition_by_label(lanes, details::label_bits(label), where);
}
template <unsigned Size, class ParentT>
coalesced_group binary_partition(const thread_block_tile<Size, ParentT>& /*parent*/, bool predicate,
                                 std::source_location where = std::source_location::current()) {
    static_assert(Size <= warpdrill::cpu::detail::kLanesPerWarp,
                  "Binary partition is available only for tiles of size smaller or equal to 32");
    return details::partition_by_label(warpdrill::cpu::detail::warp_tile<Size>::lanes(), predicate, where);
}

// ---- block_tile_memory: the scratch that tiles of several warps use --------------------
// Needed before sm_80; an sm_80 or later GPU keeps the scratch in shared
// memory it reserves, and so needs none (the backend has no scratch at all).
// MaxBlockSize is the most threads the block may have.
template <unsigned MaxBlockSize = 1024>
struct block_tile_memory {};

template <unsigned MaxBlockSize>
thread_block this_thread_block(block_tile_memory<MaxBlockSize>& /*scratch*/,
                               std::source_location where = std::source_location::current()) {
    warpdrill::cpu::detail::check_tile_memory(MaxBlockSize, where);
    return this_thread_block();
}

}  // namespace cooperative_groups
