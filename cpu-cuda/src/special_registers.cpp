// The special registers inline PTX reads (%laneid, %smid, ...), for the
// backend's running kernel thread (inline_ptx.h).
#include <chrono>

#include "device.h"
#include "scheduler.h"
#include "warpdrill/cpu/cuda_runtime.h"

namespace warpdrill::cpu::ptx {
namespace {

constexpr std::uint32_t kLanesPerWarp = 32;

std::uint32_t rank_in_block() {
    const uint3 thread = detail::thread_idx();
    const dim3 block = detail::block_dim();
    return thread.x + block.x * (thread.y + block.y * thread.z);
}

std::uint32_t rank_in_grid() {
    const uint3 block = detail::block_idx();
    const dim3 grid = detail::grid_dim();
    return block.x + grid.x * (block.y + grid.y * block.z);
}

}  // namespace

std::uint32_t laneid() { return rank_in_block() % kLanesPerWarp; }
std::uint32_t warpid() { return rank_in_block() / kLanesPerWarp; }
std::uint32_t nwarpid() { return detail::kThreadsPerSm / kLanesPerWarp; }
// The backend runs blocks on its workers, not on SMs: a block's SM is its
// place in the grid, counted round the SMs the device reports.
std::uint32_t smid() { return rank_in_grid() % nsmid(); }
std::uint32_t nsmid() { return static_cast<std::uint32_t>(detail::multiprocessor_count()); }
std::uint32_t dynamic_smem_size() {
    return static_cast<std::uint32_t>(detail::block_of_caller().shape().dynamic_smem_bytes);
}
std::uint64_t globaltimer() {
    const auto since_epoch = std::chrono::system_clock::now().time_since_epoch();
    return static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(since_epoch).count());
}

}  // namespace warpdrill::cpu::ptx
