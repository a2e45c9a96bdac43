// <device_launch_parameters.h> on the CPU backend: threadIdx, blockIdx,
// blockDim, gridDim and warpSize are in <cuda_runtime.h>.
#pragma once

#include "warpdrill/cpu/cuda_runtime.h"
