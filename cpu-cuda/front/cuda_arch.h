// __CUDA_ARCH__ on the CPU backend. nvcc compiles a .cu file twice: for the
// host, where __CUDA_ARCH__ is not defined, and for the GPU, where it is the
// GPU's compute capability (900 for an H100). The CPU backend compiles it
// once, for both, so it answers the two questions code asks of the macro as
// the code means them:
//
//   which GPU?   a condition that compares __CUDA_ARCH__ with a number
//                (`#if __CUDA_ARCH__ >= 800`, `defined(__CUDA_ARCH__) &&
//                __CUDA_ARCH__ < 600`): the GPU's answer, defined as `arch`;
//   host or GPU? a condition that only tests whether it is defined
//                (`#ifdef __CUDA_ARCH__`, `#if !defined(__CUDA_ARCH__)`):
//                the host's answer, not defined, since the host's path is
//                plain C++ and runs in a kernel on the CPU too.
//
// cudacc applies this to the directives of every file of the program's own
// (not the system's) that names __CUDA_ARCH__, before the preprocessor.
#pragma once

#include <string>
#include <string_view>

namespace cudacc {

// `source` with every #if, #elif, #ifdef and #ifndef that names __CUDA_ARCH__
// answered as above; every other line, and the line count, unchanged.
std::string answer_cuda_arch(std::string_view source, int arch);

}  // namespace cudacc
