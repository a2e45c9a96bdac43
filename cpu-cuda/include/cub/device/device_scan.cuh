// <cub/device/device_scan.cuh> on the CPU backend: cub::DeviceScan's
// InclusiveSum, ExclusiveSum, InclusiveScan, InclusiveScanInit and
// ExclusiveScan, each also in place, part of the subset of CUB that
// warpdrill's CPU backend provides, written for the backend from CUB's
// documented API (not CUB's code). A reduce-then-scan in three kernels over
// tiles of one item per thread: each block reduces its tile; one block
// scans the tiles' totals into each tile's prefix; each block scans its
// tile from its prefix. The operator must be associative; it need not be
// commutative (every step keeps the items' order). Floating-point results
// may differ from CUB's in the last bits: CUB combines in another order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "cub/device/detail/scan.cuh"

namespace cub {

// Every call follows CUB's two-call protocol (DeviceReduce says how); the
// forms with one iterator scan in place. Of no items nothing is written.
struct DeviceScan {
    // d_out[i] = scan_op over d_in[0, i].
    template <typename InputIteratorT, typename OutputIteratorT, typename ScanOpT, typename NumItemsT>
    static cudaError_t InclusiveScan(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                     InputIteratorT d_in, OutputIteratorT d_out, ScanOpT scan_op,
                                     NumItemsT num_items, cudaStream_t stream = 0) {
        using Accum = detail::scan_accumulator_t<ScanOpT, InputIteratorT>;
        return detail::scan<false, Accum>(d_temp_storage, temp_storage_bytes, d_in, d_out,
                                          static_cast<std::int64_t>(num_items), scan_op, std::nullopt,
                                          stream);
    }
    template <typename IteratorT, typename ScanOpT, typename NumItemsT>
    static cudaError_t InclusiveScan(void* d_temp_storage, std::size_t& temp_storage_bytes, IteratorT d_data,
                                     ScanOpT scan_op, NumItemsT num_items, cudaStream_t stream = 0) {
        return InclusiveScan(d_temp_storage, temp_storage_bytes, d_data, d_data, scan_op, num_items, stream);
    }

    // d_out[i] = scan_op over init_value and d_in[0, i].
    template <typename InputIteratorT, typename OutputIteratorT, typename ScanOpT, typename InitValueT,
              typename NumItemsT>
    static cudaError_t InclusiveScanInit(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                         InputIteratorT d_in, OutputIteratorT d_out, ScanOpT scan_op,
                                         InitValueT init_value, NumItemsT num_items,
                                         cudaStream_t stream = 0) {
        using Accum = detail::scan_accumulator_t<ScanOpT, InputIteratorT, InitValueT>;
        return detail::scan<false, Accum>(d_temp_storage, temp_storage_bytes, d_in, d_out,
                                          static_cast<std::int64_t>(num_items), scan_op,
                                          std::optional<Accum>(init_value), stream);
    }

    // d_out[i] = scan_op over init_value and d_in[0, i): d_out[0] = init_value.
    template <typename InputIteratorT, typename OutputIteratorT, typename ScanOpT, typename InitValueT,
              typename NumItemsT>
    static cudaError_t ExclusiveScan(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                     InputIteratorT d_in, OutputIteratorT d_out, ScanOpT scan_op,
                                     InitValueT init_value, NumItemsT num_items, cudaStream_t stream = 0) {
        using Accum = detail::scan_accumulator_t<ScanOpT, InputIteratorT, InitValueT>;
        return detail::scan<true, Accum>(d_temp_storage, temp_storage_bytes, d_in, d_out,
                                         static_cast<std::int64_t>(num_items), scan_op,
                                         std::optional<Accum>(init_value), stream);
    }
    template <typename IteratorT, typename ScanOpT, typename InitValueT, typename NumItemsT>
    static cudaError_t ExclusiveScan(void* d_temp_storage, std::size_t& temp_storage_bytes, IteratorT d_data,
                                     ScanOpT scan_op, InitValueT init_value, NumItemsT num_items,
                                     cudaStream_t stream = 0) {
        return ExclusiveScan(d_temp_storage, temp_storage_bytes, d_data, d_data, scan_op, init_value,
                             num_items, stream);
    }

    // The running sums, d_in[0] + ... + d_in[i].
    template <typename InputIteratorT, typename OutputIteratorT, typename NumItemsT>
    static cudaError_t InclusiveSum(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                    InputIteratorT d_in, OutputIteratorT d_out, NumItemsT num_items,
                                    cudaStream_t stream = 0) {
        return InclusiveScan(d_temp_storage, temp_storage_bytes, d_in, d_out, ::cuda::std::plus<>{},
                             num_items, stream);
    }
    template <typename IteratorT, typename NumItemsT>
    static cudaError_t InclusiveSum(void* d_temp_storage, std::size_t& temp_storage_bytes, IteratorT d_data,
                                    NumItemsT num_items, cudaStream_t stream = 0) {
        return InclusiveSum(d_temp_storage, temp_storage_bytes, d_data, d_data, num_items, stream);
    }

    // The running sums before each item, from 0 of the input's type: d_out[0] = 0.
    template <typename InputIteratorT, typename OutputIteratorT, typename NumItemsT>
    static cudaError_t ExclusiveSum(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                    InputIteratorT d_in, OutputIteratorT d_out, NumItemsT num_items,
                                    cudaStream_t stream = 0) {
        using Value = detail::iterator_value_t<InputIteratorT>;
        return ExclusiveScan(d_temp_storage, temp_storage_bytes, d_in, d_out, ::cuda::std::plus<>{}, Value{},
                             num_items, stream);
    }
    template <typename IteratorT, typename NumItemsT>
    static cudaError_t ExclusiveSum(void* d_temp_storage, std::size_t& temp_storage_bytes, IteratorT d_data,
                                    NumItemsT num_items, cudaStream_t stream = 0) {
        return ExclusiveSum(d_temp_storage, temp_storage_bytes, d_data, d_data, num_items, stream);
    }
};

}  // namespace cub
