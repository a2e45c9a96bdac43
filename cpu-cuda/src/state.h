// The runtime's sticky error, shared by the files that answer runtime calls.
#pragma once

#include "warpdrill/cpu/cuda_runtime.h"

namespace warpdrill::cpu::detail {
void set_last_error(cudaError_t error);
// Returns `error`, kept for cudaGetLastError when it is one.
inline cudaError_t record(cudaError_t error) {
    if (error != cudaSuccess) set_last_error(error);
    return error;
}
}  // namespace warpdrill::cpu::detail
