// warpdrill's CPU backend: <cooperative_groups/reduce.h>, cg::reduce over a
// tile and its operators. As with nvcc, they are not in <cooperative_groups.h>.
#pragma once

#include <source_location>

#include "warpdrill/cpu/cooperative_groups.h"

namespace cooperative_groups {

// ---- operators for reduce ------------------------------------------------------
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

// ---- reduce: every thread of the tile gets op over the tile's values (xor butterfly) ----
template <unsigned Size, class ParentT, class T, class Op>
T reduce(const thread_block_tile<Size, ParentT>& tile, T value, Op op,
         std::source_location where = std::source_location::current()) {
    for (unsigned lane_mask = Size / 2; lane_mask > 0; lane_mask /= 2) {
        value = op(value, tile.shfl_xor(value, lane_mask, where));
    }
    return value;
}

}  // namespace cooperative_groups
