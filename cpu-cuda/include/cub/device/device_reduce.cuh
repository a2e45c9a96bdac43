// <cub/device/device_reduce.cuh> on the CPU backend: cub::DeviceReduce's Sum,
// Min, Max, Reduce, TransformReduce, ArgMin and ArgMax, part of the subset of
// CUB that warpdrill's CPU backend provides, written for the backend from
// CUB's documented API (not CUB's code). Two kernels, as in lesson 8: a grid
// that fills the GPU reduces grid-stride shares of the input to one partial
// result per block, kept in the caller's temporary storage; then one block
// reduces the partials. An input that one block covers takes the second
// kernel only.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <type_traits>

#include <cuda/std/limits>

#include "cub/block/block_reduce.cuh"
#include "cub/iterator/arg_index_input_iterator.cuh"
#include "cub/thread/thread_operators.cuh"
#include "cub/util_type.cuh"

// CUB marks the interfaces it has superseded [[deprecated]], unless the program asks not to be told.
#if defined(CCCL_IGNORE_DEPRECATED_API) || defined(CUB_IGNORE_DEPRECATED_API)
#define WARPDRILL_CUB_DEPRECATED(reason)
#else
#define WARPDRILL_CUB_DEPRECATED(reason) [[deprecated(reason)]]
#endif

namespace cub {
namespace detail {

constexpr int kReduceThreads = 256;  // per block, in every kernel

template <class Iterator>
using iterator_value_t = typename std::iterator_traits<Iterator>::value_type;

// What a result is written as, as in CUB: the output iterator's value type,
// or `Otherwise` where it has none (void).
template <class OutputIt, class Otherwise>
using non_void_value_t =
    std::conditional_t<std::is_void_v<iterator_value_t<OutputIt>>, Otherwise, iterator_value_t<OutputIt>>;

// What DeviceReduce::Sum adds in: the output's value type, or the input's.
template <class InputIt, class OutputIt>
using sum_value_t = non_void_value_t<OutputIt, iterator_value_t<InputIt>>;

// What a reduction accumulates in: what op(init, item) returns.
template <class Op, class Init, class InputIt>
using accumulator_t = std::decay_t<std::invoke_result_t<Op&, Init, iterator_value_t<InputIt>>>;

// An init that stands for an empty input only, as CUB's ArgMin and ArgMax
// take theirs: the result of any items is their reduction alone.
template <class Accum>
struct EmptyInputInit {
    Accum value;
};

// The result of items that reduce to `total`, and that of no items.
template <class Op, class Accum>
Accum with_init(Op op, const Accum& init, const Accum& total) {
    return op(init, total);
}
template <class Op, class Accum>
Accum with_init(Op, const EmptyInputInit<Accum>&, const Accum& total) {
    return total;
}
template <class Accum>
Accum empty_result(const Accum& init) {
    return init;
}
template <class Accum>
Accum empty_result(const EmptyInputInit<Accum>& init) {
    return init.value;
}

// The reduction of the items of in[begin, end) that a block's threads take,
// thread t those at begin + t, then every `stride` items on; valid in
// thread 0 when there is any.
template <class Accum, class InputIt, class Op>
__device__ Accum reduce_range(InputIt in, std::int64_t begin, std::int64_t end, std::int64_t stride, Op op) {
    using BlockReduce = cub::BlockReduce<Accum, kReduceThreads>;
    __shared__ typename BlockReduce::TempStorage temp_storage;
    const std::int64_t first = begin + threadIdx.x;
    // A thread whose first item lies past the end (one of the block's last)
    // holds no item: its `partial` is a placeholder that the block's
    // reduction leaves out.
    Accum partial{};
    if (first < end) {
        partial = in[first];
        for (std::int64_t i = first + stride; i < end; i += stride) partial = op(partial, in[i]);
    }
    const int threads_with_items = static_cast<int>(std::clamp<std::int64_t>(end - begin, 0, kReduceThreads));
    return BlockReduce(temp_storage).Reduce(partial, op, threads_with_items);
}

// The reduction of the block's grid-stride share of in[0, n).
template <class Accum, class InputIt, class Op>
__device__ Accum reduce_share(InputIt in, std::int64_t n, Op op) {
    return reduce_range<Accum>(in, std::int64_t{blockIdx.x} * kReduceThreads, n,
                               std::int64_t{gridDim.x} * kReduceThreads, op);
}

// Block b writes its share's reduction to partials[b]. Every block has a
// share: the grid is no larger than the blocks the input fills.
template <class InputIt, class Accum, class Op>
__global__ void reduce_to_partials(InputIt in, std::int64_t n, Accum* partials, Op op) {
    const Accum block_result = reduce_share<Accum>(in, n, op);
    if (threadIdx.x == 0) partials[blockIdx.x] = block_result;
}

// One block writes the reduction of in[0, n) with init to *out, or the
// result of no items when n is 0.
template <class Accum, class InputIt, class OutputIt, class Op, class Init>
__global__ void reduce_to_output(InputIt in, std::int64_t n, OutputIt out, Op op, Init init) {
    const Accum total = reduce_share<Accum>(in, n, op);
    if (threadIdx.x == 0) *out = n > 0 ? with_init(op, init, total) : empty_result(init);
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
template <class Accum, class InputIt, class OutputIt, class Op, class Init>
cudaError_t reduce(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in, OutputIt d_out,
                   std::int64_t n, Op op, Init init, cudaStream_t stream) {
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
        reduce_to_output<Accum><<<1, kReduceThreads, 0, stream>>>(d_in, n, d_out, op, init);
        return cudaPeekAtLastError();
    }
    Accum* partials = static_cast<Accum*>(d_temp_storage);
    reduce_to_partials<<<blocks, kReduceThreads, 0, stream>>>(d_in, n, partials, op);
    if (const cudaError_t error = cudaPeekAtLastError(); error != cudaSuccess) return error;
    reduce_to_output<Accum>
        <<<1, kReduceThreads, 0, stream>>>(partials, std::int64_t{blocks}, d_out, op, init);
    return cudaPeekAtLastError();
}

// in[i] read as transform(in[i]): TransformReduce's input.
template <class InputIt, class Transform>
struct TransformedInput {
    using value_type = std::decay_t<std::invoke_result_t<const Transform&, iterator_value_t<InputIt>>>;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = value_type;
    using iterator_category = std::random_access_iterator_tag;

