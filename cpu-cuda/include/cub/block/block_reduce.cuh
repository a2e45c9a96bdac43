// <cub/block/block_reduce.cuh> on the CPU backend: cub::BlockReduce and
// cub::BlockReduceAlgorithm, part of the subset of CUB that warpdrill's CPU
// backend provides, written for the backend from CUB's documented API (not
// CUB's code). Each of CUB's three algorithms is the GPU algorithm its
// documentation describes, with warp shuffles, shared memory and at most
// one __syncthreads().
#pragma once

#include <algorithm>

#include "cub/thread/thread_reduce.cuh"
#include "cub/warp/warp_reduce.cuh"

namespace cub {

enum BlockReduceAlgorithm {
    // The first warp's lanes each add up a strided share of the items that the
    // other warps put in shared memory, then reduce as a warp. Reorders the
    // items, so the operator must be commutative.
    BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY,
    // Every thread puts its item in shared memory; the first warp's lanes each
    // reduce a run of consecutive items, then reduce as a warp, in order.
    BLOCK_REDUCE_RAKING,
    // Each warp reduces with shuffles; the first warp then reduces the warps'
    // results, in order. The default: fewest steps one after another.
    BLOCK_REDUCE_WARP_REDUCTIONS,
};

// The reduction of a block of BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z threads
// (the launch's block shape). Every thread of the block must call; the result
// is valid in thread 0 only. A later call that reuses the same TempStorage
// needs a __syncthreads() in between, as with CUB.
template <typename T, int BLOCK_DIM_X, BlockReduceAlgorithm ALGORITHM = BLOCK_REDUCE_WARP_REDUCTIONS,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1>
class BlockReduce {
    using Where = detail::Where;
    static constexpr int kWarpThreads = detail::kWarpThreads;
    static constexpr int kThreads = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
    static constexpr int kWarps = (kThreads + kWarpThreads - 1) / kWarpThreads;
    // BLOCK_REDUCE_RAKING: lane l of the first warp reduces run l, kRunLength
    // consecutive items; the runs lie kRunStride items apart in shared memory.
    // An odd stride puts the 32 runs' first items in 32 different banks, so
    // the lanes' reads do not conflict.
    static constexpr int kRunLength = (kThreads + kWarpThreads - 1) / kWarpThreads;
    static constexpr int kRunStride = kRunLength | 1;
    // What each algorithm keeps in shared memory: each warp's result, the
    // runs, or the items of the threads past the first warp.
    static constexpr int kSharedItems = ALGORITHM == BLOCK_REDUCE_WARP_REDUCTIONS ? kWarps
                                        : ALGORITHM == BLOCK_REDUCE_RAKING
                                            ? kWarpThreads * kRunStride
                                            : std::max(kThreads - kWarpThreads, 1);

  public:
    struct TempStorage {
        T items[kSharedItems];
    };

    // Uses shared memory of its own (one per BlockReduce type) instead of the caller's.
    __device__ BlockReduce() : temp_storage_(private_storage()) {}
    __device__ BlockReduce(TempStorage& temp_storage) : temp_storage_(temp_storage) {}

    template <typename ReductionOp>
    __device__ T Reduce(T input, ReductionOp reduction_op, Where where = Where::current()) {
        return Reduce(input, reduction_op, kThreads, where);
    }
    // Each thread contributes its ITEMS_PER_THREAD consecutive items, which
    // it reduces first in cub::ThreadReduce's order (a float sum: a pairwise tree).
    template <int ITEMS_PER_THREAD, typename ReductionOp>
    __device__ T Reduce(T (&inputs)[ITEMS_PER_THREAD], ReductionOp reduction_op,
                        Where where = Where::current()) {
        return Reduce(ThreadReduce(inputs, reduction_op), reduction_op, where);
    }
    // Only threads 0 .. num_valid-1 contribute.
    template <typename ReductionOp>
    __device__ T Reduce(T input, ReductionOp reduction_op, int num_valid, Where where = Where::current()) {
        num_valid = std::min(num_valid, kThreads);
        if constexpr (kWarps == 1) {
            // A block of one warp is a warp reduction, whatever the algorithm.
            return detail::reduce_lanes<kWarpThreads>(input, reduction_op, num_valid,
                                                      detail::first_lanes(kThreads), where);
        } else if constexpr (ALGORITHM == BLOCK_REDUCE_WARP_REDUCTIONS) {
            return reduce_by_warps(input, reduction_op, num_valid, where);
        } else if constexpr (ALGORITHM == BLOCK_REDUCE_RAKING) {
            return reduce_raking(input, reduction_op, num_valid, where);
        } else {
            return reduce_raking_commutative(input, reduction_op, num_valid, where);
        }
    }

