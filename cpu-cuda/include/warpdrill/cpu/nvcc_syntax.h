// What cudacc, the CPU backend's front end (cpu-cuda/front/rewrite.h), turns
// nvcc's own syntax into. A .cu file never names these itself:
//
//   kernel<<<grid, block, bytes, stream>>>(args...)
//     chevrons(grid, block, bytes, stream).launch("kernel", body, address)(args...)
//   extern __shared__ float cache[];
//     float (&cache)[] = dynamic_shared_array<float>();
//   __device__ unsigned tickets = 0;
//     unsigned (&tickets) = device_variable("tickets", "__device__", <init>);
//
// Included by cuda_runtime.h.
#pragma once

#include <cstddef>
#include <new>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace warpdrill::cpu::detail {

// ---- kernel<<<...>>>(...) ------------------------------------------------------
// The address of a kernel named as a function or a pointer to one. The
// launch's argument types come first only to make the call depend on them:
// where C++ cannot name the kernel without the call, the front end's
// `requires` then says so instead of stopping the build.
template <class... Args, class F>
requires std::is_function_v<F>
const void* kernel_address(F* kernel) { return reinterpret_cast<const void*>(kernel); }

// A launch's argument that is a literal 0, which C++ converts to any
// pointer as a constant, and a stored int no longer is: stored as an int
// where the kernel takes one there (a template deduces int from it, as from
// 0), as this otherwise, which becomes the parameter's null pointer or zero.
struct ZeroLiteral {
    template <class T>
    requires std::is_scalar_v<T>
    constexpr operator T() const { return T{}; }
};
template <class T>
using ZeroAsInt = std::conditional_t<std::is_same_v<T, ZeroLiteral>, int, T>;

// One launch: `body` calls the kernel with the arguments (their copies, made
// when the launch is queued, as CUDA copies them); `address` gives the
// kernel's address from them where C++ can name it (the profile and the
// faults name the kernel and its parameters by it), or nullptr.
template <class Body, class Address>
struct ChevronLaunch {
    dim3 grid, block;
    std::size_t shared_bytes;
    cudaStream_t stream;
    const char* kernel_text;  // the kernel as the launch spells it
    Body body;
    Address address;

    template <class... Args>
    void operator()(Args&&... args) const {
        constexpr bool zero_argument = (std::is_same_v<std::decay_t<Args>, ZeroLiteral> || ...);
        if constexpr (zero_argument &&
                      std::is_invocable_v<const Body&, const ZeroAsInt<std::decay_t<Args>>&...>) {
            queue<ZeroAsInt<std::decay_t<Args>>...>(std::forward<Args>(args)...);
        } else {
            queue<std::decay_t<Args>...>(std::forward<Args>(args)...);
        }
    }

    // Queues the launch with its arguments stored as `Stored`.
    template <class... Stored, class... Args>
    void queue(Args&&... args) const {
        std::tuple<Stored...> values(std::forward<Args>(args)...);
        std::vector<KernelArgument> pointers;
        int index = 0;
        std::apply([&](const auto&... value) { (note_pointer_argument(pointers, value, index++), ...); },
                   values);
        const void* kernel = std::apply(address, values);
        GridLaunch launch{grid,
                          block,
                          shared_bytes,
                          [body = body, values = std::move(values)] { std::apply(body, values); },
                          kernel,
                          std::move(pointers),
                          {}};
        launch.kernel_text = kernel_text;
        launch_grid(std::move(launch), stream);
    }
};

struct Chevrons {
    dim3 grid, block;
    std::size_t shared_bytes;
    cudaStream_t stream;

    template <class Body, class Address>
    ChevronLaunch<Body, Address> launch(const char* kernel_text, Body body, Address address) const {
        return {grid, block, shared_bytes, stream, kernel_text, std::move(body), std::move(address)};
    }
};

// <<<grid, block, bytes, stream>>>: converted as CUDA converts them.
inline Chevrons chevrons(dim3 grid, dim3 block, std::size_t shared_bytes = 0, cudaStream_t stream = nullptr) {
    return {grid, block, shared_bytes, stream};
}

// ---- extern __shared__ T name[] --------------------------------------------------
template <class T>
T (&dynamic_shared_array())
[] {
    return *reinterpret_cast<T(*)[]>(dynamic_shared_memory());
}

// ---- __device__ and __constant__ variables ---------------------------------------
// Device memory for one variable, zeroed, named in faults ("the __device__
// variable tickets"); elements of `element_bytes` each. Made before main(),
// when the variable is.
void* allocate_device_variable(std::size_t bytes, std::size_t element_bytes, const char* name,
                               const char* space);

// Binds the reference the front end declares to the variable's device memory;
// `init(std::type_identity<T>, address)` constructs its initial value there.
template <class Init>
struct DeviceVariable {
    const char* name;
    const char* space;
    Init init;

    template <class T>
    operator T&() const {
        using Value = std::remove_cv_t<T>;
        void* address =
            allocate_device_variable(sizeof(T), sizeof(std::remove_all_extents_t<T>), name, space);
        if constexpr (!std::is_same_v<Init, std::nullptr_t>) init(std::type_identity<Value>{}, address);
        return *static_cast<T*>(address);
    }
};

inline DeviceVariable<std::nullptr_t> device_variable(const char* name, const char* space) {
    return {name, space, nullptr};
}
template <class Init>
DeviceVariable<Init> device_variable(const char* name, const char* space, Init init) {
    return {name, space, std::move(init)};
}

}  // namespace warpdrill::cpu::detail

// ---- the runtime's calls on such variables ----------------------------------------
namespace warpdrill::cpu::detail {
// cudaMemcpy that also refuses a kind calling the variable host memory (runtime.cpp).
cudaError_t copy_symbol(bool to_symbol, void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind);
}  // namespace warpdrill::cpu::detail

template <class T>
cudaError_t cudaMemcpyToSymbol(const T& symbol, const void* src, std::size_t bytes, std::size_t offset = 0,
                               cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
    char* variable = reinterpret_cast<char*>(const_cast<T*>(&symbol)) + offset;
    return warpdrill::cpu::detail::copy_symbol(true, variable, src, bytes, kind);
}
template <class T>
cudaError_t cudaMemcpyFromSymbol(void* dst, const T& symbol, std::size_t bytes, std::size_t offset = 0,
                                 cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
    const char* variable = reinterpret_cast<const char*>(&symbol) + offset;
    return warpdrill::cpu::detail::copy_symbol(false, dst, variable, bytes, kind);
}
template <class T>
cudaError_t cudaGetSymbolAddress(void** address, const T& symbol) {
    *address = const_cast<T*>(&symbol);
    return cudaSuccess;
}
template <class T>
cudaError_t cudaGetSymbolSize(std::size_t* bytes, const T&) {
    *bytes = sizeof(T);
    return cudaSuccess;
}
