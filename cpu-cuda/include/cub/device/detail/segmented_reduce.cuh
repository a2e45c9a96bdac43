// The kernel and steps behind cub::DeviceSegmentedReduce on the CPU backend
// (device_segmented_reduce.cuh says how it reduces). Internal: programs
// include <cub/device/device_segmented_reduce.cuh> or <cub/cub.cuh>.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cub/device/detail/reduce.cuh"

namespace cub {
namespace detail {

template <class Iterator>
constexpr bool is_arg_index_iterator = false;
template <class InputIt, class Offset, class Value>
constexpr bool is_arg_index_iterator<ArgIndexInputIterator<InputIt, Offset, Value>> = true;

// The segment's items from its first on; an ArgMin's or ArgMax's offsets
// count from there, as CUB writes them.
template <class InputIt>
InputIt segment_items(InputIt in, std::int64_t begin) {
    InputIt items = in + begin;
    if constexpr (is_arg_index_iterator<InputIt>) items.normalize();
    return items;
}

template <class Accum, class InputIt, class OutputIt, class BeginIt, class EndIt, class Op, class Init>
__global__ void reduce_segments(InputIt in, OutputIt out, BeginIt begin_offsets, EndIt end_offsets, Op op,
                                Init init) {
    const std::int64_t begin = begin_offsets[blockIdx.x];
    const std::int64_t end = end_offsets[blockIdx.x];
    const Accum total = reduce_range<Accum>(segment_items(in, begin), 0, end - begin, kReduceThreads, op);
    if (threadIdx.x == 0) *(out + blockIdx.x) = end > begin ? with_init(op, init, total) : empty_result(init);
}

// CUB's protocol, and its answer to no segments: success, with nothing
// written, not even the size.
template <class Accum, class InputIt, class OutputIt, class BeginIt, class EndIt, class Op, class Init>
cudaError_t reduce_segments(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in,
                            OutputIt d_out, std::int64_t num_segments, BeginIt d_begin_offsets,
                            EndIt d_end_offsets, Op op, Init init, cudaStream_t stream) {
    if (num_segments <= 0) return cudaSuccess;
    if (d_temp_storage == nullptr) {
        temp_storage_bytes = 1;  // none is used; 0 would read as "ask again"
        return cudaSuccess;
    }
    reduce_segments<Accum><<<static_cast<unsigned>(num_segments), kReduceThreads, 0, stream>>>(
        d_in, d_out, d_begin_offsets, d_end_offsets, op, init);
    return cudaPeekAtLastError();
}

}  // namespace detail
}  // namespace cub
