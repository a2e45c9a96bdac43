// The GPUs the CPU backend imitates, for the runtime's answers about them:
// WARPDRILL_CPU_DEVICES of them (default 4), each with as many SMs as the
// machine has cores (at most 8) or set_multiprocessor_count says, each an SM
// of compute capability 9.0 (Hopper: 2048 resident threads, 32 blocks, 228 KB
// of shared memory), and the launch checks that depend on it; which GPU each
// host thread has made current, and which GPUs may touch which others' memory
// (peer access). Internal to the backend.
#pragma once

#include <cstddef>

#include "warpdrill/cpu/cuda_runtime.h"

namespace warpdrill::cpu::detail {

inline constexpr int kMaxDevices = 16;

// An H100's SM and block (measured: cpu-cuda/tests/gpu/runtime_probe.cu),
// and its clock, which clock() and clock64() count in a kernel.
inline constexpr int kClockKhz = 1980000;
inline constexpr int kMaxThreadsPerBlock = 1024;
inline constexpr int kThreadsPerSm = 2048;
inline constexpr int kBlocksPerSm = 32;
inline constexpr std::size_t kSharedMemoryPerSm = 228 * 1024;
// A block's shared memory on an H100: 48 KB unless the kernel opts in to more
// (cudaFuncAttributeMaxDynamicSharedMemorySize), at most 227 KB; and the
// system's share of each block's that an SM holds.
inline constexpr std::size_t kSharedMemoryPerBlock = 48 * 1024;
inline constexpr std::size_t kSharedMemoryPerBlockOptin = 227 * 1024;
inline constexpr std::size_t kSharedMemoryReservedPerBlock = 1024;
// The most of L2 that may hold persisting lines.
inline constexpr int kPersistingL2CacheMaxBytes = 32768000;

// How many GPUs the machine seems to have: WARPDRILL_CPU_DEVICES (1 to 16), default 4.
int device_count();
bool valid_device(int device);
// The calling host thread's current GPU (cudaSetDevice), 0 until it sets one.
int current_device();
void set_current_device(int device);

// Whether kernels on GPU `device` may touch `peer`'s memory: always their own,
// another's once cudaDeviceEnablePeerAccess(peer) was called on `device`.
bool may_access(int device, int peer);
// Whether the pair could have peer access: every pair of distinct GPUs, as
// GPUs joined by NVLink, unless WARPDRILL_CPU_PEER_ACCESS=0 (as GPUs on a bus
// that cannot reach each other).
bool can_access_peer(int device, int peer);
cudaError_t enable_peer_access(int device, int peer);
cudaError_t disable_peer_access(int device, int peer);

// What cudaGetDeviceProperties reports: set_multiprocessor_count's figure, else the cores.
int multiprocessor_count();
// The SMs whose blocks a cooperative launch may keep resident, all their
// fibers alive at once: multiprocessor_count(), at most 8.
int coresident_multiprocessors();
// What cudaGetDeviceProperties reports: an H100's figures, with
// multiprocessor_count() SMs (device_properties.cpp).
cudaDeviceProp device_properties();
// 90, or what WARPDRILL_CPU_COMPUTE_CAPABILITY says (80 imitates an A100, to
// see how code behaves on a GPU without clusters).
int compute_capability();

// The most dynamic shared memory a launch of `kernel` may ask: 48 KB, or what
// cudaFuncSetAttribute allowed it (kernel_attributes.cpp). nullptr: 48 KB.
std::size_t max_dynamic_shared_bytes(const void* kernel);

// The blocks of `block_size` threads and that much dynamic shared memory one
// SM holds at once. Registers are not modelled: a GPU may hold fewer.
int max_active_blocks_per_sm(int block_size, std::size_t dynamic_smem_bytes);

// What CUDA answers a cooperative or cluster launch that the device cannot
// run: a cluster shape that does not tile the grid or exceeds 8 blocks, or a
// cooperative grid larger than fits on the device at once.
cudaError_t check_group_launch(dim3 grid, dim3 block, std::size_t dynamic_smem_bytes,
                               const GroupLaunch& groups);

}  // namespace warpdrill::cpu::detail
