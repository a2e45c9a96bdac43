// <cub/block/block_load.cuh> on the CPU backend: cub::BlockLoad, its
// algorithms, and the free functions LoadDirectBlocked, LoadDirectStriped and
// LoadDirectWarpStriped, part of the subset of CUB that warpdrill's CPU
// backend provides, written for the backend from CUB's documented API (not
// CUB's code). Each thread ends with the items CUB's documentation gives it;
// the transposing algorithms read striped (coalesced on a GPU) and exchange
// the items through shared memory into the blocked arrangement.
#pragma once

#include <type_traits>

#include "cub/block/detail/arrangement.cuh"

namespace cub {

// Thread linear_tid's items of the tile at block_src_it, blocked: items
// linear_tid * ITEMS_PER_THREAD + i. With block_items_end, only the items
// before it are read (the others keep their value, or become oob_default).
template <typename T, int ITEMS_PER_THREAD, typename RandomAccessIterator>
__device__ void LoadDirectBlocked(int linear_tid, RandomAccessIterator block_src_it,
                                  T (&dst_items)[ITEMS_PER_THREAD], int block_items_end = detail::kAllItems) {
    detail::load_direct<detail::Arrangement::blocked, 1>(linear_tid, block_src_it, dst_items,
                                                         block_items_end);
}
template <typename T, typename DefaultT, int ITEMS_PER_THREAD, typename RandomAccessIterator>
__device__ void LoadDirectBlocked(int linear_tid, RandomAccessIterator block_src_it,
                                  T (&dst_items)[ITEMS_PER_THREAD], int block_items_end,
                                  DefaultT oob_default) {
    for (T& item : dst_items) item = oob_default;
    LoadDirectBlocked(linear_tid, block_src_it, dst_items, block_items_end);
}

// Striped: items linear_tid + i * BLOCK_THREADS.
template <int BLOCK_THREADS, typename T, int ITEMS_PER_THREAD, typename RandomAccessIterator>
__device__ void LoadDirectStriped(int linear_tid, RandomAccessIterator block_src_it,
                                  T (&dst_items)[ITEMS_PER_THREAD], int block_items_end = detail::kAllItems) {
    detail::load_direct<detail::Arrangement::striped, BLOCK_THREADS>(linear_tid, block_src_it, dst_items,
                                                                     block_items_end);
}
template <int BLOCK_THREADS, typename T, typename DefaultT, int ITEMS_PER_THREAD,
          typename RandomAccessIterator>
__device__ void LoadDirectStriped(int linear_tid, RandomAccessIterator block_src_it,
                                  T (&dst_items)[ITEMS_PER_THREAD], int block_items_end,
                                  DefaultT oob_default) {
    for (T& item : dst_items) item = oob_default;
    LoadDirectStriped<BLOCK_THREADS>(linear_tid, block_src_it, dst_items, block_items_end);
}

// Warp-striped: lane l of warp w reads w * 32 * ITEMS_PER_THREAD + l + i * 32.
template <typename T, int ITEMS_PER_THREAD, typename RandomAccessIterator>
__device__ void LoadDirectWarpStriped(int linear_tid, RandomAccessIterator block_src_it,
                                      T (&dst_items)[ITEMS_PER_THREAD],
                                      int block_items_end = detail::kAllItems) {
    detail::load_direct<detail::Arrangement::warp_striped, 1>(linear_tid, block_src_it, dst_items,
                                                              block_items_end);
}
template <typename T, typename DefaultT, int ITEMS_PER_THREAD, typename RandomAccessIterator>
__device__ void LoadDirectWarpStriped(int linear_tid, RandomAccessIterator block_src_it,
                                      T (&dst_items)[ITEMS_PER_THREAD], int block_items_end,
                                      DefaultT oob_default) {
    for (T& item : dst_items) item = oob_default;
    LoadDirectWarpStriped(linear_tid, block_src_it, dst_items, block_items_end);
}

enum BlockLoadAlgorithm {
    // Each thread reads its blocked items itself.
    BLOCK_LOAD_DIRECT,
    // Each thread reads its striped items: the result is striped.
    BLOCK_LOAD_STRIPED,
    // Blocked, read as vectors on a GPU where it can; here as BLOCK_LOAD_DIRECT.
    BLOCK_LOAD_VECTORIZE,
    // Reads striped, then exchanges through shared memory (one __syncthreads) into blocked.
    BLOCK_LOAD_TRANSPOSE,
    // Reads warp-striped, then each warp exchanges its own items (one __syncwarp) into blocked.
    BLOCK_LOAD_WARP_TRANSPOSE,
};

// Loads a tile of BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z * ITEMS_PER_THREAD
// items into the block's threads (rank x fastest). Every thread of the block
// must call. A later call that reuses the same TempStorage needs a
// __syncthreads() in between, as with CUB.
template <typename T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, BlockLoadAlgorithm ALGORITHM = BLOCK_LOAD_DIRECT,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1>
class BlockLoad {
    using Where = detail::Where;
    using Arrangement = detail::Arrangement;
    using Tile = detail::BlockTile<BlockLoad, T, ITEMS_PER_THREAD, BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z,
                                   ALGORITHM == BLOCK_LOAD_TRANSPOSE, ALGORITHM == BLOCK_LOAD_WARP_TRANSPOSE>;
    static constexpr int kThreads = Tile::kThreads;

