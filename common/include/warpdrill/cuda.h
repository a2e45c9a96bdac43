// The backend switch. Every kernel file includes this header and nothing else
// from CUDA: built with nvcc it is CUDA itself; built with a plain C++
// compiler it is warpdrill's CPU backend, which runs each CUDA thread as a
// fiber. Two CUDA constructs have no C++ spelling, so they go through one
// small helper each, which is exactly the CUDA construct under nvcc:
//
//   warpdrill::launch(kernel, {grid, block, dynamic_smem_bytes, stream}, args...)
//       is  kernel<<<grid, block, dynamic_smem_bytes, stream>>>(args...)
//   WARPDRILL_DYNAMIC_SHARED(float, cache);
//       is  extern __shared__ unsigned char ...[]; float* cache = ...;
#pragma once

#if !defined(WARPDRILL_BACKEND_GPU) && !defined(WARPDRILL_BACKEND_CPU)
#if defined(__CUDACC__)
#define WARPDRILL_BACKEND_GPU 1
#else
#define WARPDRILL_BACKEND_CPU 1
#endif
#endif

// CUDA's own header: the toolkit's under nvcc, cpu-cuda/include's on the CPU
// backend. Code that uses cooperative groups includes <cooperative_groups.h>
// itself, as any CUDA code does: nvcc takes some seconds to read it, which
// every other kernel file would pay for nothing.
#include <cuda_runtime.h>

// Device code for newer GPUs only: the integer warp reductions
// (__reduce_add_sync and friends) need sm_80, thread-block clusters and
// distributed shared memory sm_90. Where the device code is compiled for an
// older GPU these are 0, and the host must not launch such code there (the
// CPU backend imitates an sm_90 GPU, so it has both).
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#define WARPDRILL_HAS_WARP_REDUCE 0
#else
#define WARPDRILL_HAS_WARP_REDUCE 1
#endif
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#define WARPDRILL_HAS_CLUSTERS 0
#else
#define WARPDRILL_HAS_CLUSTERS 1
#endif

#include <cstddef>
#include <utility>

namespace warpdrill {

struct LaunchConfig {
    dim3 grid;
    dim3 block;
    std::size_t dynamic_smem_bytes = 0;
    cudaStream_t stream = nullptr;  // the current GPU's default stream
};

#if defined(WARPDRILL_BACKEND_CPU)

template <class... Params, class... Args>
void launch(void (*kernel)(Params...), const LaunchConfig& config, Args&&... args) {
    cpu::launch(config.grid, config.block, config.dynamic_smem_bytes, config.stream, kernel,
                std::forward<Args>(args)...);
}

#elif defined(__CUDACC__)

template <class... Params, class... Args>
void launch(void (*kernel)(Params...), const LaunchConfig& config, Args&&... args) {
    // clang-format off
    kernel<<<config.grid, config.block, config.dynamic_smem_bytes, config.stream>>>(std::forward<Args>(args)...);
    // clang-format on
}

#endif

}  // namespace warpdrill

// Declares `T* name` pointing at the block's dynamic shared memory (the third
// launch parameter), aligned to 16 bytes. On the GPU the bytes are declared
// once as unsigned char so that kernels of different element types can share
// the name; on the CPU backend they are poisoned (all bits set) at block start.
#if defined(WARPDRILL_BACKEND_CPU)
#define WARPDRILL_DYNAMIC_SHARED(T, name) \
    T* name = reinterpret_cast<T*>(::warpdrill::cpu::detail::dynamic_shared_memory())
#else
#define WARPDRILL_DYNAMIC_SHARED(T, name)                                    \
    extern __shared__ __align__(16) unsigned char warpdrill_dynamic_smem_[]; \
    T* name = reinterpret_cast<T*>(warpdrill_dynamic_smem_)
#endif
