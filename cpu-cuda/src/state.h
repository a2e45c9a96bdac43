// The runtime's sticky state shared by launch.cpp and runtime.cpp.
#pragma once

#include "warpdrill/cpu/cuda_runtime.h"

namespace warpdrill::cpu::detail {
void set_last_error(cudaError_t error);
}
