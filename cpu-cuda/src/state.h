// The runtime's last error, shared by the files that answer runtime calls,
// and how they refuse a call.
#pragma once

#include <string>

#include "device_memory.h"
#include "warpdrill/cpu/cuda_runtime.h"

namespace warpdrill::cpu::detail {
void set_last_error(cudaError_t error);
// Returns `error`, kept for cudaGetLastError when it is one.
inline cudaError_t record(cudaError_t error) {
    if (error != cudaSuccess) set_last_error(error);
    return error;
}
// Records `error` and warns, once for each call site, that `call` returned
// it and why (runtime.cpp).
cudaError_t refuse(const HostCall& call, cudaError_t error, const std::string& why);
}  // namespace warpdrill::cpu::detail
