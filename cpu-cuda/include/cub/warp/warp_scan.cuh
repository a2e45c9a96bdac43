// <cub/warp/warp_scan.cuh> on the CPU backend: cub::WarpScan, part of the
// subset of CUB that warpdrill's CPU backend provides, written for the
// backend from CUB's documented API (not CUB's code). A warp scans with
// __shfl_up_sync, so TempStorage is empty. Also the warp step that
// cub::BlockScan shares (cub::detail::scan_lanes).
//
// The order of combination is CUB's (a Kogge-Stone scan): at the step with
// offset o = 1, 2, 4, ..., lane l takes op(value of lane l - o, its own), so
// lane l's inclusive result combines a tree, not a left-to-right chain; the
// exclusive result is the inclusive result of the lane before.
#pragma once

#include <optional>

#include "cub/warp/warp_reduce.cuh"

namespace cub {
namespace detail {

template <class T>
struct LaneScan {
    T inclusive;
    T exclusive;  // with no initial value: unspecified in the first lane
    T aggregate;  // all the lanes' values, without the initial value
};

// Scans `value` over the first `lanes` lanes of a logical warp of kWidth
// lanes, whose lanes are `mask`: every lane of the mask must call it. With
// an initial value, it is the first lane's exclusive result and comes first
// in every other lane's (CUB combines it with the inclusive result of the
// lane before: op(initial, inclusive)).
template <int kWidth, class T, class Op>
__device__ LaneScan<T> scan_lanes(T value, Op op, int lanes, unsigned mask, std::optional<T> initial,
                                  Where where) {
    const int lane = block_rank() % kWidth;
    T inclusive = value;
    for (int offset = 1; offset < lanes; offset *= 2) {
        const T left = shuffle_item(
            inclusive, [&](auto part) { return __shfl_up_sync(mask, part, offset, kWidth, where); });
        if (lane >= offset) inclusive = op(left, inclusive);
    }
    const T aggregate =
        shuffle_item(inclusive, [&](auto part) { return __shfl_sync(mask, part, lanes - 1, kWidth, where); });
    const T seeded = initial ? op(*initial, inclusive) : inclusive;
    T exclusive =
        shuffle_item(seeded, [&](auto part) { return __shfl_up_sync(mask, part, 1, kWidth, where); });
    if (lane == 0 && initial) exclusive = *initial;
    return {inclusive, exclusive, aggregate};
}

}  // namespace detail

// Scans of a logical warp of LOGICAL_WARP_THREADS threads (a power of two up
// to 32; a warp holds 32 / LOGICAL_WARP_THREADS of them). Every thread of a
// logical warp must call. The exclusive scans without an initial value leave
// the first lane's output unspecified, as CUB does.
template <typename T, int LOGICAL_WARP_THREADS = detail::kWarpThreads>
class WarpScan {
    static_assert(
        detail::is_logical_warp_size(LOGICAL_WARP_THREADS),
        "cub::WarpScan on warpdrill's CPU backend: LOGICAL_WARP_THREADS must be 1, 2, 4, 8, 16 or 32");
    using Where = detail::Where;
    using Plus = ::cuda::std::plus<>;

  public:
    // Shuffles need no shared memory.
    struct TempStorage {};

    __device__ WarpScan(TempStorage& /*temp_storage*/) {}

    __device__ void InclusiveSum(T input, T& inclusive_output, Where where = Where::current()) {
        inclusive_output = scan(input, Plus{}, std::nullopt, where).inclusive;
    }
    __device__ void InclusiveSum(T input, T& inclusive_output, T& warp_aggregate,
                                 Where where = Where::current()) {
        InclusiveScan(input, inclusive_output, Plus{}, warp_aggregate, where);
    }
    // The first lane gets 0.
    __device__ void ExclusiveSum(T input, T& exclusive_output, Where where = Where::current()) {
        exclusive_output = scan(input, Plus{}, T{}, where).exclusive;
    }
    __device__ void ExclusiveSum(T input, T& exclusive_output, T& warp_aggregate,
                                 Where where = Where::current()) {
        ExclusiveScan(input, exclusive_output, T{}, Plus{}, warp_aggregate, where);
    }

    template <typename ScanOp>
    __device__ void InclusiveScan(T input, T& inclusive_output, ScanOp scan_op,
                                  Where where = Where::current()) {
        inclusive_output = scan(input, scan_op, std::nullopt, where).inclusive;
    }
    template <typename ScanOp>
    __device__ void InclusiveScan(T input, T& inclusive_output, ScanOp scan_op, T& warp_aggregate,
                                  Where where = Where::current()) {
        const detail::LaneScan<T> result = scan(input, scan_op, std::nullopt, where);
        inclusive_output = result.inclusive;
        warp_aggregate = result.aggregate;
    }
    template <typename ScanOp>
    __device__ void ExclusiveScan(T input, T& exclusive_output, ScanOp scan_op,
                                  Where where = Where::current()) {
        exclusive_output = scan(input, scan_op, std::nullopt, where).exclusive;
    }
    template <typename ScanOp>
    __device__ void ExclusiveScan(T input, T& exclusive_output, T initial_value, ScanOp scan_op,
                                  Where where = Where::current()) {
        exclusive_output = scan(input, scan_op, initial_value, where).exclusive;
    }
    // warp_aggregate leaves out initial_value.
    template <typename ScanOp>
    __device__ void ExclusiveScan(T input, T& exclusive_output, T initial_value, ScanOp scan_op,
                                  T& warp_aggregate, Where where = Where::current()) {
        const detail::LaneScan<T> result = scan(input, scan_op, initial_value, where);
        exclusive_output = result.exclusive;
        warp_aggregate = result.aggregate;
    }

  private:
    template <class Op>
    __device__ static detail::LaneScan<T> scan(T input, Op op, std::optional<T> initial, Where where) {
        return detail::scan_lanes<LOGICAL_WARP_THREADS>(input, op, LOGICAL_WARP_THREADS,
                                                        detail::logical_warp_mask<LOGICAL_WARP_THREADS>(),
                                                        initial, where);
    }
};

}  // namespace cub
