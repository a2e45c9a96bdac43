// Inline PTX's half at run time (warpdrill/cpu/inline_ptx.h): the special
// registers it reads (%laneid, %smid, ...) for the running kernel thread, and
// the check of a shuffle's c operand that only the run knows.
#include <chrono>
#include <cstdio>

#include "device.h"
#include "faults.h"
#include "scheduler.h"
#include "warpdrill/cpu/cooperative_groups.h"  // a thread's rank in its block, a block's in its grid
#include "warpdrill/cpu/cuda_runtime.h"
#include "warpdrill/messages.h"

namespace warpdrill::cpu::ptx {

using detail::kLanesPerWarp;

std::uint32_t laneid() { return detail::lane_of_caller(); }
std::uint32_t warpid() { return detail::rank_in_block() / kLanesPerWarp; }
std::uint32_t nwarpid() { return detail::kThreadsPerSm / kLanesPerWarp; }
// The backend runs blocks on its workers, not on SMs: a block's SM is its
// place in the grid, counted round the SMs the device reports.
std::uint32_t smid() { return static_cast<std::uint32_t>(detail::block_rank_in_grid() % nsmid()); }
std::uint32_t nsmid() { return static_cast<std::uint32_t>(detail::multiprocessor_count()); }
std::uint32_t dynamic_smem_size() {
    return static_cast<std::uint32_t>(detail::block_of_caller().shape().dynamic_smem_bytes);
}
std::uint64_t globaltimer() {
    const auto since_epoch = std::chrono::system_clock::now().time_since_epoch();
    return static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(since_epoch).count());
}

int shuffle_width(std::uint32_t c, std::uint32_t clamp, std::source_location where) {
    const std::uint32_t width = kLanesPerWarp - (c >> 8 & 31u);
    if ((c & 31u) == clamp && c >> 13 == 0 && (width & (width - 1)) == 0) return static_cast<int>(width);
    char hex[16];
    std::snprintf(hex, sizeof hex, "0x%x", c);
    detail::block_of_caller().lacks_here(messages::text(
        "backend.ptx.shuffle_control", {{"c", hex}, {"clamp", clamp}, {"where", detail::where_text(where)}}));
}

}  // namespace warpdrill::cpu::ptx
