// <cub/device/device_reduce.cuh> on the CPU backend: cub::DeviceReduce's Sum,
// Min, Max and Reduce, part of the subset of CUB that warpdrill's CPU backend
// provides, written for the backend from CUB's documented API (not CUB's
// code). Two kernels, as in lesson 8: a grid that fills the GPU reduces
// grid-stride shares of the input to one partial result per block, kept in
// the caller's temporary storage; then one block reduces the partials. An
// input that one block covers takes the second kernel only.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <type_traits>

#include "cub/block/block_reduce.cuh"

namespace cub {
namespace detail {

constexpr int kReduceThreads = 256;  // per block, in both kernels

template <class Iterator>
using iterator_value_t = typename std::iterator_traits<Iterator>::value_type;

// What DeviceReduce::Sum adds in, as in CUB: the output's value type, or
// the input's where the output iterator has none.
template <class InputIt, class OutputIt>
using sum_value_t = std::conditional_t<std::is_void_v<iterator_value_t<OutputIt>>, iterator_value_t<InputIt>,
                                       iterator_value_t<OutputIt>>;

// What a reduction accumulates in: what op(init, item) returns.
template <class Op, class Init, class InputIt>
using accumulator_t = std::decay_t<std::invoke_result_t<Op&, Init, iterator_value_t<InputIt>>>;

// The reduction of the block's grid-stride share of in[0, n), valid in
// thread 0 when the share is not empty.
template <class Accum, class InputIt, class Op>
__device__ Accum reduce_share(InputIt in, std::int64_t n, Op op) {
    using BlockReduce = cub::BlockReduce<Accum, kReduceThreads>;
    __shared__ typename BlockReduce::TempStorage temp_storage;
    const std::int64_t block_first = std::int64_t{blockIdx.x} * kReduceThreads;
    const std::int64_t stride = std::int64_t{gridDim.x} * kReduceThreads;
    const std::int64_t first = block_first + threadIdx.x;
    // A thread whose first item lies past the end (one of the block's last)
    // holds no item: its `partial` is a placeholder that the block's
    // reduction leaves out.
    Accum partial{};
    if (first < n) {
        partial = in[first];
        for (std::int64_t i = first + stride; i < n; i += stride) partial = op(partial, in[i]);
    }
    const int threads_with_items =
        static_cast<int>(std::clamp<std::int64_t>(n - block_first, 0, kReduceThreads));
    return BlockReduce(temp_storage).Reduce(partial, op, threads_with_items);
}

// Block b writes its share's reduction to partials[b]. Every block has a
// share: the grid is no larger than the blocks the input fills.
template <class InputIt, class Accum, class Op>
__global__ void reduce_to_partials(InputIt in, std::int64_t n, Accum* partials, Op op) {
    const Accum block_result = reduce_share<Accum>(in, n, op);
    if (threadIdx.x == 0) partials[blockIdx.x] = block_result;
}

// One block writes op(init, the reduction of in[0, n)) to *out, or init when n is 0.
template <class InputIt, class OutputIt, class Op, class Accum>
__global__ void reduce_to_output(InputIt in, std::int64_t n, OutputIt out, Op op, Accum init) {
    const Accum total = reduce_share<Accum>(in, n, op);
    if (threadIdx.x == 0) *out = n > 0 ? op(init, total) : init;
}

// The first kernel's grid: a block per kReduceThreads items, but no more than
// 4 per multiprocessor, which fill the GPU: more would only add partials.
inline cudaError_t first_pass_blocks(std::int64_t n, int& blocks) {
    int device = 0;
    cudaDeviceProp prop{};
    if (const cudaError_t error = cudaGetDevice(&device); error != cudaSuccess) return error;
    if (const cudaError_t error = cudaGetDeviceProperties(&prop, device); error != cudaSuccess) return error;
    const std::int64_t input_blocks = (n + kReduceThreads - 1) / kReduceThreads;
    blocks = static_cast<int>(std::min<std::int64_t>(input_blocks, 4 * prop.multiProcessorCount));
    return cudaSuccess;
}

// CUB's protocol: with no temporary storage, only say how much it takes.
template <class InputIt, class OutputIt, class Op, class Accum>
cudaError_t reduce(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in, OutputIt d_out,
                   std::int64_t n, Op op, Accum init, cudaStream_t stream) {
    int blocks = 0;
    if (const cudaError_t error = first_pass_blocks(n, blocks); error != cudaSuccess) return error;
    const bool two_kernels = blocks > 1;
    // Never 0 bytes: a 0-byte cudaMalloc may give nullptr, and a call given
    // nullptr only asks for the size again.
    const std::size_t bytes_needed = two_kernels ? blocks * sizeof(Accum) : 1;
    if (d_temp_storage == nullptr) {
        temp_storage_bytes = bytes_needed;
        return cudaSuccess;
    }
    if (temp_storage_bytes < bytes_needed) return cudaErrorInvalidValue;
    if (!two_kernels) {
        reduce_to_output<<<1, kReduceThreads, 0, stream>>>(d_in, n, d_out, op, init);
        return cudaPeekAtLastError();
    }
    Accum* partials = static_cast<Accum*>(d_temp_storage);
    reduce_to_partials<<<blocks, kReduceThreads, 0, stream>>>(d_in, n, partials, op);
    if (const cudaError_t error = cudaPeekAtLastError(); error != cudaSuccess) return error;
    reduce_to_output<<<1, kReduceThreads, 0, stream>>>(partials, std::int64_t{blocks}, d_out, op, init);
    return cudaPeekAtLastError();
}

}  // namespace detail

// Every call follows CUB's two-call protocol: called with d_temp_storage ==
// nullptr it only sets temp_storage_bytes; called again with that much device
// memory, it queues the reduction on `stream` and returns the launch's error.
struct DeviceReduce {
    // *d_out = reduction_op over init and d_in[0, num_items): init alone when
    // num_items is 0. reduction_op must be associative and commutative.
    template <typename InputIteratorT, typename OutputIteratorT, typename ReductionOpT, typename T,
              typename NumItemsT>
    static cudaError_t Reduce(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIteratorT d_in,
                              OutputIteratorT d_out, NumItemsT num_items, ReductionOpT reduction_op, T init,
                              cudaStream_t stream = 0) {
        using Accum = detail::accumulator_t<ReductionOpT, T, InputIteratorT>;
        return detail::reduce(d_temp_storage, temp_storage_bytes, d_in, d_out,
                              static_cast<std::int64_t>(num_items), reduction_op, static_cast<Accum>(init),
                              stream);
    }

