// NVTX's names for the runtime's devices, streams and events, which do
// nothing on the CPU backend, as on a GPU when no tool is attached
// (nvToolsExt.h).
#pragma once

#include <cuda_runtime.h>

#include "nvToolsExt.h"

inline void nvtxNameCudaDeviceA(int, const char*) {}
inline void nvtxNameCudaDeviceW(int, const wchar_t*) {}
inline void nvtxNameCudaStreamA(cudaStream_t, const char*) {}
inline void nvtxNameCudaStreamW(cudaStream_t, const wchar_t*) {}
inline void nvtxNameCudaEventA(cudaEvent_t, const char*) {}
inline void nvtxNameCudaEventW(cudaEvent_t, const wchar_t*) {}

#define nvtxNameCudaDevice nvtxNameCudaDeviceA
#define nvtxNameCudaStream nvtxNameCudaStreamA
#define nvtxNameCudaEvent nvtxNameCudaEventA
