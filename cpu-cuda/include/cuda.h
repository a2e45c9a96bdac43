// <cuda.h> on the CPU backend. CUDA's driver API (cu* calls) is not
// implemented; programs that include this header for the runtime's types
// get the runtime API (<cuda_runtime.h>).
#pragma once

// The CUDA release imitated (13.0), for code that tests it (#if CUDA_VERSION >= 11000).
#define CUDA_VERSION 13000

#include "warpdrill/cpu/cuda_runtime.h"