  public:
    // Only the transposing algorithms use shared memory: the whole tile.
    using TempStorage = typename Tile::TempStorage;

    // Uses shared memory of its own (one per BlockLoad type) instead of the caller's.
    __device__ BlockLoad() = default;
    __device__ BlockLoad(TempStorage& temp_storage) : tile_(temp_storage) {}

    template <typename RandomAccessIterator>
    __device__ void Load(RandomAccessIterator block_src_it, T (&dst_items)[ITEMS_PER_THREAD],
                         Where where = Where::current()) {
        Load(block_src_it, dst_items, detail::kAllItems, where);
    }
    // Reads only the tile's first block_items_end items; a thread's other items
    // keep their value (in the transposing algorithms: an unspecified one).
    template <typename RandomAccessIterator>
    __device__ void Load(RandomAccessIterator block_src_it, T (&dst_items)[ITEMS_PER_THREAD],
                         int block_items_end, Where where = Where::current()) {
        if constexpr (ALGORITHM == BLOCK_LOAD_STRIPED) {
            LoadDirectStriped<kThreads>(tile_.rank, block_src_it, dst_items, block_items_end);
        } else if constexpr (ALGORITHM == BLOCK_LOAD_TRANSPOSE) {
            LoadDirectStriped<kThreads>(tile_.rank, block_src_it, dst_items, block_items_end);
            exchange<Arrangement::striped>(dst_items, [where] { __syncthreads(where); });
        } else if constexpr (ALGORITHM == BLOCK_LOAD_WARP_TRANSPOSE) {
            LoadDirectWarpStriped(tile_.rank, block_src_it, dst_items, block_items_end);
            exchange<Arrangement::warp_striped>(dst_items, [where] { __syncwarp(detail::kFullWarp, where); });
        } else {
            LoadDirectBlocked(tile_.rank, block_src_it, dst_items, block_items_end);
        }
    }
    // As above, and the items past block_items_end become oob_default.
    template <typename RandomAccessIterator, typename DefaultT>
    __device__ void Load(RandomAccessIterator block_src_it, T (&dst_items)[ITEMS_PER_THREAD],
                         int block_items_end, DefaultT oob_default, Where where = Where::current()) {
        for (T& item : dst_items) item = oob_default;
        Load(block_src_it, dst_items, block_items_end, where);
    }

  private:
    // From the arrangement the items were read in to the blocked one.
    template <Arrangement kFrom, class Wait>
    __device__ void exchange(T (&items)[ITEMS_PER_THREAD], Wait wait) {
        tile_.template exchange<kFrom, Arrangement::blocked>(items, wait);
    }

    Tile tile_;
};

}  // namespace cub
