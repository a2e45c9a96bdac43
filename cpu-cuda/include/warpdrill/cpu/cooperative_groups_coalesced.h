// warpdrill's CPU backend: groups of some lanes of one warp, with CUDA's
// semantics: cg::coalesced_group (the lanes that run together, from
// cg::coalesced_threads()) and the tiles that cg::tiled_partition(group, n)
// makes at run time. Their collectives are the warp intrinsics with the
// group's lanes as mask, so the scheduler checks them as it checks those.
// Included by cooperative_groups.h.
#pragma once

#include <algorithm>
#include <bit>
#include <source_location>

#include "warpdrill/cpu/cooperative_groups.h"

namespace cooperative_groups {

class coalesced_group;
namespace details {
// The threads of `parent` that hold the same label, as __match_any_sync
// finds them comparing every bit (labeled_partition, binary_partition).
coalesced_group partition_by_label(const coalesced_group& parent, unsigned long long label_bits,
                                   std::source_location where);
coalesced_group partition_by_label(unsigned parent_lanes, unsigned long long label_bits,
                                   std::source_location where);
}  // namespace details

class coalesced_group : public thread_group {
    using Where = std::source_location;

  public:
    unsigned num_threads() const { return static_cast<unsigned>(std::popcount(lanes_)); }
    unsigned size() const { return num_threads(); }
    unsigned thread_rank() const { return static_cast<unsigned>(thread_group::thread_rank()); }
    // Which group of its partition this is, and of how many (0 and 1 for coalesced_threads()).
    unsigned meta_group_rank() const { return meta_rank_; }
    unsigned meta_group_size() const { return meta_size_; }

    void sync(Where where = Where::current()) const { __syncwarp(lanes_, where); }

    // The value of the thread of rank src_rank in the group.
    template <class T>
    T shfl(T var, int src_rank, Where where = Where::current()) const {
        return from_lane(var, lane_of_rank(static_cast<unsigned>(src_rank)), where);
    }
    // The value of the thread delta ranks lower (or higher), or the caller's own where there is none.
    template <class T>
    T shfl_up(T var, int delta, Where where = Where::current()) const {
        return from_lane(var, lane_of_rank_or_own(static_cast<long long>(thread_rank()) - delta), where);
    }
    template <class T>
    T shfl_down(T var, unsigned delta, Where where = Where::current()) const {
        return from_lane(var, lane_of_rank_or_own(static_cast<long long>(thread_rank()) + delta), where);
    }

    int any(int predicate, Where where = Where::current()) const {
        return __ballot_sync(lanes_, predicate, where) != 0;
    }
    int all(int predicate, Where where = Where::current()) const {
        return __ballot_sync(lanes_, predicate, where) == lanes_;
    }
    // Bit k is the thread of rank k.
    unsigned ballot(int predicate, Where where = Where::current()) const {
        return by_rank(__ballot_sync(lanes_, predicate, where));
    }

  private:
    friend coalesced_group coalesced_threads(std::source_location where);
    friend thread_group tiled_partition(const thread_block& parent, unsigned tile_size, std::source_location where);
    friend coalesced_group tiled_partition(const coalesced_group& parent, unsigned tile_size,
                                           std::source_location where);
    friend thread_group tiled_partition(const thread_group& parent, unsigned tile_size, std::source_location where);
    friend coalesced_group details::partition_by_label(const coalesced_group&, unsigned long long,
                                                       std::source_location);
    friend coalesced_group details::partition_by_label(unsigned, unsigned long long, std::source_location);

    coalesced_group(unsigned lanes, unsigned meta_rank, unsigned meta_size, bool tiled)
        : thread_group(lanes, meta_rank, meta_size, tiled) {}

