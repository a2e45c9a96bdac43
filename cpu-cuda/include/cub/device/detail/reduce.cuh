// The kernels and steps behind cub::DeviceReduce on the CPU backend
// (device_reduce.cuh says how it reduces), which the segmented reduction,
// the scans and ReduceByKey build on. Internal: programs include
// <cub/device/device_reduce.cuh> or <cub/cub.cuh>.
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

// An input iterator whose item i is read(i), computed where it is read:
// TransformReduce's input, transform(in[i]), and ReduceByKey's.
template <class Read>
struct ReadAt {
    using value_type = std::decay_t<std::invoke_result_t<const Read&, std::int64_t>>;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = value_type;
    using iterator_category = std::random_access_iterator_tag;

    Read read;

    value_type operator[](std::int64_t i) const { return read(i); }
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

// What the KeyValuePair forms of ArgMin and ArgMax write, as in CUB: the
// output's value type, or {int offset, the input's value}.
template <class OutputIt, class InputIt>
using arg_pair_t = non_void_value_t<OutputIt, KeyValuePair<int, iterator_value_t<InputIt>>>;

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
}  // namespace cub
