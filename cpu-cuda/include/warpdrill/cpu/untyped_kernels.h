// Kernels a program names through void*, as NVIDIA's samples do
// (`kernelNodeParams.func = (void*)reduce;`, `cudaLaunchKernel((void*)k, ...)`):
// such a pointer has lost the parameter types that the argument pointers are
// read as. In a .cu file cudacc turns each cast of a name to void* into a
// call of untyped(), which gives the same pointer and, where the name is a
// function that returns void, remembers by its address how to launch it
// (cpu-cuda/front/rewrite.h). Included by cuda_runtime.h.
#pragma once

#include <initializer_list>

namespace warpdrill::cpu::detail {

// A launch of `kernel` whose arguments are the values `args` points at, one
// pointer per parameter, each to a value of exactly the parameter's type;
// the values are copied, as CUDA copies them when a launch or a graph's
// kernel node is made.
using LaunchBinder = GridLaunch (*)(const void* kernel, void* const* args, dim3 grid, dim3 block,
                                    std::size_t dynamic_smem_bytes);
// What the backend knows of a kernel that a cast remembered.
struct KernelSignature {
    LaunchBinder bind = nullptr;
    std::vector<std::size_t> parameter_bytes;
};
void remember_kernel(const void* kernel, LaunchBinder binder,
                     std::initializer_list<std::size_t> parameter_bytes);
// nullptr for an address that no cast remembered.
const KernelSignature* signature_of(const void* kernel);
// cudaLaunchKernel and cudaLaunchCooperativeKernel of a kernel given as void*
// in a .cu file: launched where a cast remembered it, else refused with
// cudaErrorInvalidDeviceFunction and a warning that says why.
cudaError_t launch_untyped(const char* call, const void* kernel, dim3 grid, dim3 block, void** args,
                           std::size_t dynamic_smem_bytes, cudaStream_t stream, const GroupLaunch& groups);

template <class... Params, std::size_t... I>
GridLaunch launch_with_arguments(void (*kernel)(Params...), void* const* args, dim3 grid, dim3 block,
                                 std::size_t dynamic_smem_bytes, std::index_sequence<I...>) {
    return grid_launch(grid, block, dynamic_smem_bytes, kernel,
                       std::tuple<std::decay_t<Params>...>(*static_cast<std::decay_t<Params>*>(args[I])...));
}

template <class... Params>
GridLaunch bind_kernel(const void* kernel, void* const* args, dim3 grid, dim3 block,
                       std::size_t dynamic_smem_bytes) {
    const auto typed = reinterpret_cast<void (*)(Params...)>(const_cast<void*>(kernel));
    return launch_with_arguments(typed, args, grid, block, dynamic_smem_bytes,
                                 std::index_sequence_for<Params...>{});
}

// A function that returns void may be a kernel: remembered. Anything else is not.
template <class... Params>
void remember_if_kernel(void (*kernel)(Params...)) {
    remember_kernel(reinterpret_cast<const void*>(kernel), &bind_kernel<Params...>,
                    {sizeof(std::decay_t<Params>)...});
}
template <class T>
void remember_if_kernel(const T&) {}

// `(void*)name` in a program's .cu file: Target is the cast's type.
template <class Target, class T>
Target untyped(T&& value) {
    remember_if_kernel(value);
    return (Target)(value);
}

}  // namespace warpdrill::cpu::detail
