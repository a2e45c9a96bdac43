// The front end's one job: turn what nvcc accepts and C++ does not into C++
// that the CPU backend runs, the way hipify turns CUDA into HIP. It reads a
// translation unit after the preprocessor (cudacc runs `g++ -E` first, so
// the launches and declarations in included headers are seen too) and
// changes only these, keeping every line where it was, so that compiler
// messages, debug information and the backend's faults name the line the
// learner wrote:
//
//   kernel<<<grid, block, shared_bytes, stream>>>(args...)
//       a launch through the backend (cuda_runtime.h's Chevrons), which calls
//       kernel(args...) in every thread: default arguments and conversions
//       apply as in a call, as they do with nvcc (an argument NULL or 0,
//       which a stored copy no longer makes a null pointer, is passed on as
//       nullptr or as nvcc_syntax.h's ZeroLiteral);
//   extern __shared__ T name[];
//       a reference to the block's dynamic shared memory (inside a function;
//       at namespace scope it is named as not supported);
//   __device__ T name = init;   __constant__ T name[n];
//       a reference to device memory that the backend allocates for the
//       variable and names in faults;
//   __shared__ T name[n];
//       static thread_local: one copy per block, as before;
//   cudaLaunchKernel((void*)kernel, ...)   cudaLaunchCooperativeKernel(...)
//       the same call without the cast to void* or const void* (a C-style
//       cast or a reinterpret_cast), so that the overload that knows the
//       kernel's parameter types takes it (cooperative_launch.h);
//   (void*)name   reinterpret_cast<void*>(name)   elsewhere, in the
//   program's own files (const void* alike)
//       ::warpdrill::cpu::detail::untyped<void*>(name): the same pointer,
//       which remembers by its address how to launch a kernel so named, for
//       a graph's kernel node or a launch through the void* (untyped_kernels.h);
//   __grid_constant__
//       nothing (every thread reads the launch's copy of the parameter), or,
//       on a parameter that is not const, an error, as with nvcc;
//   clock()   (in the program's own files)
//       program_clock(), which is the GPU's cycle counter in a kernel and
//       the C library's clock() in host code, as clock() is under nvcc;
//   fminf(a, b)  fmaxf(a, b)  fmin(a, b)  fmax(a, b)   (also `::` or `std::`
//   qualified, in the program's own files)
//       program_fminf() and the rest: min.f32 and max.f32 (.f64) in a
//       kernel, the C library's in host code, as under nvcc;
//   asm("..." : outputs : inputs : clobbers)   (PTX, in the program's own files)
//       C++ that does what the PTX does (inline_ptx.h), each operand's
//       expression left where it was written; PTX the backend cannot run, a
//       static_assert that names it and says why;
//   malloc(bytes)   free(ptr)   (in the program's own files)
//       program_malloc() and program_free(): the GPU's heap in a kernel, the
//       C library's in host code, as under nvcc.
//   threadIdx, blockIdx, blockDim, gridDim
//       the backend's calls for the built-in variables (cuda_runtime.h),
//       except where the name is a member (`config.gridDim`) or something the
//       program declared under that name, in that declaration's braces: nvcc
//       lets host code write `dim3 gridDim(blocks); k<<<gridDim, 256>>>()`.
//
// What it cannot translate becomes a static_assert at that line, whose
// message says what is not supported.
//
// With count_branches (cudacc --branches, for `warpdrill profile`'s build
// only), the conditions of the if, while and for statements in the
// program's own files (not the system's headers, nor the backend's) become
//   ::warpdrill::cpu::detail::branch(static_cast<bool>(condition), "if")
// which tells the profiler how each warp's lanes went (cuda_runtime.h). A
// condition that declares or assigns a variable is left as it is.
//
// The markers __cudacc_shared__, __cudacc_device__ and __cudacc_constant__
// are what cudacc defines __shared__, __device__ and __constant__ to while it
// preprocesses, so that a variable can be told from a function;
// __cudacc_global__ and __cudacc_host__ (__global__, __host__) are for the
// execution spaces' check (execution_spaces.h), and the rewrite drops them.
#pragma once

#include <string>
#include <string_view>

namespace cudacc {

struct RewriteOptions {
    bool count_branches = false;
};

std::string rewrite(std::string_view preprocessed, RewriteOptions options = {});

}  // namespace cudacc
