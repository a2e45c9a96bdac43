// <cub/warp/warp_reduce.cuh> on the CPU backend: cub::WarpReduce, part of the
// subset of CUB that warpdrill's CPU backend provides, written for the
// backend from CUB's documented API (not CUB's code), its segmented
// reductions included. A warp reduces with __shfl_down_sync, so TempStorage
// is empty. Also the warp step that cub::BlockReduce shares
// (cub::detail::reduce_lanes), and what cub::WarpScan shares with it.
//
// Every call takes the caller's source location, as the backend's intrinsics
// do, so that a mistake (a call that only part of a warp or block reaches) is
// reported at the line that made the call, not inside this header.
#pragma once

#include <cuda_runtime.h>

#include <bit>
#include <cstddef>
#include <cstring>
#include <source_location>
#include <type_traits>

// What CUB's headers bring with them: the operators and numeric_limits.
#include <cuda/functional>
#include <cuda/std/limits>

namespace cub {
namespace detail {

using Where = std::source_location;

// CUB's warps are 32 threads at compile time (warpSize is not a constant).
constexpr int kWarpThreads = 32;

// A logical warp's size that CUB allows: a power of two up to 32.
constexpr bool is_logical_warp_size(int threads) {
    return threads <= kWarpThreads && std::has_single_bit(static_cast<unsigned>(threads));
}

// An item moved by a shuffle as CUB moves one: whole where one shuffle takes
// it (8 bytes), otherwise one 32-bit word after another. `shuffle` is the
// shuffle, of any type, with its lanes, offset and width bound.
template <class T, class Shuffle>
__device__ T shuffle_item(const T& item, Shuffle shuffle) {
    static_assert(
        std::is_trivially_copyable_v<T>,
        "cub's warp and block collectives on warpdrill's CPU backend: the item type must be trivially "
        "copyable, as CUB shuffles its bytes");
    if constexpr (sizeof(T) <= 8) {
        return shuffle(item);
    } else {
        constexpr std::size_t kWords = (sizeof(T) + 3) / 4;
        unsigned words[kWords] = {};
        std::memcpy(words, &item, sizeof(T));
        for (unsigned& word : words) word = shuffle(word);
        T moved;
        std::memcpy(&moved, words, sizeof(T));
        return moved;
    }
}

// The calling thread's rank in its block, x fastest, as the GPU numbers the
// threads when it forms warps: lane = rank % 32.
__device__ inline int block_rank() {
    return static_cast<int>(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z));
}
// The same rank from the block shape that a block class takes as template
// arguments (BLOCK_DIM_X, BLOCK_DIM_Y) rather than from blockDim.
template <int kBlockDimX, int kBlockDimY>
__device__ int block_rank() {
    return static_cast<int>(threadIdx.x + kBlockDimX * (threadIdx.y + kBlockDimY * threadIdx.z));
}

constexpr unsigned kFullWarp = 0xffffffffu;
// The mask of lanes 0 .. lanes-1.
constexpr unsigned first_lanes(int lanes) { return lanes >= kWarpThreads ? kFullWarp : (1u << lanes) - 1; }

// The lanes of the calling thread's logical warp of kWidth lanes.
template <int kWidth>
__device__ unsigned logical_warp_mask() {
    const int first_lane = block_rank() % kWarpThreads / kWidth * kWidth;
    return first_lanes(kWidth) << first_lane;
}

// Reduces `value` over the first `valid_lanes` lanes of a logical warp of
// kWidth lanes, whose lanes are `mask`: every lane of the mask must call it.
// The result is valid in the logical warp's first lane. The offsets grow
// (1, 2, 4, ...): after the step with offset o, a lane whose index is a
// multiple of 2o holds op over the next 2o lanes in order, so `op` need not
// be commutative.
template <int kWidth, class T, class Op>
__device__ T reduce_lanes(T value, Op op, int valid_lanes, unsigned mask, Where where) {
    const int lane = block_rank() % kWidth;
    for (int offset = 1; offset < kWidth; offset *= 2) {
        const bool has_partner = lane + offset < valid_lanes;
        // A lane without a partner shifts by 0 and gets its own value back:
        // no lane reads one past the valid ones, which may not exist.
        const int delta = has_partner ? offset : 0;
        const T partner = shuffle_item(
            value, [&](auto part) { return __shfl_down_sync(mask, part, delta, kWidth, where); });
        if (has_partner) value = op(value, partner);
    }
    return value;
}

// Reduces `value` over its segment's lanes from the calling lane on, in a
// logical warp of kWidth lanes whose lanes are `mask` (every lane of it must
// call); a segment starts at lane 0 and at each other lane whose `starts`
// is set.
// Valid in each segment's first lane. After the step with offset o, lane l
// holds op over lanes [l, l + 2o) of its segment, in order: its partner
// l + o, when in the segment, is in the same one, so it holds [l + o, l + 2o).
template <int kWidth, class T, class Op>
__device__ T reduce_segment_lanes(T value, bool starts, Op op, unsigned mask, Where where) {
    const int lane = block_rank() % kWidth;
    const int first_lane = block_rank() % kWarpThreads - lane;  // the logical warp's, in the warp
    const unsigned starting = (__ballot_sync(mask, starts, where) >> first_lane) & first_lanes(kWidth);
    const unsigned starting_later = starting & ~first_lanes(lane + 1);
    const int segment_end = starting_later ? std::countr_zero(starting_later) : kWidth;
    for (int offset = 1; offset < kWidth; offset *= 2) {
        const bool has_partner = lane + offset < segment_end;
        const int delta = has_partner ? offset : 0;
        const T partner = shuffle_item(
            value, [&](auto part) { return __shfl_down_sync(mask, part, delta, kWidth, where); });
        if (has_partner) value = op(value, partner);
    }
    return value;
}

}  // namespace detail

