// Device code that calls a host function, which nvcc refuses ("calling a
// __host__ function("square") from a __global__ function("k") is not
// allowed"): on the CPU backend every function is host code, so without
// this check such a program would build and run, and fail only on a GPU.
//
// Read from the preprocessed text with cudacc's markers (__cudacc_global__,
// __cudacc_host__, __cudacc_device__), by name, as far as that is certain:
// a function the program's own files define with no __device__ or
// __global__ (a function template too; not a constexpr one, which nvcc
// takes with --expt-relaxed-constexpr), and no function of that name
// declared __device__ or __global__ anywhere in the translation unit, called
// by name (not qualified; as a member only where the translation unit spells
// that name nowhere but in such functions and calls) from the body of a
// __global__ or __device__ function (not __host__ __device__: nvcc only warns
// there) that uses the name for nothing else. What the check cannot be sure
// of, it leaves to nvcc.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace cudacc {

struct HostCallFromDevice {
    std::string file;  // as the line markers name it
    int line = 0;
    std::string callee, caller;
    std::string caller_space;  // "__global__" or "__device__"
};

std::vector<HostCallFromDevice> host_calls_from_device(std::string_view preprocessed);

}  // namespace cudacc
