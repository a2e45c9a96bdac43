// <cub/device/device_segmented_reduce.cuh> on the CPU backend:
// cub::DeviceSegmentedReduce's Reduce, Sum, Min, Max, ArgMin and ArgMax, part
// of the subset of CUB that warpdrill's CPU backend provides, written for the
// backend from CUB's documented API (not CUB's code). One block per segment,
// as in CUB: block s reduces in[begin_offsets[s], end_offsets[s]) and writes
// out[s]. Segments need not be in order, may overlap, and need not cover
// the input; a segment whose end is its begin is empty, and so is one whose
// end lies before its begin here (where an H200 gave 0 for Sum and an
// undefined pair for ArgMin: results/cub-device-h200.txt).
#pragma once

#include <cstddef>
#include <cstdint>

#include "cub/device/detail/segmented_reduce.cuh"

namespace cub {

// Every call follows CUB's two-call protocol (DeviceReduce says how). An
// empty segment's result is the init: Sum's 0, Min's largest value, Max's
// lowest, ArgMin's {1, largest} and ArgMax's {1, lowest}.
struct DeviceSegmentedReduce {
    // d_out[s] = reduction_op over initial_value and segment s's items.
    template <typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorT,
              typename EndOffsetIteratorT, typename ReductionOpT, typename T>
    static cudaError_t Reduce(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIteratorT d_in,
                              OutputIteratorT d_out, std::int64_t num_segments,
                              BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
                              ReductionOpT reduction_op, T initial_value, cudaStream_t stream = 0) {
        using Accum = detail::accumulator_t<ReductionOpT, T, InputIteratorT>;
        return detail::reduce_segments<Accum>(d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments,
                                              d_begin_offsets, d_end_offsets, reduction_op,
                                              static_cast<Accum>(initial_value), stream);
    }

    // Each segment's sum, from 0; in the output's type.
    template <typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorT,
              typename EndOffsetIteratorT>
    static cudaError_t Sum(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIteratorT d_in,
                           OutputIteratorT d_out, std::int64_t num_segments,
                           BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
                           cudaStream_t stream = 0) {
        using Value = detail::sum_value_t<InputIteratorT, OutputIteratorT>;
        return Reduce(d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments, d_begin_offsets,
                      d_end_offsets, ::cuda::std::plus<>{}, Value{}, stream);
    }

    template <typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorT,
              typename EndOffsetIteratorT>
    static cudaError_t Min(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIteratorT d_in,
                           OutputIteratorT d_out, std::int64_t num_segments,
                           BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
                           cudaStream_t stream = 0) {
        using Value = detail::iterator_value_t<InputIteratorT>;
        return Reduce(d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments, d_begin_offsets,
                      d_end_offsets, ::cuda::minimum<>{}, ::cuda::std::numeric_limits<Value>::max(), stream);
    }

    template <typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorT,
              typename EndOffsetIteratorT>
    static cudaError_t Max(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIteratorT d_in,
                           OutputIteratorT d_out, std::int64_t num_segments,
                           BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
                           cudaStream_t stream = 0) {
        using Value = detail::iterator_value_t<InputIteratorT>;
        return Reduce(d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments, d_begin_offsets,
                      d_end_offsets, ::cuda::maximum<>{}, ::cuda::std::numeric_limits<Value>::lowest(),
                      stream);
    }

    // d_out[s] = cub::KeyValuePair<int, T>{offset in the segment, value} of
    // segment s's first smallest item.
    template <typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorT,
              typename EndOffsetIteratorT>
    static cudaError_t ArgMin(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIteratorT d_in,
                              OutputIteratorT d_out, std::int64_t num_segments,
                              BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
                              cudaStream_t stream = 0) {
        return arg_extremum<::cub::ArgMin>(d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments,
                                           d_begin_offsets, d_end_offsets, stream);
    }

    // The same for segment s's first largest item.
    template <typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorT,
              typename EndOffsetIteratorT>
    static cudaError_t ArgMax(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIteratorT d_in,
                              OutputIteratorT d_out, std::int64_t num_segments,
                              BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
                              cudaStream_t stream = 0) {
        return arg_extremum<::cub::ArgMax>(d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments,
                                           d_begin_offsets, d_end_offsets, stream);
    }

  private:
    template <class Op, class InputIt, class OutputIt, class BeginIt, class EndIt>
    static cudaError_t arg_extremum(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in,
                                    OutputIt d_out, std::int64_t num_segments, BeginIt d_begin_offsets,
                                    EndIt d_end_offsets, cudaStream_t stream) {
        using Input = detail::iterator_value_t<InputIt>;
        using Pair = detail::arg_pair_t<OutputIt, InputIt>;
        return detail::reduce_segments<Pair>(d_temp_storage, temp_storage_bytes,
                                             ArgIndexInputIterator<InputIt, int, typename Pair::Value>(d_in),
                                             d_out, num_segments, d_begin_offsets, d_end_offsets, Op{},
                                             detail::arg_extremum_init<Op, Input, Pair>(), stream);
    }
};

}  // namespace cub