// The reduction of a logical warp of LOGICAL_WARP_THREADS threads (a power of
// two up to 32; a warp holds 32 / LOGICAL_WARP_THREADS of them). Every thread
// of a logical warp must call; the result is valid in its first lane only.
template <typename T, int LOGICAL_WARP_THREADS = detail::kWarpThreads>
class WarpReduce {
    static_assert(
        detail::is_logical_warp_size(LOGICAL_WARP_THREADS),
        "cub::WarpReduce on warpdrill's CPU backend: LOGICAL_WARP_THREADS must be 1, 2, 4, 8, 16 or 32");
    using Where = detail::Where;

  public:
    // Shuffles need no shared memory.
    struct TempStorage {};

    __device__ WarpReduce(TempStorage& /*temp_storage*/) {}

    __device__ T Sum(T input, Where where = Where::current()) {
        return Reduce(input, ::cuda::std::plus<>{}, LOGICAL_WARP_THREADS, where);
    }
    // Only the first valid_items lanes' inputs count; every lane must pass the same valid_items.
    __device__ T Sum(T input, int valid_items, Where where = Where::current()) {
        return Reduce(input, ::cuda::std::plus<>{}, valid_items, where);
    }
    template <typename ReductionOp>
    __device__ T Reduce(T input, ReductionOp reduction_op, Where where = Where::current()) {
        return Reduce(input, reduction_op, LOGICAL_WARP_THREADS, where);
    }
    template <typename ReductionOp>
    __device__ T Reduce(T input, ReductionOp reduction_op, int valid_items, Where where = Where::current()) {
        return detail::reduce_lanes<LOGICAL_WARP_THREADS>(
            input, reduction_op, valid_items, detail::logical_warp_mask<LOGICAL_WARP_THREADS>(), where);
    }

    // Segmented reductions: a segment starts at lane 0 and at each lane
    // whose head flag is set, or after each lane whose tail flag is set. The
    // result is valid in each segment's first lane only.
    template <typename FlagT>
    __device__ T HeadSegmentedSum(T input, FlagT head_flag, Where where = Where::current()) {
        return HeadSegmentedReduce(input, head_flag, ::cuda::std::plus<>{}, where);
    }
    template <typename FlagT>
    __device__ T TailSegmentedSum(T input, FlagT tail_flag, Where where = Where::current()) {
        return TailSegmentedReduce(input, tail_flag, ::cuda::std::plus<>{}, where);
    }
    template <typename ReductionOp, typename FlagT>
    __device__ T HeadSegmentedReduce(T input, FlagT head_flag, ReductionOp reduction_op,
                                     Where where = Where::current()) {
        return detail::reduce_segment_lanes<LOGICAL_WARP_THREADS>(
            input, static_cast<bool>(head_flag), reduction_op,
            detail::logical_warp_mask<LOGICAL_WARP_THREADS>(), where);
    }
    template <typename ReductionOp, typename FlagT>
    __device__ T TailSegmentedReduce(T input, FlagT tail_flag, ReductionOp reduction_op,
                                     Where where = Where::current()) {
        const unsigned mask = detail::logical_warp_mask<LOGICAL_WARP_THREADS>();
        // A lane starts a segment where the lane before it ends one (lane 0
        // gets its own flag back, which reduce_segment_lanes never reads).
        const bool after_tail = __shfl_up_sync(mask, static_cast<int>(static_cast<bool>(tail_flag)), 1,
                                               LOGICAL_WARP_THREADS, where) != 0;
        return detail::reduce_segment_lanes<LOGICAL_WARP_THREADS>(input, after_tail, reduction_op, mask,
                                                                  where);
    }
};

}  // namespace cub
