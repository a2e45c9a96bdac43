// How the Thrust subset's device algorithms run (device_vector.h lists
// them): on the backend's CUB where CUB has the algorithm (reductions,
// scans), else in one grid-stride kernel shared by all (transform, fill,
// sequence, copy). Either way the program's functors run as device code, in
// kernels the backend launches and checks. Like Thrust's, each waits for
// its kernels and throws a CUDA error as thrust::system_error. Internal.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "thrust/detail/device_memory.h"
#include "thrust/detail/system.h"

namespace thrust::detail {

constexpr int kThreadsPerBlock = 256;

// Waits for the algorithm's kernels on its stream; throws the first error.
inline void finish(const device_t& policy, const char* algorithm) {
    check(cudaGetLastError(), algorithm);
    check(cudaStreamSynchronize(policy.stream), algorithm);
}

// A block per kThreadsPerBlock items, but no more than 4 per multiprocessor,
// which fill the GPU: more would only start more threads.
inline unsigned grid_blocks(std::int64_t n) {
    int device = 0, multiprocessors = 0;
    check(cudaGetDevice(&device), "cudaGetDevice");
    check(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device),
          "cudaDeviceGetAttribute");
    const std::int64_t input_blocks = (n + kThreadsPerBlock - 1) / kThreadsPerBlock;
    return static_cast<unsigned>(std::min<std::int64_t>(input_blocks, 4 * multiprocessors));
}

// Every index of [0, n), each once: thread t takes t, then every grid's
// worth of threads on.
template <class DoIndex>
__global__ void for_each_index_kernel(std::int64_t n, DoIndex do_index) {
    const std::int64_t stride = std::int64_t{gridDim.x} * blockDim.x;
    for (std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += stride)
        do_index(i);
}

// do_index(i) on the device for each i in [0, n).
template <class DoIndex>
void for_each_index(const device_t& policy, std::int64_t n, DoIndex do_index, const char* algorithm) {
    if (n == 0) return;
    for_each_index_kernel<<<grid_blocks(n), kThreadsPerBlock, 0, policy.stream>>>(n, do_index);
    finish(policy, algorithm);
}

// A CUB device algorithm through CUB's two calls: `call(temp, bytes)` first
// sizes its temporary storage, then runs on it.
template <class Call>
void run_cub(const device_t& policy, Call call, const char* algorithm) {
    std::size_t bytes = 0;
    check(call(nullptr, bytes), algorithm);
    const device_buffer<unsigned char> temp(std::max<std::size_t>(bytes, 1));
    check(call(temp.get(), bytes), algorithm);
    finish(policy, algorithm);
}

// The value a CUB reduction writes: `call(temp, bytes, out)` writes it to *out.
template <class T, class Call>
T cub_result(const device_t& policy, Call call, const char* algorithm) {
    const device_buffer<T> out(1);
    // Zeroed first: no kernel writes a result's padding (an {index, item}
    // pair's), which the copy back reads too, and initcheck would say so.
    check(cudaMemsetAsync(out.get(), 0, sizeof(T), policy.stream), algorithm);
    run_cub(
        policy, [&](void* temp, std::size_t& bytes) { return call(temp, bytes, out.get()); }, algorithm);
    return read_from_device(out.get());
}

}  // namespace thrust::detail
