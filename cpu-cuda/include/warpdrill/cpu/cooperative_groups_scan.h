// warpdrill's CPU backend: <cooperative_groups/scan.h>, cg::inclusive_scan
// and cg::exclusive_scan over a tile or a coalesced group (cg::plus when no
// operator is given). As with nvcc, they are not in <cooperative_groups.h>.
// The order values are combined in is CUDA's (cooperative_groups_collectives.h).
#pragma once

#include <source_location>

#include "warpdrill/cpu/cooperative_groups_collectives.h"

namespace warpdrill::cpu::detail {

template <bool Exclusive, class Group, class T, class Op>
T scan_lanes(const Group& group, T value, Op& op, Where where) {
    const T inclusive = inclusive_scan_in(group, value, op, where);
    if constexpr (Exclusive) return exclusive_from_inclusive<Group, T, Op>(group, inclusive, value, where);
    return inclusive;
}
template <bool Exclusive, unsigned Size, class T, class Op>
T scan(const warp_tile<Size>& tile, T value, Op& op, Where where) {
    return scan_lanes<Exclusive>(tile, value, op, where);
}
template <bool Exclusive, class T, class Op>
T scan(const cooperative_groups::coalesced_group& group, T value, Op& op, Where where) {
    return scan_lanes<Exclusive>(group, value, op, where);
}
template <bool Exclusive, unsigned Size, class T, class Op>
T scan(const multi_warp_tile<Size>& tile, T value, Op& op, Where where) {
    return scan_warps<Exclusive>(tile, value, op, where);
}

// cg::inclusive_scan (Exclusive false) and cg::exclusive_scan, over any group they take.
template <bool Exclusive, class Group, class T, class Op>
T checked_scan(const Group& group, T value, Op& op, Where where) {
    check_operator<T, Op>();
    return scan<Exclusive>(group, value, op, where);
}

}  // namespace warpdrill::cpu::detail

namespace cooperative_groups {

// Thread k gets op over the values of ranks 0 to k.
template <unsigned Size, class ParentT, class T, class Op = plus<T>>
T inclusive_scan(const thread_block_tile<Size, ParentT>& tile, T value, Op op = {},
                 std::source_location where = std::source_location::current()) {
    return warpdrill::cpu::detail::checked_scan<false>(tile, value, op, where);
}
template <class T, class Op = plus<T>>
T inclusive_scan(const coalesced_group& group, T value, Op op = {},
                 std::source_location where = std::source_location::current()) {
    return warpdrill::cpu::detail::checked_scan<false>(group, value, op, where);
}

// Thread k gets op over the values of ranks 0 to k - 1; rank 0 gets T{}.
template <unsigned Size, class ParentT, class T, class Op = plus<T>>
T exclusive_scan(const thread_block_tile<Size, ParentT>& tile, T value, Op op = {},
                 std::source_location where = std::source_location::current()) {
    return warpdrill::cpu::detail::checked_scan<true>(tile, value, op, where);
}
template <class T, class Op = plus<T>>
T exclusive_scan(const coalesced_group& group, T value, Op op = {},
                 std::source_location where = std::source_location::current()) {
    return warpdrill::cpu::detail::checked_scan<true>(group, value, op, where);
}

}  // namespace cooperative_groups