    InputIt in;
    Transform transform;

    value_type operator[](std::int64_t i) const { return transform(in[i]); }
};

// Where the two-iterator ArgMin and ArgMax write: *out = {index, extremum}
// writes the extremum to one iterator and the index to the other.
template <class ExtremumOut, class IndexOut>
struct UnzippedArgOutput {
    ExtremumOut extremum;
    IndexOut index;

    struct Place {
        UnzippedArgOutput& to;
        template <class Offset, class Value>
        void operator=(const KeyValuePair<Offset, Value>& result) {
            *to.extremum = result.value;
            *to.index = result.key;
        }
    };
    Place operator*() { return {*this}; }
};

// The value no item can beat: ArgMin's result of no items, or ArgMax's.
template <class Op, class Input>
Input empty_extremum() {
    if constexpr (std::is_same_v<Op, ArgMin>)
        return ::cuda::std::numeric_limits<Input>::max();
    else
        return ::cuda::std::numeric_limits<Input>::lowest();
}

// The init of ArgMin or ArgMax (`Op`) over {offset, value} pairs: of no
// items, {1, empty_extremum}, as in CUB. It takes no part otherwise:
// combined with items whose extremum equals it, it would win at offset 1.
template <class Op, class Input, class Pair>
EmptyInputInit<Pair> arg_extremum_init() {
    return {Pair(1, static_cast<typename Pair::Value>(empty_extremum<Op, Input>()))};
}

// ArgMin or ArgMax of in[0, n), with keys of type Offset and values of type Value.
template <class Offset, class Value, class Op, class InputIt, class OutputIt>
cudaError_t arg_extremum(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in, OutputIt d_out,
                         std::int64_t n, cudaStream_t stream) {
    using Pair = KeyValuePair<Offset, Value>;
    return reduce<Pair>(d_temp_storage, temp_storage_bytes,
                        ArgIndexInputIterator<InputIt, Offset, Value>(d_in), d_out, n, Op{},
                        arg_extremum_init<Op, iterator_value_t<InputIt>, Pair>(), stream);
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
        return detail::reduce<Accum>(d_temp_storage, temp_storage_bytes, d_in, d_out,
                                     static_cast<std::int64_t>(num_items), reduction_op,
                                     static_cast<Accum>(init), stream);
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

    // *d_out = reduction_op over init and transform_op(each item).
    template <typename InputIteratorT, typename OutputIteratorT, typename ReductionOpT, typename TransformOpT,
              typename T, typename NumItemsT>
    static cudaError_t TransformReduce(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                       InputIteratorT d_in, OutputIteratorT d_out, NumItemsT num_items,
                                       ReductionOpT reduction_op, TransformOpT transform_op, T init,
                                       cudaStream_t stream = 0) {
        return Reduce(d_temp_storage, temp_storage_bytes,
                      detail::TransformedInput<InputIteratorT, TransformOpT>{d_in, transform_op}, d_out,
                      num_items, reduction_op, init, stream);
    }

    // The first smallest item to *d_min_out and its index to *d_index_out.
    // Of no items nothing is written: CUB 3.0's code writes nothing (an
    // H200, 2026-11-28), where its documentation says {max(), 1}.
    template <typename InputIteratorT, typename ExtremumOutIteratorT, typename IndexOutIteratorT>
    static cudaError_t ArgMin(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIteratorT d_in,
                              ExtremumOutIteratorT d_min_out, IndexOutIteratorT d_index_out,
                              std::int64_t num_items, cudaStream_t stream = 0) {
        return arg_extremum_to<::cub::ArgMin>(d_temp_storage, temp_storage_bytes, d_in, d_min_out,
                                              d_index_out, num_items, stream);
    }

    // The first largest item and its index, as ArgMin.
    template <typename InputIteratorT, typename ExtremumOutIteratorT, typename IndexOutIteratorT>
    static cudaError_t ArgMax(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIteratorT d_in,
                              ExtremumOutIteratorT d_max_out, IndexOutIteratorT d_index_out,
                              std::int64_t num_items, cudaStream_t stream = 0) {
        return arg_extremum_to<::cub::ArgMax>(d_temp_storage, temp_storage_bytes, d_in, d_max_out,
                                              d_index_out, num_items, stream);
    }

    // The first smallest item as *d_out = cub::KeyValuePair<int, T>{index,
    // value}; {1, the type's largest value} when there is none.
    template <typename InputIteratorT, typename OutputIteratorT>
    WARPDRILL_CUB_DEPRECATED(
        "CUB has superseded this interface in favor of the ArgMin interface that takes two "
        "separate iterators: one iterator to which the extremum is written and another "
        "iterator to which the index of the found extremum is written.")
    static cudaError_t ArgMin(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIteratorT d_in,
                              OutputIteratorT d_out, int num_items, cudaStream_t stream = 0) {
        return arg_extremum_pair<::cub::ArgMin>(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items,
                                                stream);
    }

    // The first largest item as ArgMin's pair; {1, the type's lowest value} when there is none.
    template <typename InputIteratorT, typename OutputIteratorT>
    WARPDRILL_CUB_DEPRECATED(
        "CUB has superseded this interface in favor of the ArgMax interface that takes two "
        "separate iterators: one iterator to which the extremum is written and another "
        "iterator to which the index of the found extremum is written.")
    static cudaError_t ArgMax(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIteratorT d_in,
                              OutputIteratorT d_out, int num_items, cudaStream_t stream = 0) {
        return arg_extremum_pair<::cub::ArgMax>(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items,
                                                stream);
    }

  private:
    template <class Op, class InputIt, class ExtremumOut, class IndexOut>
    static cudaError_t arg_extremum_to(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in,
                                       ExtremumOut d_extremum_out, IndexOut d_index_out,
                                       std::int64_t num_items, cudaStream_t stream) {
        using Extremum = detail::non_void_value_t<ExtremumOut, detail::iterator_value_t<InputIt>>;
        if (d_temp_storage != nullptr && num_items == 0) return cudaSuccess;
        return detail::arg_extremum<std::int64_t, Extremum, Op>(
            d_temp_storage, temp_storage_bytes, d_in,
            detail::UnzippedArgOutput<ExtremumOut, IndexOut>{d_extremum_out, d_index_out}, num_items, stream);
    }

    template <class Op, class InputIt, class OutputIt>
    static cudaError_t arg_extremum_pair(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in,
                                         OutputIt d_out, int num_items, cudaStream_t stream) {
        using Pair = detail::non_void_value_t<OutputIt, KeyValuePair<int, detail::iterator_value_t<InputIt>>>;
        return detail::arg_extremum<int, typename Pair::Value, Op>(d_temp_storage, temp_storage_bytes, d_in,
                                                                   d_out, num_items, stream);
    }
};

}  // namespace cub