    __device__ T Sum(T input, Where where = Where::current()) {
        return Reduce(input, ::cuda::std::plus<>{}, where);
    }
    template <int ITEMS_PER_THREAD>
    __device__ T Sum(T (&inputs)[ITEMS_PER_THREAD], Where where = Where::current()) {
        return Reduce(inputs, ::cuda::std::plus<>{}, where);
    }
    __device__ T Sum(T input, int num_valid, Where where = Where::current()) {
        return Reduce(input, ::cuda::std::plus<>{}, num_valid, where);
    }

  private:
    __device__ static TempStorage& private_storage() {
        __shared__ TempStorage storage;
        return storage;
    }

    template <class Op>
    __device__ T reduce_by_warps(T input, Op op, int num_valid, Where where) {
        const int warp = rank_ / kWarpThreads;
        const int lane = rank_ % kWarpThreads;
        const int lanes_of_warp = std::min(kThreads - warp * kWarpThreads, kWarpThreads);
        const int valid_lanes = std::clamp(num_valid - warp * kWarpThreads, 0, lanes_of_warp);
        T warp_result = input;
        if (valid_lanes > 0) {
            warp_result = detail::reduce_lanes<kWarpThreads>(input, op, valid_lanes,
                                                             detail::first_lanes(lanes_of_warp), where);
        }
        if (lane == 0 && valid_lanes > 0) temp_storage_.items[warp] = warp_result;
        __syncthreads(where);
        if (warp > 0) return warp_result;
        // The first warp is whole (there are several): its lane w reduces warp w's result.
        const int valid_warps = (num_valid + kWarpThreads - 1) / kWarpThreads;
        const T result_of_warp = lane < valid_warps ? temp_storage_.items[lane] : warp_result;
        return detail::reduce_lanes<kWarpThreads>(result_of_warp, op, valid_warps, detail::kFullWarp, where);
    }

    template <class Op>
    __device__ T reduce_raking(T input, Op op, int num_valid, Where where) {
        if (rank_ < num_valid) temp_storage_.items[run_slot(rank_)] = input;
        __syncthreads(where);
        if (rank_ >= kWarpThreads) return input;
        const int first = rank_ * kRunLength;
        const int end = std::min(first + kRunLength, num_valid);
        T partial = input;
        if (first < end) {
            partial = temp_storage_.items[run_slot(first)];
            for (int i = first + 1; i < end; ++i) partial = op(partial, temp_storage_.items[run_slot(i)]);
        }
        const int valid_runs = (num_valid + kRunLength - 1) / kRunLength;
        return detail::reduce_lanes<kWarpThreads>(partial, op, valid_runs, detail::kFullWarp, where);
    }
    // Where thread `rank`'s item lies in BLOCK_REDUCE_RAKING's runs.
    static constexpr int run_slot(int rank) { return rank / kRunLength * kRunStride + rank % kRunLength; }

    template <class Op>
    __device__ T reduce_raking_commutative(T input, Op op, int num_valid, Where where) {
        if (rank_ >= kWarpThreads && rank_ < num_valid) temp_storage_.items[rank_ - kWarpThreads] = input;
        __syncthreads(where);
        if (rank_ >= kWarpThreads) return input;
        // items[j] holds thread 32 + j's item. Lane l adds those of threads
        // l + 32, l + 64, ...: at each step the lanes read consecutive words,
        // which lie in different banks.
        T partial = input;
        for (int j = rank_; j < num_valid - kWarpThreads; j += kWarpThreads) {
            partial = op(partial, temp_storage_.items[j]);
        }
        return detail::reduce_lanes<kWarpThreads>(partial, op, std::min(num_valid, kWarpThreads),
                                                  detail::kFullWarp, where);
    }

    TempStorage& temp_storage_;
    // The calling thread's rank in the block (x fastest), from the block shape given as template arguments.
    const int rank_ = detail::block_rank<BLOCK_DIM_X, BLOCK_DIM_Y>();
};

}  // namespace cub
