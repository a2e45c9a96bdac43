#include "sync_faults.h"

#include <algorithm>

#include "warpdrill/messages.h"

namespace warpdrill::cpu::detail {

namespace {

// "0-15, 17, 20-31"
std::string ranges(const std::vector<int>& ranks) {
    std::string text;
    for (std::size_t i = 0; i < ranks.size();) {
        std::size_t j = i;
        while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) ++j;
        if (!text.empty()) text += ", ";
        text += std::to_string(ranks[i]);
        if (j > i) text += "-" + std::to_string(ranks[j]);
        i = j + 1;
    }
    return text;
}

// "block (1,0,0)" or "blocks (0,0,0), (2,0,0)", the first few of many.
std::string block_list(const std::vector<uint3>& blocks) {
    constexpr std::size_t kNamed = 6;
    if (blocks.size() == 1) return messages::text("backend.name.block", {{"block", dims(blocks.front())}});
    std::string named;
    for (std::size_t i = 0; i < std::min(blocks.size(), kNamed); ++i)
        named += (i ? ", " : "") + dims(blocks[i]);
    if (blocks.size() <= kNamed) return messages::text("backend.name.blocks", {{"blocks", named}});
    return messages::text("backend.name.blocks_and_more",
                          {{"blocks", named}, {"more", blocks.size() - kNamed}});
}

// "__shfl_down_sync() at reduce.cuh:14"
std::string call_text(const SyncCall& call) {
    return messages::text("backend.sync.call",
                          {{"call", name_of(call.kind)}, {"place", to_string(call.place)}});
}

// "thread 5 (warp 0, lane 5) is at __shfl_down_sync() at reduce.cuh:14"
std::string wait_text(const Waiter& waiter) {
    return messages::text("backend.sync.waiter", {{"thread", waiter.thread},
                                                  {"call", name_of(waiter.call.kind)},
                                                  {"place", to_string(waiter.call.place)}});
}

// "... with mask 0xffffffff and width 16"
std::string lane_call_text(const LaneCall& lane) {
    if (!lane.width) {
        return messages::text("backend.sync.lane_call",
                              {{"waiter", wait_text(lane.waiter)}, {"mask", hex_text(lane.mask)}});
    }
    return messages::text(
        "backend.sync.lane_call_width",
        {{"waiter", wait_text(lane.waiter)}, {"mask", hex_text(lane.mask)}, {"width", *lane.width}});
}

// "its tile of 64 threads (threads 0-63)"
std::string tile_text(Tile tile) {
    return messages::text(
        "backend.tile.its_tile",
        {{"threads", tile.width}, {"first", tile.first}, {"last", tile.first + tile.width - 1}});
}

}  // namespace

std::string name_of(SyncKind kind) {
    switch (kind) {
        case SyncKind::syncthreads: return "__syncthreads()";
        case SyncKind::syncthreads_count: return "__syncthreads_count()";
        case SyncKind::syncthreads_and: return "__syncthreads_and()";
        case SyncKind::syncthreads_or: return "__syncthreads_or()";
        case SyncKind::grid_sync: return "this_grid().sync()";
        case SyncKind::cluster_sync: return "this_cluster().sync()";
        case SyncKind::syncwarp: return "__syncwarp()";
        case SyncKind::coalesce: return "cg::coalesced_threads()";
        case SyncKind::activemask: return "__activemask()";
        case SyncKind::tile_sync: return messages::text("backend.sync.tile_sync");
        case SyncKind::tile_shfl: return messages::text("backend.sync.tile_collective");
        case SyncKind::shfl_idx: return "__shfl_sync()";
        case SyncKind::shfl_up: return "__shfl_up_sync()";
        case SyncKind::shfl_down: return "__shfl_down_sync()";
        case SyncKind::shfl_xor: return "__shfl_xor_sync()";
        case SyncKind::ballot: return "__ballot_sync()";
        case SyncKind::any: return "__any_sync()";
        case SyncKind::all: return "__all_sync()";
        case SyncKind::match_any: return "__match_any_sync()";
        case SyncKind::match_all: return "__match_all_sync()";
        case SyncKind::reduce_add: return "__reduce_add_sync()";
        case SyncKind::reduce_min: return "__reduce_min_sync()";
        case SyncKind::reduce_max: return "__reduce_max_sync()";
        case SyncKind::barrier_init: return "init(cuda::barrier*, expected)";
        case SyncKind::barrier_arrive: return "cuda::barrier::arrive()";
        case SyncKind::barrier_wait: return "cuda::barrier::wait()";
        case SyncKind::barrier_try_wait: return "cuda::barrier::try_wait_*()";
        case SyncKind::pipeline_producer_acquire: return "cuda::pipeline::producer_acquire()";
        case SyncKind::pipeline_consumer_wait: return "cuda::pipeline::consumer_wait()";
    }
    return "?";
}

