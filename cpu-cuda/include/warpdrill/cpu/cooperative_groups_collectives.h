// warpdrill's CPU backend: what <cooperative_groups/reduce.h> and
// <cooperative_groups/scan.h> share: CUDA's operators (cg::plus, less,
// greater, bit_and, bit_or, bit_xor) and the trees that combine a group's
// values. The trees are CUDA's own, step for step, so that an operator whose
// results depend on the order it combines in (a float sum, a functor that is
// not commutative) gives what a GPU gives:
//   - reduce over a tile of at most a warp, or a full warp: a butterfly, each
//     thread combining its value with the one lane_mask away (16, 8, ..., 1),
//     as op(own, other);
//   - inclusive scan over a tile or a coalesced group: Hillis and Steele, each
//     thread combining with the rank 1, 2, 4, ... below it, as op(own, earlier);
//     reduce over a coalesced group that is not a full warp is that scan, as
//     its last rank has it;
//   - exclusive scan: the inclusive one shifted up one rank (the first gets
//     T{}); for cg::plus of an integer type, inclusive minus own value;
//   - a tile of several warps: the above within each warp, then over the
//     warps' results (each warp's reduction, or its last lane's scan value).
#pragma once

#include <source_location>
#include <type_traits>

#include "warpdrill/cpu/cooperative_groups.h"

namespace cooperative_groups {

// ---- operators -------------------------------------------------------------------------
template <class T>
struct plus {
    T operator()(T a, T b) const { return a + b; }
};
template <class T>
struct less {
    T operator()(T a, T b) const { return b < a ? b : a; }
};
template <class T>
struct greater {
    T operator()(T a, T b) const { return a < b ? b : a; }
};
template <class T>
struct bit_and {
    T operator()(T a, T b) const { return a & b; }
};
template <class T>
struct bit_or {
    T operator()(T a, T b) const { return a | b; }
};
template <class T>
struct bit_xor {
    T operator()(T a, T b) const { return a ^ b; }
};

}  // namespace cooperative_groups

namespace warpdrill::cpu::detail {

template <class T, class Op>
void check_operator() {
    static_assert(std::is_same_v<std::remove_cvref_t<std::invoke_result_t<Op&, T, T>>, T>,
                  "cg::reduce and the scans: the operator must take and return the values' type");
}

// ---- within at most a warp: any group with CUDA's shuffles ---------------------------------
template <class Group, class T, class Op>
T butterfly_reduce(const Group& group, T value, Op& op, Where where) {
    for (unsigned lane_mask = group.size() / 2; lane_mask > 0; lane_mask /= 2) {
        value = op(value, group.shfl_xor(value, lane_mask, where));
    }
    return value;
}

template <class Group, class T, class Op>
T inclusive_scan_in(const Group& group, T value, Op& op, Where where) {
    const unsigned rank = group.thread_rank();
    for (unsigned distance = 1; distance < group.size(); distance *= 2) {
        const T earlier = group.shfl_up(value, static_cast<int>(distance), where);
        if (distance <= rank) value = op(value, earlier);
    }
    return value;
}

template <class Group, class T, class Op>
T exclusive_from_inclusive(const Group& group, T inclusive, T value, Where where) {
    if constexpr (std::is_integral_v<T> && std::is_same_v<Op, cooperative_groups::plus<T>>) {
        return inclusive - value;
    } else {
        const T earlier = group.shfl_up(inclusive, 1, where);
        return group.thread_rank() == 0 ? T{} : earlier;
    }
}

template <class T, class Op>
T reduce_lanes(const cooperative_groups::coalesced_group& group, T value, Op& op, Where where) {
    if (group.size() == kLanesPerWarp) return butterfly_reduce(warp_tile<kLanesPerWarp>(kLanesPerWarp), value, op, where);
    const T scanned = inclusive_scan_in(group, value, op, where);
    return group.shfl(scanned, static_cast<int>(group.size() - 1), where);
}
template <unsigned Size, class T, class Op>
T reduce_lanes(const warp_tile<Size>& tile, T value, Op& op, Where where) {
    return butterfly_reduce(tile, value, op, where);
}

// ---- a tile of several warps ----------------------------------------------------------------
// Within each warp, then over the warps' results: lanes k of each warp hold
// warp k's (k < kWarps) and combine them in tiles of kWarps lanes, as CUDA's
// last warp does; each thread then takes its own warp's result.
template <unsigned Size, class T, class Op>
T reduce_warps(const multi_warp_tile<Size>& tile, T value, Op& op, Where where) {
    using Tile = multi_warp_tile<Size>;
    const warp_tile<kLanesPerWarp> warp(kLanesPerWarp);
    const T of_warp = butterfly_reduce(warp, value, op, where);
    const T of_warps = butterfly_reduce(warp_tile<Tile::kWarps>(kLanesPerWarp), tile.from_each_warp(of_warp, 0, where),
                                        op, where);
    return warp.shfl(of_warps, static_cast<int>(Tile::warp_rank()), where);
}

template <bool Exclusive, unsigned Size, class T, class Op>
T scan_warps(const multi_warp_tile<Size>& tile, T value, Op& op, Where where) {
    using Tile = multi_warp_tile<Size>;
    const warp_tile<kLanesPerWarp> warp(kLanesPerWarp);
    T in_warp = inclusive_scan_in(warp, value, op, where);
    const T warp_total = tile.from_each_warp(in_warp, kLanesPerWarp - 1, where);
    if constexpr (Exclusive) in_warp = warp.shfl_up(in_warp, 1, where);
    const warp_tile<Tile::kWarps> warps(kLanesPerWarp);
    const T totals_before = exclusive_from_inclusive<warp_tile<Tile::kWarps>, T, Op>(
        warps, inclusive_scan_in(warps, warp_total, op, where), warp_total, where);
    const T before_my_warp = warp.shfl(totals_before, static_cast<int>(Tile::warp_rank()), where);
    if (Exclusive && warp.thread_rank() == 0) return before_my_warp;
    return Tile::warp_rank() == 0 ? in_warp : op(in_warp, before_my_warp);
}

}  // namespace warpdrill::cpu::detail
