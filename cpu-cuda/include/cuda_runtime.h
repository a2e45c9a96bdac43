// <cuda_runtime.h> on the CPU backend: CUDA's runtime API, the built-in
// variables, the warp intrinsics and the device functions, as cpu-cuda
// implements them (warpdrill/cpu/cuda_runtime.h).
#pragma once

#include "warpdrill/cpu/cuda_runtime.h"