    // The lane of the thread of rank `rank`, as CUDA finds it: in a full warp
    // the rank itself; else the rank-th lane of the group, or, past the last,
    // all bits set (__fns finds none), of which a shuffle reads lane 31.
    unsigned lane_of_rank(unsigned rank) const {
        if (lanes_ == ~0u) return rank;
        unsigned lanes = lanes_;
        for (unsigned skipped = 0; skipped < rank && lanes != 0; ++skipped) lanes &= lanes - 1;
        return lanes == 0 ? ~0u : static_cast<unsigned>(std::countr_zero(lanes));
    }
    unsigned lane_of_rank_or_own(long long rank) const {
        return rank >= 0 && rank < static_cast<long long>(size()) ? lane_of_rank(static_cast<unsigned>(rank))
                                          : warpdrill::cpu::detail::lane_of_caller();
    }
    template <class T>
    T from_lane(const T& var, unsigned lane, Where where) const {
        return warpdrill::cpu::detail::shuffle_words(
            var, [&](std::uint64_t word) { return __shfl_sync(lanes_, word, static_cast<int>(lane), 32, where); });
    }
    // Lane bits packed into rank bits.
    unsigned by_rank(unsigned lane_bits) const {
        unsigned packed = 0;
        unsigned rank = 0;
        for (unsigned lanes = lanes_; lanes != 0; lanes &= lanes - 1, ++rank) {
            if (lane_bits >> std::countr_zero(lanes) & 1u) packed |= 1u << rank;
        }
        return packed;
    }
    // The lanes of ranks first to first + count - 1.
    unsigned lanes_of_ranks(unsigned first, unsigned count) const {
        unsigned lanes = 0;
        unsigned rank = 0;
        for (unsigned rest = lanes_; rest != 0; rest &= rest - 1, ++rank) {
            if (rank >= first && rank < first + count) lanes |= rest & -rest;
        }
        return lanes;
    }
};

// The lanes of the caller's warp that got to this call together: on a GPU the
// lanes that took the same path (__activemask()).
inline coalesced_group coalesced_threads(std::source_location where = std::source_location::current()) {
    return coalesced_group(warpdrill::cpu::detail::coalesce(where), 0, 1, false);
}

// ---- tiles sized at run time: tiled_partition(group, n) -------------------------------
// Consecutive ranks of the parent, n at a time; n must be a power of two
// from 1 to 32. The last tile of a block may be partial.
inline thread_group tiled_partition(const thread_block& parent, unsigned tile_size,
                                    std::source_location where = std::source_location::current()) {
    using namespace warpdrill::cpu::detail;
    check_runtime_tile(tile_size, where);
    const unsigned rank = parent.thread_rank();
    const unsigned first = rank / tile_size * tile_size;
    const unsigned members = std::min(parent.num_threads() - first, tile_size);
    const unsigned lanes = low_bits(members) << (first % kLanesPerWarp);
    return coalesced_group(lanes, rank / tile_size, (parent.num_threads() + tile_size - 1) / tile_size, true);
}

// A coalesced group's ranks n at a time; the group itself if it has at most n.
inline coalesced_group tiled_partition(const coalesced_group& parent, unsigned tile_size,
                                       std::source_location where = std::source_location::current()) {
    warpdrill::cpu::detail::check_runtime_tile(tile_size, where);
    if (parent.size() <= tile_size) return parent;
    const unsigned rank = parent.thread_rank();
    // CUDA counts the tiles of a tiled group rounding down, of another rounding up.
    const unsigned tiles = parent.tiled_ ? parent.size() / tile_size : (parent.size() + tile_size - 1) / tile_size;
    return coalesced_group(parent.lanes_of_ranks(rank / tile_size * tile_size, tile_size), rank / tile_size, tiles,
                           parent.tiled_);
}

inline thread_group tiled_partition(const thread_group& parent, unsigned tile_size,
                                    std::source_location where = std::source_location::current()) {
    using Kind = thread_group::Kind;
    if (parent.kind_ == Kind::block) return tiled_partition(this_thread_block(), tile_size, where);
    if (parent.kind_ == Kind::lanes) {
        const coalesced_group lanes(parent.lanes_, parent.meta_rank_, parent.meta_size_, parent.tiled_);
        return tiled_partition(lanes, tile_size, where);
    }
    warpdrill::cpu::detail::fault_partition(parent.kind_ == Kind::grid, where);
}

// ---- partitions by value: labeled_partition and binary_partition -----------------------
namespace details {
template <class Label>
unsigned long long label_bits(Label label) {
    static_assert(std::is_integral_v<Label> || std::is_pointer_v<Label>,
                  "labeled_partition predicate must be an integral or pointer type");
    if constexpr (std::is_pointer_v<Label>) {
        return reinterpret_cast<std::uintptr_t>(label);
    } else {
        return static_cast<unsigned long long>(label);
    }
}
inline coalesced_group partition_by_label(unsigned parent_lanes, unsigned long long label_bits,
                                          std::source_location where) {
    return coalesced_group(__match_any_sync(parent_lanes, label_bits, where), 0, 1, false);
}
inline coalesced_group partition_by_label(const coalesced_group& parent, unsigned long long label_bits,
                                          std::source_location where) {
    return partition_by_label(parent.lanes_, label_bits, where);
}
}  // namespace details

// Every thread of the parent must call these (a tile's are in tiles.h).
template <class Label>
coalesced_group labeled_partition(const coalesced_group& parent, Label label,
                                  std::source_location where = std::source_location::current()) {
    return details::partition_by_label(parent, details::label_bits(label), where);
}
inline coalesced_group binary_partition(const coalesced_group& parent, bool predicate,
                                        std::source_location where = std::source_location::current()) {
    return details::partition_by_label(parent, predicate, where);
}

}  // namespace cooperative_groups