// ---- warp intrinsics ----

std::string caller_outside_mask(const SyncCall& call, unsigned mask, int lane) {
    return messages::text("backend.warp.caller_outside_mask",
                          {{"sync_point", call_text(call)}, {"mask", hex_text(mask)}, {"lane", lane}});
}

std::string mask_names_missing_lanes(const SyncCall& call, unsigned mask, unsigned missing,
                                     int block_threads) {
    return messages::text("backend.warp.mask_names_missing_lanes",
                          {{"sync_point", call_text(call)},
                           {"mask", hex_text(mask)},
                           {"missing", hex_text(missing)},
                           {"threads", block_threads},
                           {"guideline", messages::text("backend.warp.mask_guideline")}});
}

std::string bad_shuffle_width(const SyncCall& call, int width) {
    return messages::text("backend.warp.bad_shuffle_width",
                          {{"sync_point", call_text(call)}, {"width", width}});
}

std::string mask_names_returned_lanes(const Waiter& waiter, unsigned mask, unsigned returned) {
    return messages::text("backend.warp.mask_names_returned_lanes",
                          {{"waiter", wait_text(waiter)},
                           {"mask", hex_text(mask)},
                           {"returned", hex_text(returned)},
                           {"guideline", messages::text("backend.warp.mask_guideline")}});
}

std::string shuffle_reads_absent_lane(const ShuffleRead& read, AbsentLane why, int block_threads,
                                      const std::string& source_thread) {
    std::string absent;
    switch (why) {
        case AbsentLane::missing:
            absent = messages::text("backend.warp.absent.missing", {{"threads", block_threads}});
            break;
        case AbsentLane::outside_mask: absent = messages::text("backend.warp.absent.outside_mask"); break;
        case AbsentLane::returned:
            absent = messages::text("backend.warp.absent.returned", {{"thread", source_thread}});
            break;
    }
    return messages::text("backend.warp.shuffle_reads_absent_lane", {{"waiter", wait_text(read.reader)},
                                                                     {"mask", hex_text(read.mask)},
                                                                     {"width", read.width},
                                                                     {"parameter", read.param},
                                                                     {"source", read.source},
                                                                     {"why", absent}});
}

std::string lane_waits_at_barrier(const Waiter& waiter, unsigned mask, int lane, const Waiter& other) {
    return messages::text("backend.warp.lane_waits_at_barrier", {{"waiter", wait_text(waiter)},
                                                                 {"mask", hex_text(mask)},
                                                                 {"lane", lane},
                                                                 {"other", wait_text(other)}});
}

std::string lanes_disagree(const LaneCall& mine, const LaneCall& theirs) {
    return messages::text("backend.warp.lanes_disagree",
                          {{"lane_call", lane_call_text(mine)}, {"other_lane_call", lane_call_text(theirs)}});
}

std::string no_thread_can_proceed() { return messages::text("backend.warp.no_thread_can_proceed"); }

std::string spin_without_writer(const std::vector<int>& spinning, const std::optional<Waiter>& waiting) {
    const std::string others =
        waiting ? messages::text("backend.spin.others_wait", {{"waiter", wait_text(*waiting)}})
                : messages::text("backend.spin.no_other");
    return messages::text(
        spinning.size() == 1 ? "backend.spin.thread" : "backend.spin.threads",
        {{"threads", ranges(spinning)}, {"others", others}, {"rule", messages::text("backend.spin.rule")}});
}

// ---- block barriers ----

std::string barriers_differ(const std::vector<int>& waiting, const SyncCall& barrier,
                            const std::vector<int>& elsewhere, const Waiter& other) {
    return messages::text("backend.barrier.differ", {{"waiting", ranges(waiting)},
                                                     {"sync_point", call_text(barrier)},
                                                     {"elsewhere", ranges(elsewhere)},
                                                     {"other", wait_text(other)},
                                                     {"barrier", name_of(barrier.kind)},
                                                     {"rule", messages::text("backend.barrier.rule")}});
}

namespace {

// How threads that left the kernel passed `barrier` by: "never reached: it sits inside the branch ...".
std::string bypass_text(const SyncCall& barrier, const std::optional<BarrierBypass>& bypass) {
    if (!bypass) return messages::text("backend.barrier.bypass.left");
    const char* id = "";
    switch (bypass->how) {
        case Bypass::branch: id = "backend.barrier.bypass.branch"; break;
        case Bypass::early_return: id = "backend.barrier.bypass.early_return"; break;
        case Bypass::loop: id = "backend.barrier.bypass.loop"; break;
    }
    return messages::text(id, {{"statement", bypass->statement.text},
                               {"where", barrier.place.file + ":" + std::to_string(bypass->statement.line)}});
}

}  // namespace

