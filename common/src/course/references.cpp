#include "warpdrill/course/references.h"

#include <algorithm>
#include <bit>

#include "warpdrill/messages.h"

namespace warpdrill::course {
namespace {

constexpr int kWarp = 32;

// Thread t's lane in its group, and the thread that starts the group.
struct Group {
    int lane;   // 0 .. width - 1
    int first;  // thread index of the group's lane 0
};

Group group_of(int t, int width) {
    const int warp_lane = t % kWarp;
    return {warp_lane % width, t - warp_lane % width};
}

template <class Source>
std::vector<int> gather(const std::vector<int>& in, Source source) {
    std::vector<int> out(in.size());
    for (int t = 0; t < static_cast<int>(in.size()); ++t) out[t] = in[source(t)];
    return out;
}

}  // namespace

std::vector<int> broadcast_reference(const std::vector<int>& in, int src_lane, int width) {
    return gather(in, [&](int t) { return group_of(t, width).first + (src_lane & (width - 1)); });
}

std::vector<int> shift_up_reference(const std::vector<int>& in, int delta, int width) {
    return gather(in, [&](int t) { return group_of(t, width).lane >= delta ? t - delta : t; });
}

std::vector<int> shift_down_reference(const std::vector<int>& in, int delta, int width) {
    return gather(in, [&](int t) { return group_of(t, width).lane + delta < width ? t + delta : t; });
}

std::vector<int> rotate_reference(const std::vector<int>& in, int shift, int width) {
    return gather(in, [&](int t) {
        const Group g = group_of(t, width);
        return g.first + (g.lane + shift) % width;
    });
}

std::vector<int> group_sum_reference(const std::vector<int>& in, int, int width) {
    std::vector<int> out(in.size());
    for (int t = 0; t < static_cast<int>(in.size()); ++t) {
        const int first = group_of(t, width).first;
        for (int k = 0; k < width; ++k) out[t] += in[first + k];
    }
    return out;
}

std::vector<int> swap_arrays_reference(const std::vector<int>& in, int lane_mask, int width) {
    std::vector<int> out(in.size());
    const int threads = static_cast<int>(in.size()) / kSwapValues;
    for (int t = 0; t < threads; ++t) {
        const int lane = t % kWarp;
        const int partner = lane ^ lane_mask;
        const int group_end = lane / width * width + width - 1;
        const int source = partner <= group_end ? t - lane + partner : t;
        for (int k = 0; k < kSwapValues; ++k) out[t * kSwapValues + k] = in[source * kSwapValues + k];
    }
    return out;
}

int tree_barriers(int tree_size) { return 1 + std::countr_zero(static_cast<unsigned>(tree_size)); }

std::string expect_block_barriers(const LaunchStats& stats, int per_block) {
    if (stats.blocks == 0 || stats.block_barriers == stats.blocks * static_cast<std::uint64_t>(per_block))
        return "";
    return messages::text(
        "checks.barriers.counted",
        {{"per_block", per_block}, {"counted", stats.block_barriers}, {"blocks", stats.blocks}});
}

std::string expect_tree_barriers(const LaunchStats& stats, int block_size) {
    const std::string problem = expect_block_barriers(stats, tree_barriers(block_size));
    return problem.empty() ? "" : messages::text("checks.barriers.tree", {{"problem", problem}});
}

std::string expect_fewer_barriers(const LaunchStats& stats, int block_size) {
    const int steps_above_warp = std::max(0, std::countr_zero(static_cast<unsigned>(block_size)) - 6);
    std::string problem = expect_block_barriers(stats, 1 + steps_above_warp);
    if (problem.empty() && stats.blocks > 0 && stats.warp_syncs == 0)
        problem = messages::text("checks.barriers.no_syncwarp");
    return problem.empty() ? "" : messages::text("checks.barriers.last_warp", {{"problem", problem}});
}

}  // namespace warpdrill::course
