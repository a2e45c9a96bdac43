// <cub/block/block_scan.cuh> on the CPU backend: cub::BlockScan, part of the
// subset of CUB that warpdrill's CPU backend provides, written for the
// backend from CUB's documented API (not CUB's code). It is CUB's default
// algorithm, BLOCK_SCAN_RAKING, as its documentation describes it, and
// combines the items in the same order, which decides a floating-point
// scan's rounding:
//  - A block of at most 32 threads is one warp's Kogge-Stone scan
//    (cub::detail::scan_lanes).
//  - A larger block puts each thread's partial in shared memory; the block
//    is cut into 32 or fewer segments of S = ceil(threads / 32) consecutive
//    threads, and lane r of the first warp reduces segment r left to right,
//    takes the exclusive Kogge-Stone scan of the segments' totals, and walks
//    its segment again left to right from that prefix: thread t's exclusive
//    result is op(... op(op(prefix, x[first]), x[first + 1]) ..., x[t - 1]),
//    and its inclusive result op(its exclusive result, x[t]).
//  - With several items per thread, a thread first reduces its items
//    (cub::ThreadReduce), the block scans those totals, and the thread scans
//    its items left to right from its exclusive result.
// The exclusive scans without an initial value leave thread 0's output
// unspecified, as CUB does.
#pragma once

#include <algorithm>
#include <optional>

#include "cub/thread/thread_reduce.cuh"
#include "cub/warp/warp_scan.cuh"

namespace cub {

enum BlockScanAlgorithm {
    // Raking segments of shared memory with the first warp: the default.
    BLOCK_SCAN_RAKING,
    // As BLOCK_SCAN_RAKING, keeping the segments in registers on a GPU: the same results.
    BLOCK_SCAN_RAKING_MEMOIZE,
    // Not provided on the CPU backend.
    BLOCK_SCAN_WARP_SCANS,
};

// Prefix scans of a block of BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z threads
// (the launch's block shape), in the order of their ranks (x fastest). Every
// thread of the block must call. The block_aggregate forms give every thread
// the reduction of all the block's items, without the initial value. A later
// call that reuses the same TempStorage needs a __syncthreads() in between,
// as with CUB.
template <typename T, int BLOCK_DIM_X, BlockScanAlgorithm ALGORITHM = BLOCK_SCAN_RAKING, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1>
class BlockScan {
    static_assert(ALGORITHM != BLOCK_SCAN_WARP_SCANS,
                  "cub::BlockScan on warpdrill's CPU backend: BLOCK_SCAN_WARP_SCANS is not provided; "
                  "use BLOCK_SCAN_RAKING");
    using Where = detail::Where;
    using Plus = ::cuda::std::plus<>;
    static constexpr int kWarpThreads = detail::kWarpThreads;
    static constexpr int kThreads = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
    // Lane r of the first warp rakes the partials of threads r * kSegment ... (r + 1) * kSegment - 1.
    static constexpr int kSegment = (kThreads + kWarpThreads - 1) / kWarpThreads;
    static constexpr int kRakingLanes = (kThreads + kSegment - 1) / kSegment;

    // One thread's results of the block's scan of one partial per thread.
    struct Scanned {
        T exclusive;
        T inclusive;
        T aggregate;
    };

  public:
    struct TempStorage {
        T partials[kThreads];
        T aggregate;
    };

    // Uses shared memory of its own (one per BlockScan type) instead of the caller's.
    __device__ BlockScan() : temp_storage_(private_storage()) {}
    __device__ BlockScan(TempStorage& temp_storage) : temp_storage_(temp_storage) {}

