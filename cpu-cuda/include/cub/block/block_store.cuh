// <cub/block/block_store.cuh> on the CPU backend: cub::BlockStore, its
// algorithms, and the free functions StoreDirectBlocked, StoreDirectStriped
// and StoreDirectWarpStriped, part of the subset of CUB that warpdrill's CPU
// backend provides, written for the backend from CUB's documented API (not
// CUB's code). The mirror of <cub/block/block_load.cuh>: the transposing
// algorithms take the blocked arrangement, exchange it through shared memory
// and write striped (coalesced on a GPU).
#pragma once

#include <type_traits>

#include "cub/block/detail/arrangement.cuh"

namespace cub {

// Writes thread linear_tid's items to the tile at block_itr, blocked: items
// linear_tid * ITEMS_PER_THREAD + i. With valid_items, only the tile's first
// valid_items items are written.
template <typename T, int ITEMS_PER_THREAD, typename OutputIteratorT>
__device__ void StoreDirectBlocked(int linear_tid, OutputIteratorT block_itr, T (&items)[ITEMS_PER_THREAD],
                                   int valid_items = detail::kAllItems) {
    detail::store_direct<detail::Arrangement::blocked, 1>(linear_tid, block_itr, items, valid_items);
}

// Striped: items linear_tid + i * BLOCK_THREADS.
template <int BLOCK_THREADS, typename T, int ITEMS_PER_THREAD, typename OutputIteratorT>
__device__ void StoreDirectStriped(int linear_tid, OutputIteratorT block_itr, T (&items)[ITEMS_PER_THREAD],
                                   int valid_items = detail::kAllItems) {
    detail::store_direct<detail::Arrangement::striped, BLOCK_THREADS>(linear_tid, block_itr, items,
                                                                      valid_items);
}

// Warp-striped: lane l of warp w writes w * 32 * ITEMS_PER_THREAD + l + i * 32.
template <typename T, int ITEMS_PER_THREAD, typename OutputIteratorT>
__device__ void StoreDirectWarpStriped(int linear_tid, OutputIteratorT block_itr,
                                       T (&items)[ITEMS_PER_THREAD], int valid_items = detail::kAllItems) {
    detail::store_direct<detail::Arrangement::warp_striped, 1>(linear_tid, block_itr, items, valid_items);
}

enum BlockStoreAlgorithm {
    // Each thread writes its blocked items itself.
    BLOCK_STORE_DIRECT,
    // The threads hold striped items, and each writes its own.
    BLOCK_STORE_STRIPED,
    // Blocked, written as vectors on a GPU where it can; here as BLOCK_STORE_DIRECT.
    BLOCK_STORE_VECTORIZE,
    // Exchanges the blocked items through shared memory (one __syncthreads) into striped, then writes them.
    BLOCK_STORE_TRANSPOSE,
    // Each warp exchanges its blocked items (one __syncwarp) into warp-striped, then writes them.
    BLOCK_STORE_WARP_TRANSPOSE,
};

// Stores a tile of BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z * ITEMS_PER_THREAD
// items from the block's threads (rank x fastest). Every thread of the block
// must call. The transposing algorithms leave the caller's items array in the
// arrangement they wrote it in. A later call that reuses the same TempStorage
// needs a __syncthreads() in between, as with CUB.
template <typename T, int BLOCK_DIM_X, int ITEMS_PER_THREAD,
          BlockStoreAlgorithm ALGORITHM = BLOCK_STORE_DIRECT, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1>
class BlockStore {
    using Where = detail::Where;
    using Arrangement = detail::Arrangement;
    using Tile =
        detail::BlockTile<BlockStore, T, ITEMS_PER_THREAD, BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z,
                          ALGORITHM == BLOCK_STORE_TRANSPOSE, ALGORITHM == BLOCK_STORE_WARP_TRANSPOSE>;
    static constexpr int kThreads = Tile::kThreads;

  public:
    // Only the transposing algorithms use shared memory: the whole tile.
    using TempStorage = typename Tile::TempStorage;

    // Uses shared memory of its own (one per BlockStore type) instead of the caller's.
    __device__ BlockStore() = default;
    __device__ BlockStore(TempStorage& temp_storage) : tile_(temp_storage) {}

    template <typename OutputIteratorT>
    __device__ void Store(OutputIteratorT block_itr, T (&items)[ITEMS_PER_THREAD],
                          Where where = Where::current()) {
        Store(block_itr, items, detail::kAllItems, where);
    }
    // Writes only the tile's first valid_items items.
    template <typename OutputIteratorT>
    __device__ void Store(OutputIteratorT block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items,
                          Where where = Where::current()) {
        if constexpr (ALGORITHM == BLOCK_STORE_STRIPED) {
            StoreDirectStriped<kThreads>(tile_.rank, block_itr, items, valid_items);
        } else if constexpr (ALGORITHM == BLOCK_STORE_TRANSPOSE) {
            exchange<Arrangement::striped>(items, [where] { __syncthreads(where); });
            StoreDirectStriped<kThreads>(tile_.rank, block_itr, items, valid_items);
        } else if constexpr (ALGORITHM == BLOCK_STORE_WARP_TRANSPOSE) {
            exchange<Arrangement::warp_striped>(items, [where] { __syncwarp(detail::kFullWarp, where); });
            StoreDirectWarpStriped(tile_.rank, block_itr, items, valid_items);
        } else {
            StoreDirectBlocked(tile_.rank, block_itr, items, valid_items);
        }
    }

  private:
    // From the blocked arrangement to the one the items are written in.
    template <Arrangement kTo, class Wait>
    __device__ void exchange(T (&items)[ITEMS_PER_THREAD], Wait wait) {
        tile_.template exchange<Arrangement::blocked, kTo>(items, wait);
    }

    Tile tile_;
};

}  // namespace cub