std::string exit_before_barrier(const std::vector<int>& waiting, const SyncCall& barrier,
                                const std::vector<int>& exited, const std::optional<BarrierBypass>& bypass) {
    return messages::text("backend.barrier.exit_before", {{"waiting", ranges(waiting)},
                                                          {"sync_point", call_text(barrier)},
                                                          {"exited", ranges(exited)},
                                                          {"how", bypass_text(barrier, bypass)},
                                                          {"rule", messages::text("backend.barrier.rule")}});
}

// ---- cooperative groups' tiles ----

std::string tile_member_returned(const Waiter& waiter, Tile tile, const std::string& member) {
    return messages::text("backend.tile.member_returned",
                          {{"waiter", wait_text(waiter)}, {"tile", tile_text(tile)}, {"member", member}});
}

std::string tile_threads_disagree(const Waiter& waiter, Tile tile, const Waiter& member) {
    return messages::text(
        "backend.tile.threads_disagree",
        {{"waiter", wait_text(waiter)}, {"tile", tile_text(tile)}, {"member", wait_text(member)}});
}

std::string partial_multiwarp_tile(unsigned tile_size, unsigned parent_threads, Where where) {
    return messages::text(
        "backend.tile.partial_multiwarp",
        {{"tile_size", tile_size}, {"where", where_text(where)}, {"threads", parent_threads}});
}

std::string bad_runtime_tile_size(unsigned tile_size, Where where) {
    return messages::text("backend.tile.bad_runtime_size",
                          {{"tile_size", tile_size}, {"where", where_text(where)}});
}

std::string block_tile_memory_too_small(unsigned max_block_size, unsigned block_threads, Where where) {
    return messages::text(
        "backend.tile.block_tile_memory_too_small",
        {{"max_threads", max_block_size}, {"where", where_text(where)}, {"threads", block_threads}});
}

std::string partition_of_grid_or_cluster(bool grid, Where where) {
    return messages::text(grid ? "backend.tile.partition_of_grid" : "backend.tile.partition_of_cluster",
                          {{"where", where_text(where)}});
}

std::string tile_rank_out_of_range(SyncKind kind, unsigned source_rank, unsigned tile_size, Where where) {
    return messages::text("backend.tile.rank_out_of_range", {{"collective", name_of(kind)},
                                                             {"where", where_text(where)},
                                                             {"rank", source_rank},
                                                             {"tile_size", tile_size}});
}

// ---- grid and cluster barriers, distributed shared memory ----

std::string grid_sync_not_cooperative(Where where) {
    return messages::text("backend.cluster.grid_sync_not_cooperative", {{"where", where_text(where)}});
}

std::string blocks_stuck(const std::vector<BlocksAt>& waiting, const std::vector<uint3>& returned) {
    std::string stuck;
    const auto add = [&](const std::string& blocks) {
        stuck = stuck.empty()
                    ? blocks
                    : messages::text("backend.cluster.while", {{"stuck", stuck}, {"others", blocks}});
    };
    for (const BlocksAt& place : waiting) {
        add(messages::text(
            place.blocks.size() == 1 ? "backend.cluster.block_waits" : "backend.cluster.blocks_wait",
            {{"blocks", block_list(place.blocks)},
             {"call", name_of(place.kind)},
             {"where", where_text(place.where)}}));
    }
    if (!returned.empty())
        add(messages::text("backend.cluster.blocks_returned", {{"blocks", block_list(returned)}}));
    if (waiting.size() == 1 && !returned.empty()) {
        const SyncKind kind = waiting.front().kind;
        return messages::text(kind == SyncKind::grid_sync ? "backend.cluster.grid_must_reach"
                                                          : "backend.cluster.cluster_must_reach",
                              {{"stuck", stuck}, {"barrier", name_of(kind)}});
    }
    return messages::text("backend.cluster.no_block_can_go_on", {{"stuck", stuck}});
}

std::string stopped_by_other_block() { return messages::text("backend.cluster.stopped_by_other_block"); }

std::string block_returned_while_read(unsigned rank, unsigned reader_rank, Where read_at) {
    return messages::text("backend.cluster.returned_while_read",
                          {{"rank", rank},
                           {"reader_rank", reader_rank},
                           {"where", where_text(read_at)},
                           {"rule", messages::text("backend.cluster.shared_memory_lifetime")}});
}

std::string shared_rank_without_clusters(Where where, int rank) {
    return messages::text("backend.cluster.rank_without_clusters",
                          {{"where", where_text(where)}, {"rank", rank}});
}

std::string shared_rank_outside_cluster(Where where, int rank, unsigned cluster_blocks) {
    return messages::text("backend.cluster.rank_outside_cluster", {{"where", where_text(where)},
                                                                   {"rank", rank},
                                                                   {"blocks", cluster_blocks},
                                                                   {"last_rank", cluster_blocks - 1}});
}

