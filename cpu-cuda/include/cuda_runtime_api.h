// <cuda_runtime_api.h> on the CPU backend: the runtime API is in <cuda_runtime.h>.
#pragma once

#include "warpdrill/cpu/cuda_runtime.h"
