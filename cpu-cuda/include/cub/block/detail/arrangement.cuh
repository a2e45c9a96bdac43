// What cub::BlockLoad, cub::BlockStore and their free functions share on
// warpdrill's CPU backend: where each thread's items lie in a block's tile of
// BLOCK_THREADS * ITEMS_PER_THREAD items, in each of the arrangements CUB's
// documentation names, and the exchange through shared memory that turns one
// arrangement into another. Written from CUB's documented API, not CUB's code.
#pragma once

#include <limits>
#include <type_traits>

#include "cub/warp/warp_reduce.cuh"

namespace cub {
namespace detail {

enum class Arrangement {
    // Thread t holds items t * ITEMS_PER_THREAD ... (t + 1) * ITEMS_PER_THREAD - 1.
    blocked,
    // Thread t holds items t, t + BLOCK_THREADS, t + 2 * BLOCK_THREADS, ...
    striped,
    // Each warp covers 32 * ITEMS_PER_THREAD consecutive items, striped across
    // its lanes: lane l of warp w holds w * 32 * ITEMS_PER_THREAD + l, then + 32, ...
    // (the last warp counts as whole even when the block ends inside it).
    warp_striped,
};

// Where item `item` of the thread of rank `rank` lies in the tile.
template <Arrangement kArrangement, int kBlockThreads, int kItemsPerThread>
constexpr int tile_offset(int rank, int item) {
    if constexpr (kArrangement == Arrangement::blocked) {
        return rank * kItemsPerThread + item;
    } else if constexpr (kArrangement == Arrangement::striped) {
        return item * kBlockThreads + rank;
    } else {
        const int warp = rank / kWarpThreads;
        const int lane = rank % kWarpThreads;
        return (warp * kItemsPerThread + item) * kWarpThreads + lane;
    }
}

// A count of valid items that never stops a load or store: the unguarded calls' bound.
constexpr int kAllItems = std::numeric_limits<int>::max();

// items[i] = tile[offset of item i] for the items whose offset is below valid_items.
template <Arrangement kArrangement, int kBlockThreads, class T, int kItemsPerThread, class InputIt>
__device__ void load_direct(int rank, InputIt tile, T (&items)[kItemsPerThread], int valid_items) {
    for (int i = 0; i < kItemsPerThread; ++i) {
        const int offset = tile_offset<kArrangement, kBlockThreads, kItemsPerThread>(rank, i);
        if (offset < valid_items) items[i] = tile[offset];
    }
}

// tile[offset of item i] = items[i] for the items whose offset is below valid_items.
template <Arrangement kArrangement, int kBlockThreads, class T, int kItemsPerThread, class OutputIt>
__device__ void store_direct(int rank, OutputIt tile, const T (&items)[kItemsPerThread], int valid_items) {
    for (int i = 0; i < kItemsPerThread; ++i) {
        const int offset = tile_offset<kArrangement, kBlockThreads, kItemsPerThread>(rank, i);
        if (offset < valid_items) tile[offset] = items[i];
    }
}

// Rearranges the threads' items from kFrom to kTo through `shared`, a tile
// in shared memory: each thread writes its items where kFrom puts them,
// waits (`wait`: __syncthreads, or __syncwarp where each warp's items stay
// within the warp), then reads the items kTo gives it.
template <Arrangement kFrom, Arrangement kTo, int kBlockThreads, class T, int kItemsPerThread, class Wait>
__device__ void exchange(T* shared, int rank, T (&items)[kItemsPerThread], Wait wait) {
    store_direct<kFrom, kBlockThreads>(rank, shared, items, kAllItems);
    wait();
    load_direct<kTo, kBlockThreads>(rank, shared, items, kAllItems);
}

// What cub::BlockLoad and cub::BlockStore (`Owner`) hold alike: the calling
// thread's rank in a block of BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z threads,
// and the shared memory their transposing algorithms exchange a tile through
// (the others use none). Without the caller's TempStorage, each Owner type has
// shared memory of its own, as in CUB.
template <class Owner, class T, int kItemsPerThread, int kBlockDimX, int kBlockDimY, int kBlockDimZ,
          bool kBlockTransposes, bool kWarpTransposes>
class BlockTile {
  public:
    static constexpr int kThreads = kBlockDimX * kBlockDimY * kBlockDimZ;
    static_assert(
        !kWarpTransposes || kThreads % kWarpThreads == 0,
        "cub::BlockLoad and cub::BlockStore: the WARP_TRANSPOSE algorithms need a block of whole warps");

  private:
    struct Tile {
        T items[kThreads * kItemsPerThread];
    };
    struct NoStorage {};

  public:
    using TempStorage = std::conditional_t<kBlockTransposes || kWarpTransposes, Tile, NoStorage>;

    __device__ BlockTile() : temp_storage_(private_storage()) {}
    __device__ explicit BlockTile(TempStorage& temp_storage) : temp_storage_(temp_storage) {}

    template <Arrangement kFrom, Arrangement kTo, class Wait>
    __device__ void exchange(T (&items)[kItemsPerThread], Wait wait) {
        detail::exchange<kFrom, kTo, kThreads>(temp_storage_.items, rank, items, wait);
    }

    // The calling thread's rank in the block (x fastest), from the block shape given as template arguments.
    const int rank = block_rank<kBlockDimX, kBlockDimY>();

  private:
    __device__ static TempStorage& private_storage() {
        __shared__ TempStorage storage;
        return storage;
    }

    TempStorage& temp_storage_;
};

}  // namespace detail
}  // namespace cub
