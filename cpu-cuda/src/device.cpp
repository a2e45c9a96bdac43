// The imitated GPUs' answers: how many there are and which is current,
// peer access, occupancy, and whether a cooperative or cluster launch fits
// (their properties: device_properties.cpp).
#include "device.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdlib>
#include <functional>
#include <string_view>
#include <thread>

#include "state.h"
#include "streams.h"

#undef blockDim  // host code only here: the name is cudaLaunchConfig_t's field

namespace warpdrill::cpu::detail {
namespace {

constexpr unsigned kMaxPortableClusterBlocks = 8;
// A cooperative launch keeps every resident thread's fiber alive at once,
// 2048 an SM, each with a stack of its own (two memory maps each): past 8
// SMs that would approach Linux's default limit of 65530 maps a process.
constexpr unsigned kMaxSms = 8;

// set_multiprocessor_count's figure; 0: this machine's cores.
std::atomic<int> imitated_multiprocessors{0};
// set_register_limited_blocks's figure; 0: registers limit nothing.
std::atomic<int> register_limited_blocks{0};

unsigned blocks_in(dim3 d) { return d.x * d.y * d.z; }

thread_local int this_thread_device = 0;
// peer_access[d][p]: kernels on GPU d may touch GPU p's memory.
std::array<std::array<std::atomic<bool>, kMaxDevices>, kMaxDevices> peer_access{};

bool valid_occupancy_flags(unsigned flags) { return (flags & ~cudaOccupancyDisableCachingOverride) == 0; }

}  // namespace

int device_count() {
    const char* env = std::getenv("WARPDRILL_CPU_DEVICES");
    const int count = env ? std::atoi(env) : 4;
    return std::clamp(count, 1, kMaxDevices);
}

bool valid_device(int device) { return device >= 0 && device < device_count(); }
int current_device() {
    refuse_inside_host_function();
    return this_thread_device;
}
void set_current_device(int device) { this_thread_device = device; }

bool may_access(int device, int peer) {
    return device == peer || peer_access[device][peer].load(std::memory_order_relaxed);
}

bool can_access_peer(int device, int peer) {
    const char* env = std::getenv("WARPDRILL_CPU_PEER_ACCESS");
    const bool forbidden = env && std::string_view(env) == "0";
    return valid_device(device) && valid_device(peer) && device != peer && !forbidden;
}

cudaError_t enable_peer_access(int device, int peer) {
    if (!valid_device(peer) || peer == device) return record(cudaErrorInvalidDevice);
    if (!can_access_peer(device, peer)) return record(cudaErrorPeerAccessUnsupported);
    if (peer_access[device][peer].exchange(true)) return record(cudaErrorPeerAccessAlreadyEnabled);
    return cudaSuccess;
}

cudaError_t disable_peer_access(int device, int peer) {
    if (!valid_device(peer) || peer == device) return record(cudaErrorInvalidDevice);
    if (!peer_access[device][peer].exchange(false)) return record(cudaErrorPeerAccessNotEnabled);
    return cudaSuccess;
}

int multiprocessor_count() {
    const int imitated = imitated_multiprocessors.load(std::memory_order_relaxed);
    return imitated > 0 ? imitated : static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1u, kMaxSms));
}

int coresident_multiprocessors() { return std::min(multiprocessor_count(), static_cast<int>(kMaxSms)); }

int compute_capability() {
    const char* env = std::getenv("WARPDRILL_CPU_COMPUTE_CAPABILITY");
    const int value = env ? std::atoi(env) : 0;
    return value >= 70 ? value : 90;
}

int max_active_blocks_per_sm(int block_size, std::size_t dynamic_smem_bytes) {
    const int warps = (block_size + 31) / 32;
    const int by_threads = kThreadsPerSm / (32 * warps);
    const auto by_shared =
        static_cast<int>(kSharedMemoryPerSm / (dynamic_smem_bytes + kSharedMemoryReservedPerBlock));
    const int by_registers = register_limited_blocks > 0 ? register_limited_blocks.load() : kBlocksPerSm;
    return std::min({kBlocksPerSm, by_threads, by_shared, by_registers});
}

