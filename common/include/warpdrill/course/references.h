// Host references for the shuffle exercises, written from CUDA's documented
// semantics for power-of-two widths, and helpers for the counter checks.
#pragma once

#include <string>
#include <vector>

#include "warpdrill/testing.h"

namespace warpdrill::course {

std::vector<int> broadcast_reference(const std::vector<int>& in, int src_lane, int width);
std::vector<int> shift_up_reference(const std::vector<int>& in, int delta, int width);
std::vector<int> shift_down_reference(const std::vector<int>& in, int delta, int width);
std::vector<int> rotate_reference(const std::vector<int>& in, int shift, int width);
std::vector<int> group_sum_reference(const std::vector<int>& in, int unused, int width);
// kSwapValues ints per thread; a lane takes the array of lane ^ lane_mask
// when that lane is not in a later group of `width`, else keeps its own.
inline constexpr int kSwapValues = 4;
std::vector<int> swap_arrays_reference(const std::vector<int>& in, int lane_mask, int width);

// A shared-memory tree over a block: one barrier after the load, one per step.
int tree_barriers(int tree_size);
// "" when every block passed tree_barriers(block_size) __syncthreads().
std::string expect_tree_barriers(const LaunchStats& stats, int block_size);
// "" when the launch passed `per_block` __syncthreads() in every block.
std::string expect_block_barriers(const LaunchStats& stats, int per_block);
// "" when the last warp of the tree used __syncwarp() instead of __syncthreads():
// one barrier after the load and one per step with a stride above 32.
std::string expect_fewer_barriers(const LaunchStats& stats, int block_size);

}  // namespace warpdrill::course