    // ---- one item per thread ----
    // Thread 0 gets 0.
    __device__ void ExclusiveSum(T input, T& output, Where where = Where::current()) {
        output = scan(input, Plus{}, T{}, where).exclusive;
    }
    __device__ void ExclusiveSum(T input, T& output, T& block_aggregate, Where where = Where::current()) {
        ExclusiveScan(input, output, T{}, Plus{}, block_aggregate, where);
    }
    // Thread 0 gets initial_value.
    template <typename ScanOp>
    __device__ void ExclusiveScan(T input, T& output, T initial_value, ScanOp scan_op,
                                  Where where = Where::current()) {
        output = scan(input, scan_op, initial_value, where).exclusive;
    }
    template <typename ScanOp>
    __device__ void ExclusiveScan(T input, T& output, T initial_value, ScanOp scan_op, T& block_aggregate,
                                  Where where = Where::current()) {
        const Scanned result = scan(input, scan_op, initial_value, where);
        output = result.exclusive;
        block_aggregate = result.aggregate;
    }
    __device__ void InclusiveSum(T input, T& output, Where where = Where::current()) {
        output = scan(input, Plus{}, std::nullopt, where).inclusive;
    }
    __device__ void InclusiveSum(T input, T& output, T& block_aggregate, Where where = Where::current()) {
        InclusiveScan(input, output, Plus{}, block_aggregate, where);
    }
    template <typename ScanOp>
    __device__ void InclusiveScan(T input, T& output, ScanOp scan_op, Where where = Where::current()) {
        output = scan(input, scan_op, std::nullopt, where).inclusive;
    }
    template <typename ScanOp>
    __device__ void InclusiveScan(T input, T& output, ScanOp scan_op, T& block_aggregate,
                                  Where where = Where::current()) {
        const Scanned result = scan(input, scan_op, std::nullopt, where);
        output = result.inclusive;
        block_aggregate = result.aggregate;
    }

    // ---- ITEMS_PER_THREAD consecutive items per thread (input and output may be the same array) ----
    template <int ITEMS_PER_THREAD>
    __device__ void ExclusiveSum(T (&input)[ITEMS_PER_THREAD], T (&output)[ITEMS_PER_THREAD],
                                 Where where = Where::current()) {
        scan_items(input, output, Plus{}, T{}, Kind::exclusive, where);
    }
    template <int ITEMS_PER_THREAD>
    __device__ void ExclusiveSum(T (&input)[ITEMS_PER_THREAD], T (&output)[ITEMS_PER_THREAD],
                                 T& block_aggregate, Where where = Where::current()) {
        block_aggregate = scan_items(input, output, Plus{}, T{}, Kind::exclusive, where);
    }
    template <int ITEMS_PER_THREAD, typename ScanOp>
    __device__ void ExclusiveScan(T (&input)[ITEMS_PER_THREAD], T (&output)[ITEMS_PER_THREAD],
                                  T initial_value, ScanOp scan_op, Where where = Where::current()) {
        scan_items(input, output, scan_op, initial_value, Kind::exclusive, where);
    }
    template <int ITEMS_PER_THREAD, typename ScanOp>
    __device__ void ExclusiveScan(T (&input)[ITEMS_PER_THREAD], T (&output)[ITEMS_PER_THREAD],
                                  T initial_value, ScanOp scan_op, T& block_aggregate,
                                  Where where = Where::current()) {
        block_aggregate = scan_items(input, output, scan_op, initial_value, Kind::exclusive, where);
    }
    template <int ITEMS_PER_THREAD>
    __device__ void InclusiveSum(T (&input)[ITEMS_PER_THREAD], T (&output)[ITEMS_PER_THREAD],
                                 Where where = Where::current()) {
        scan_items(input, output, Plus{}, std::nullopt, Kind::inclusive, where);
    }
    template <int ITEMS_PER_THREAD>
    __device__ void InclusiveSum(T (&input)[ITEMS_PER_THREAD], T (&output)[ITEMS_PER_THREAD],
                                 T& block_aggregate, Where where = Where::current()) {
        block_aggregate = scan_items(input, output, Plus{}, std::nullopt, Kind::inclusive, where);
    }
    template <int ITEMS_PER_THREAD, typename ScanOp>
    __device__ void InclusiveScan(T (&input)[ITEMS_PER_THREAD], T (&output)[ITEMS_PER_THREAD], ScanOp scan_op,
                                  Where where = Where::current()) {
        scan_items(input, output, scan_op, std::nullopt, Kind::inclusive, where);
    }
    template <int ITEMS_PER_THREAD, typename ScanOp>
    __device__ void InclusiveScan(T (&input)[ITEMS_PER_THREAD], T (&output)[ITEMS_PER_THREAD], ScanOp scan_op,
                                  T& block_aggregate, Where where = Where::current()) {
        block_aggregate = scan_items(input, output, scan_op, std::nullopt, Kind::inclusive, where);
    }