    // The sum, from 0; in the output's type.
    template <typename InputIteratorT, typename OutputIteratorT, typename NumItemsT>
    static cudaError_t Sum(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIteratorT d_in,
                           OutputIteratorT d_out, NumItemsT num_items, cudaStream_t stream = 0) {
        using Value = detail::sum_value_t<InputIteratorT, OutputIteratorT>;
        return Reduce(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, ::cuda::std::plus<>{},
                      Value{}, stream);
    }

    // The smallest item; the input type's largest value when there is none.
    template <typename InputIteratorT, typename OutputIteratorT, typename NumItemsT>
    static cudaError_t Min(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIteratorT d_in,
                           OutputIteratorT d_out, NumItemsT num_items, cudaStream_t stream = 0) {
        using Value = detail::iterator_value_t<InputIteratorT>;
        return Reduce(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, ::cuda::minimum<>{},
                      ::cuda::std::numeric_limits<Value>::max(), stream);
    }

    // The largest item; the input type's lowest value when there is none.
    template <typename InputIteratorT, typename OutputIteratorT, typename NumItemsT>
    static cudaError_t Max(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIteratorT d_in,
                           OutputIteratorT d_out, NumItemsT num_items, cudaStream_t stream = 0) {
        using Value = detail::iterator_value_t<InputIteratorT>;
        return Reduce(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, ::cuda::maximum<>{},
                      ::cuda::std::numeric_limits<Value>::lowest(), stream);
    }
};

}  // namespace cub
