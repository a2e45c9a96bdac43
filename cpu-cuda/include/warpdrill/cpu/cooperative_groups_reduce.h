// warpdrill's CPU backend: <cooperative_groups/reduce.h>, cg::reduce over a
// tile or a coalesced group, and its operators. As with nvcc, they are not in
// <cooperative_groups.h>. The order values are combined in is CUDA's
// (cooperative_groups_collectives.h).
#pragma once

#include <source_location>

#include "warpdrill/cpu/cooperative_groups_collectives.h"

namespace cooperative_groups {

// Every thread of the group gets op over the group's values.
template <unsigned Size, class ParentT, class T, class Op>
T reduce(const thread_block_tile<Size, ParentT>& tile, T value, Op op,
         std::source_location where = std::source_location::current()) {
    using namespace warpdrill::cpu::detail;
    check_operator<T, Op>();
    if constexpr (Size <= kLanesPerWarp) {
        return reduce_lanes(tile, value, op, where);
    } else {
        return reduce_warps(tile, value, op, where);
    }
}

template <class T, class Op>
T reduce(const coalesced_group& group, T value, Op op, std::source_location where = std::source_location::current()) {
    warpdrill::cpu::detail::check_operator<T, Op>();
    return warpdrill::cpu::detail::reduce_lanes(group, value, op, where);
}

}  // namespace cooperative_groups
