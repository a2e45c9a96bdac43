// <cuda_runtime.h> on the CPU backend: CUDA's runtime API, the built-in
// variables, the warp intrinsics and the device functions, as cpu-cuda
// implements them (warpdrill/cpu/cuda_runtime.h).
#pragma once

// CUDA's own include guard, which code tests to know that the runtime API is
// declared (NVIDIA's samples' helper_cuda.h defines findCudaDevice only then).
#define __CUDA_RUNTIME_H__

#include "warpdrill/cpu/cuda_runtime.h"
