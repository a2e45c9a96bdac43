// The GPU the CPU backend imitates, for the runtime's answers about it: as
// many SMs as the machine has cores (at most 8) or set_multiprocessor_count
// says, each an SM of compute
// capability 9.0 (Hopper: 2048 resident threads, 32 blocks, 228 KB of shared
// memory), and the launch checks that depend on it. Internal to the backend.
#pragma once

#include <cstddef>

#include "warpdrill/cpu/cuda_runtime.h"

namespace warpdrill::cpu::detail {

// What cudaGetDeviceProperties reports: set_multiprocessor_count's figure, else the cores.
int multiprocessor_count();
// The SMs whose blocks a cooperative launch may keep resident, all their
// fibers alive at once: multiprocessor_count(), at most 8.
int coresident_multiprocessors();
// Fills the fields of cudaDeviceProp that describe the SMs.
void describe_multiprocessors(cudaDeviceProp* prop);
// 90, or what WARPDRILL_CPU_COMPUTE_CAPABILITY says (80 imitates an A100, to
// see how code behaves on a GPU without clusters).
int compute_capability();

// The blocks of `block_size` threads and that much dynamic shared memory one
// SM holds at once. Registers are not modelled: a GPU may hold fewer.
int max_active_blocks_per_sm(int block_size, std::size_t dynamic_smem_bytes);

// What CUDA answers a cooperative or cluster launch that the device cannot
// run: a cluster shape that does not tile the grid or exceeds 8 blocks, or a
// cooperative grid larger than fits on the device at once.
cudaError_t check_group_launch(dim3 grid, dim3 block, std::size_t dynamic_smem_bytes,
                               const GroupLaunch& groups);

}  // namespace warpdrill::cpu::detail