  private:
    enum class Kind { exclusive, inclusive };

    __device__ static TempStorage& private_storage() {
        __shared__ TempStorage storage;
        return storage;
    }

    // Does the calling thread's exclusive result exist? Not in thread 0 without an initial value.
    __device__ bool has_prefix(const std::optional<T>& initial) const { return initial || rank_ > 0; }

    // The block's scan of one partial per thread.
    template <class Op>
    __device__ Scanned scan(T partial, Op op, std::optional<T> initial, Where where) {
        if constexpr (kThreads <= kWarpThreads) {
            const detail::LaneScan<T> lanes = detail::scan_lanes<kWarpThreads>(
                partial, op, kThreads, detail::first_lanes(kThreads), initial, where);
            return {lanes.exclusive, lanes.inclusive, lanes.aggregate};
        } else {
            temp_storage_.partials[rank_] = partial;
            __syncthreads(where);
            if (rank_ < kRakingLanes) rake(op, initial, where);
            __syncthreads(where);
            const T exclusive = temp_storage_.partials[rank_];
            const T inclusive = has_prefix(initial) ? op(exclusive, partial) : partial;
            return {exclusive, inclusive, temp_storage_.aggregate};
        }
    }

    // Raking lane rank_: replaces each partial of its segment with the
    // combination of all the partials before it (and the initial value).
    template <class Op>
    __device__ void rake(Op op, std::optional<T> initial, Where where) {
        T* const partials = temp_storage_.partials;
        const int first = rank_ * kSegment;
        const int end = std::min(first + kSegment, kThreads);
        T segment_total = partials[first];
        for (int i = first + 1; i < end; ++i) segment_total = op(segment_total, partials[i]);
        const detail::LaneScan<T> lanes = detail::scan_lanes<kWarpThreads>(
            segment_total, op, kRakingLanes, detail::first_lanes(kRakingLanes), initial, where);
        if (rank_ == 0) temp_storage_.aggregate = lanes.aggregate;
        std::optional<T> prefix;
        if (has_prefix(initial)) prefix = lanes.exclusive;
        scan_run(partials + first, partials + first, end - first, op, prefix, Kind::exclusive);
    }

    // Scans the run of n items left to right from `prefix` (none: from the
    // first item, whose exclusive result then stays as it was). Each item is
    // read before its result is written, so `in` and `out` may be the same.
    template <class Op>
    __device__ static void scan_run(const T* in, T* out, int n, Op op, std::optional<T> prefix, Kind kind) {
        for (int i = 0; i < n; ++i) {
            const T item = in[i];
            const T inclusive = prefix ? op(*prefix, item) : item;
            if (kind == Kind::inclusive) {
                out[i] = inclusive;
            } else if (prefix) {
                out[i] = *prefix;
            }
            prefix = inclusive;
        }
    }

    // Scans each thread's items; returns the block's aggregate.
    template <int kItems, class Op>
    __device__ T scan_items(const T (&input)[kItems], T (&output)[kItems], Op op, std::optional<T> initial,
                            Kind kind, Where where) {
        const Scanned totals = scan(ThreadReduce(input, op), op, initial, where);
        std::optional<T> prefix;
        if (has_prefix(initial)) prefix = totals.exclusive;
        scan_run(input, output, kItems, op, prefix, kind);
        return totals.aggregate;
    }

    TempStorage& temp_storage_;
    // The calling thread's rank in the block (x fastest), from the block shape given as template arguments.
    const int rank_ = detail::block_rank<BLOCK_DIM_X, BLOCK_DIM_Y>();
};

}  // namespace cub
