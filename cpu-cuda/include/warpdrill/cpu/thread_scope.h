// libcu++'s thread scopes (cuda::thread_scope), which <cuda/atomic>,
// <cuda/barrier> and <cuda/pipeline> name: the threads an operation
// synchronizes with. Part of the CPU backend's libcu++ subset.
#pragma once

namespace cuda {

enum thread_scope { thread_scope_system, thread_scope_device, thread_scope_block, thread_scope_thread };

}  // namespace cuda
