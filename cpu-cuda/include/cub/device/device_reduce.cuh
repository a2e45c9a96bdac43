// <cub/device/device_reduce.cuh> on the CPU backend: cub::DeviceReduce's Sum,
// Min, Max, Reduce, TransformReduce, ArgMin, ArgMax and ReduceByKey, part of
// the subset of CUB that warpdrill's CPU backend provides, written for the
// backend from CUB's documented API (not CUB's code). The reductions take
// two kernels, as in lesson 8: a grid that fills the GPU reduces
// grid-stride shares of the input to one partial result per block, kept in
// the caller's temporary storage; then one block reduces the partials (an
// input that one block covers takes the second kernel only). ReduceByKey is
// a scan (detail/reduce_by_key.cuh says how).
#pragma once

#include <cstddef>
#include <cstdint>

#include "cub/device/detail/reduce.cuh"
#include "cub/device/detail/reduce_by_key.cuh"

// CUB marks the interfaces it has superseded [[deprecated]], unless the program asks not to be told.
#if defined(CCCL_IGNORE_DEPRECATED_API) || defined(CUB_IGNORE_DEPRECATED_API)
#define WARPDRILL_CUB_DEPRECATED(reason)
#else
#define WARPDRILL_CUB_DEPRECATED(reason) [[deprecated(reason)]]
#endif

namespace cub {

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
                      detail::ReadAt{[=](std::int64_t i) { return transform_op(d_in[i]); }}, d_out, num_items,
                      reduction_op, init, stream);
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

    // For each run of consecutive equal keys (compared with ==), in order:
    // its first key to d_unique_out, the reduction_op of its values to
    // d_aggregates_out; the number of runs to *d_num_runs_out (0 of no items).
    template <typename KeysInputIteratorT, typename UniqueOutputIteratorT, typename ValuesInputIteratorT,
              typename AggregatesOutputIteratorT, typename NumRunsOutputIteratorT, typename ReductionOpT,
              typename NumItemsT>
    static cudaError_t ReduceByKey(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                   KeysInputIteratorT d_keys_in, UniqueOutputIteratorT d_unique_out,
                                   ValuesInputIteratorT d_values_in,
                                   AggregatesOutputIteratorT d_aggregates_out,
                                   NumRunsOutputIteratorT d_num_runs_out, ReductionOpT reduction_op,
                                   NumItemsT num_items, cudaStream_t stream = 0) {
        using Value = detail::iterator_value_t<ValuesInputIteratorT>;
        using Accum = std::decay_t<std::invoke_result_t<ReductionOpT&, Value, Value>>;
        return detail::reduce_by_key<Accum>(d_temp_storage, temp_storage_bytes, d_keys_in, d_unique_out,
                                            d_values_in, d_aggregates_out, d_num_runs_out, reduction_op,
                                            static_cast<std::int64_t>(num_items), stream);
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
        using Pair = detail::arg_pair_t<OutputIt, InputIt>;
        return detail::arg_extremum<int, typename Pair::Value, Op>(d_temp_storage, temp_storage_bytes, d_in,
                                                                   d_out, num_items, stream);
    }
};

}  // namespace cub
