// Where a Thrust algorithm runs, on the CPU backend (device_vector.h lists
// the subset). Internal: programs include <thrust/execution_policy.h>.
//
// An algorithm given an execution policy first runs where it says:
// thrust::host runs it on the host with the standard library's algorithms,
// thrust::device and thrust::cuda::par (.on(stream)) on the device, in
// kernels. Given none, its iterators decide, as in Thrust: the device when
// any of them is a device iterator (a device_vector's, a device_ptr, a
// transform_iterator over one) or when all of them are any-system
// iterators (counting_iterator, constant_iterator); the host otherwise (raw
// pointers, a host_vector's or std::vector's iterators).
#pragma once

#include <cuda_runtime.h>

#include <type_traits>

namespace thrust::detail {

struct host_t {};

// A device algorithm queues its kernels on `stream` and, as Thrust's, waits
// for them before it returns.
struct device_t {
    cudaStream_t stream = nullptr;
};

// thrust::cuda::par: the device, on the default stream or on another.
struct par_t : device_t {
    device_t on(cudaStream_t other) const { return device_t{other}; }
};

// What an algorithm may take first.
template <class Policy>
concept execution_policy = std::is_same_v<Policy, host_t> || std::is_base_of_v<device_t, Policy>;

enum class system { host, device, any };

// An iterator's system. The subset's iterators say theirs; any other
// iterator is a host iterator.
template <class Iterator>
constexpr system system_of = system::host;

template <class Iterator>
constexpr bool is_device_iterator = system_of<Iterator> == system::device;
template <class Iterator>
constexpr bool is_host_iterator = system_of<Iterator> == system::host;

template <class... Iterators>
constexpr bool runs_on_device = (is_device_iterator<Iterators> || ...) ||
                                ((system_of<Iterators> == system::any) && ...);

// What a kernel reads and writes an iterator's items through: the iterator
// itself, but for a device_ptr the raw pointer (and for an iterator over
// one, an iterator over the raw pointer).
template <class Iterator>
struct kernel_view {
    static Iterator of(Iterator it) { return it; }
};

template <class Iterator>
auto in_kernel(Iterator it) {
    return kernel_view<Iterator>::of(it);
}

// The policy of an algorithm called without one.
template <class... Iterators>
auto policy_for(const Iterators&...) {
    if constexpr (runs_on_device<Iterators...>)
        return device_t{};
    else
        return host_t{};
}

}  // namespace thrust::detail
