// What nvcc refuses of CUDA's execution spaces: device code that calls a
// host function ("calling a __host__ function("square") from a __global__
// function("k") is not allowed"), host code that calls a __device__
// function ("calling a __device__ function("twice") from a __host__
// function("main") is not allowed"), and a host function that declares a
// __shared__ variable. On the CPU backend every function is host code, so
// without this check such a program would build and run, and fail only on a
// GPU.
//
// Read from the preprocessed text with cudacc's markers (__cudacc_global__,
// __cudacc_host__, __cudacc_device__), by name, as far as that is certain:
// the callee a function the program's own files define for the other side
// alone (with no __device__ or __global__, or __device__ alone; a function
// template too; not a constexpr one, which nvcc takes on either side with
// --expt-relaxed-constexpr), no function of that name declared otherwise
// anywhere in the translation unit, called by name (not qualified; as a
// member only where the translation unit spells that name nowhere but in
// such functions and calls) from the body of a function of the program's
// side (a __global__ or __device__ function, not __host__ __device__, where
// nvcc only warns; or a host function of the program's own with no device
// lambda in it, not a template, at namespace scope) that uses the name for
// nothing else. What the check cannot be sure of, it leaves to nvcc.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace cudacc {

struct CallAcrossSpaces {
    std::string file;  // as the line markers name it
    int line = 0;
    std::string callee, caller;
    std::string caller_space;  // "__global__" or "__device__" (the callee is host code), or "__host__"
};

// A static __shared__ variable declared in the body of a host function of
// the program's own (as the callers above): "a static "__shared__" variable
// declaration is not allowed inside a host function body".
struct SharedInHost {
    std::string file;
    int line = 0;
    std::string variable, function;
};

struct ExecutionSpaceErrors {
    std::vector<CallAcrossSpaces> calls;
    std::vector<SharedInHost> shared;
};

ExecutionSpaceErrors execution_space_errors(std::string_view preprocessed);

}  // namespace cudacc
