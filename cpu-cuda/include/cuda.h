// <cuda.h> on the CPU backend. CUDA's driver API (cu* calls) is not
// implemented; programs that include this header for the runtime's types
// get the runtime API (<cuda_runtime.h>).
#pragma once

#include "warpdrill/cpu/cuda_runtime.h"
