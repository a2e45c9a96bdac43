// <cub/util_debug.cuh> on the CPU backend: cub::Debug and the macros CUB's
// examples wrap CUDA calls in, CubDebug and CubDebugExit, part of the subset
// of CUB that warpdrill's CPU backend provides, written for the backend from
// CUB's documented API (not CUB's code). As in CUB, the error is printed only
// where CUB_STDERR is defined (DEBUG or _DEBUG define it) before this header.
#pragma once

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#if (defined(DEBUG) || defined(_DEBUG)) && !defined(CUB_STDERR)
#define CUB_STDERR
#endif

namespace cub {

// Returns `error`, or, when that is cudaSuccess, the error an earlier call
// left behind (cudaGetLastError, which clears it, so that it does not show
// at some later, unrelated launch). With CUB_STDERR, prints a failure with
// the place it was checked at.
inline cudaError_t Debug(cudaError_t error, [[maybe_unused]] const char* filename,
                         [[maybe_unused]] int line) {
    const cudaError_t last_error = cudaGetLastError();
    if (error == cudaSuccess) error = last_error;
#ifdef CUB_STDERR
    if (error != cudaSuccess) {
        std::fprintf(stderr, "CUDA error %d [%s, %d]: %s\n", static_cast<int>(error), filename, line,
                     cudaGetErrorString(error));
        std::fflush(stderr);
    }
#endif
    return error;
}

}  // namespace cub

// The error of the call `e`, printed with this file and line where CUB_STDERR is defined.
#ifndef CubDebug
#define CubDebug(e) ::cub::Debug(static_cast<cudaError_t>(e), __FILE__, __LINE__)
#endif

// As CubDebug, and the program exits with status 1 on an error.
#ifndef CubDebugExit
#define CubDebugExit(e)                                                  \
    if (::cub::Debug(static_cast<cudaError_t>(e), __FILE__, __LINE__)) { \
        std::exit(1);                                                    \
    }
#endif