std::string shared_rank_past_end(Where where, std::size_t bytes, std::size_t offset,
                                 const std::string& region, std::size_t region_bytes, int rank) {
    return messages::text("backend.cluster.rank_past_end", {{"where", where_text(where)},
                                                            {"bytes", bytes},
                                                            {"offset", offset},
                                                            {"region", region},
                                                            {"region_bytes", region_bytes},
                                                            {"rank", rank}});
}

std::string shared_rank_before_first_sync(Where where, int rank) {
    return messages::text("backend.cluster.rank_before_first_sync",
                          {{"where", where_text(where)}, {"rank", rank}});
}

std::string shared_rank_of_returned_block(Where where, int rank, uint3 block) {
    return messages::text("backend.cluster.rank_of_returned_block",
                          {{"where", where_text(where)},
                           {"rank", rank},
                           {"block", dims(block)},
                           {"rule", messages::text("backend.cluster.shared_memory_lifetime")}});
}

std::string shared_rank_of_unshared_address(Where where) {
    return messages::text("backend.cluster.unshared_address", {{"where", where_text(where)}});
}

std::string shared_rank_in_no_variable(Where where, const std::optional<PastArray>& near) {
    if (!near) return messages::text("backend.cluster.in_no_variable", {{"where", where_text(where)}});
    return messages::text("backend.cluster.past_array", {{"where", where_text(where)},
                                                         {"bytes_past", near->bytes_past},
                                                         {"array", near->name},
                                                         {"bytes", near->bytes}});
}

// ---- cuda::barrier ----

std::string barrier_missing_init(const SyncCall& call) {
    return messages::text("backend.cuda_barrier.missing_init", {{"sync_point", call_text(call)}});
}

std::string barrier_expected_out_of_range(const SyncCall& call, std::ptrdiff_t expected, std::ptrdiff_t max) {
    return messages::text("backend.cuda_barrier.expected_out_of_range",
                          {{"sync_point", call_text(call)}, {"expected", expected}, {"max", max}});
}

std::string barrier_too_many_arrivals(const SyncCall& call, std::ptrdiff_t update, int pending) {
    return messages::text("backend.cuda_barrier.too_many_arrivals",
                          {{"sync_point", call_text(call)}, {"update", update}, {"pending", pending}});
}

std::string barrier_of_other_block(const SyncCall& call, std::uint32_t owner) {
    return messages::text("backend.cuda_barrier.other_block",
                          {{"sync_point", call_text(call)}, {"owner", owner}});
}

namespace {

// A pipeline's wait is on a stage's barrier: its phase is the stage's round.
const char* barrier_deadlock_id(SyncKind wait, bool one_thread) {
    switch (wait) {
        case SyncKind::pipeline_consumer_wait:
            return one_thread ? "backend.cuda_pipeline.uncommitted.thread"
                              : "backend.cuda_pipeline.uncommitted.threads";
        case SyncKind::pipeline_producer_acquire:
            return one_thread ? "backend.cuda_pipeline.unreleased.thread"
                              : "backend.cuda_pipeline.unreleased.threads";
        default:
            return one_thread ? "backend.cuda_barrier.deadlock.thread"
                              : "backend.cuda_barrier.deadlock.threads";
    }
}

}  // namespace

std::string barrier_deadlock(const BarrierDeadlock& deadlock) {
    const bool one = deadlock.waiting.size() == 1;
    if (deadlock.phase != deadlock.token_phase) {
        // The token's phase and the next have completed: the parity is the token's again.
        return messages::text(
            one ? "backend.cuda_barrier.missing_wait.thread" : "backend.cuda_barrier.missing_wait.threads",
            {{"waiting", ranges(deadlock.waiting)},
             {"sync_point", call_text(deadlock.wait)},
             {"token", deadlock.token_phase},
             {"next", deadlock.token_phase + 1},
             {"phase", deadlock.phase},
             {"arrived", deadlock.arrived},
             {"expected", deadlock.expected}});
    }
    std::string others;
    if (deadlock.other) {
        others = wait_text(*deadlock.other);
    } else if (!deadlock.exited.empty()) {
        others = messages::text(deadlock.exited.size() == 1 ? "backend.cuda_barrier.others_exited.thread"
                                                            : "backend.cuda_barrier.others_exited.threads",
                                {{"exited", ranges(deadlock.exited)}});
    } else {
        others = messages::text("backend.cuda_barrier.no_other");
    }
    return messages::text(barrier_deadlock_id(deadlock.wait.kind, one),
                          {{"waiting", ranges(deadlock.waiting)},
                           {"sync_point", call_text(deadlock.wait)},
                           {"phase", deadlock.phase},
                           {"arrived", deadlock.arrived},
                           {"expected", deadlock.expected},
                           {"others", others}});
}

}  // namespace warpdrill::cpu::detail