cudaError_t check_group_launch(dim3 grid, dim3 block, std::size_t dynamic_smem_bytes,
                               const GroupLaunch& groups) {
    const dim3 cluster = groups.cluster;
    const unsigned cluster_blocks = blocks_in(cluster);
    if (cluster_blocks == 0) return cudaErrorInvalidValue;
    if (cluster_blocks > 1) {
        if (compute_capability() < 90) return cudaErrorNotSupported;
        if (cluster_blocks > kMaxPortableClusterBlocks || grid.x % cluster.x || grid.y % cluster.y ||
            grid.z % cluster.z) {
            return cudaErrorInvalidClusterSize;
        }
    }
    const int threads = static_cast<int>(blocks_in(block));
    const auto resident = static_cast<std::uint64_t>(max_active_blocks_per_sm(threads, dynamic_smem_bytes)) *
                          coresident_multiprocessors();
    if (groups.cooperative && blocks_in(grid) > resident / cluster_blocks * cluster_blocks) {
        return cudaErrorCooperativeLaunchTooLarge;
    }
    return cudaSuccess;
}

cudaError_t occupancy_blocks_per_sm(int* blocks, int block_size, std::size_t dynamic_smem_bytes,
                                    unsigned flags) {
    if (!blocks || block_size <= 0 || block_size > 1024 || !valid_occupancy_flags(flags)) {
        return record(cudaErrorInvalidValue);
    }
    *blocks = max_active_blocks_per_sm(block_size, dynamic_smem_bytes);
    return cudaSuccess;
}

// Tries every block size from the limit down, a warp at a time, as CUDA's own
// cudaOccupancyMaxPotentialBlockSize does; measured on an H100: 1024 threads
// and a grid of 264 with no shared memory, 128 threads with 8 KB a block and
// at most 200 threads.
cudaError_t occupancy_block_size(int* min_grid_size, int* block_size,
                                 const std::function<std::size_t(int)>& smem_for_block_size,
                                 int block_size_limit, unsigned flags) {
    if (!min_grid_size || !block_size || block_size_limit < 0 || !valid_occupancy_flags(flags)) {
        return record(cudaErrorInvalidValue);
    }
    constexpr int kWarp = 32;
    const int limit =
        block_size_limit == 0 ? kMaxThreadsPerBlock : std::min(block_size_limit, kMaxThreadsPerBlock);
    int best_threads = 0, best_size = 0, best_blocks = 0;
    for (int aligned = (limit + kWarp - 1) / kWarp * kWarp; aligned > 0 && best_threads < kThreadsPerSm;
         aligned -= kWarp) {
        const int size = std::min(limit, aligned);
        const int blocks = max_active_blocks_per_sm(size, smem_for_block_size(size));
        if (blocks * size > best_threads) {
            best_threads = blocks * size;
            best_size = size;
            best_blocks = blocks;
        }
    }
    *block_size = best_size;
    *min_grid_size = best_blocks * multiprocessor_count();
    return cudaSuccess;
}

cudaError_t occupancy_clusters(int* clusters, const cudaLaunchConfig_t* config) {
    GroupLaunch groups;
    if (!clusters) return record(cudaErrorInvalidValue);
    if (const cudaError_t error = read_launch_attributes(config, &groups); error != cudaSuccess) return error;
    const unsigned cluster_blocks = blocks_in(groups.cluster);
    if (cluster_blocks > kMaxPortableClusterBlocks) return record(cudaErrorInvalidClusterSize);
    const int threads = static_cast<int>(blocks_in(config->blockDim));
    if (threads <= 0 || threads > 1024) return record(cudaErrorInvalidValue);
    const int resident = max_active_blocks_per_sm(threads, config->dynamicSmemBytes) * multiprocessor_count();
    *clusters = resident / static_cast<int>(cluster_blocks);
    return cudaSuccess;
}

cudaError_t read_launch_attributes(const cudaLaunchConfig_t* config, GroupLaunch* groups) {
    if (!config || (config->numAttrs > 0 && !config->attrs)) return record(cudaErrorInvalidValue);
    for (unsigned a = 0; a < config->numAttrs; ++a) {
        const cudaLaunchAttribute& attribute = config->attrs[a];
        switch (attribute.id) {
            case cudaLaunchAttributeCooperative: groups->cooperative = attribute.val.cooperative != 0; break;
            case cudaLaunchAttributeClusterDimension: {
                const auto& d = attribute.val.clusterDim;
                groups->cluster = dim3(d.x, d.y, d.z);
                break;
            }
            default: return record(cudaErrorInvalidValue);
        }
    }
    return cudaSuccess;
}

}  // namespace warpdrill::cpu::detail

namespace warpdrill::cpu {

void set_multiprocessor_count(int count) { detail::imitated_multiprocessors = count; }

void set_register_limited_blocks(int blocks) { detail::register_limited_blocks = blocks; }

}  // namespace warpdrill::cpu
