// The kernels and steps behind cub::DeviceScan on the CPU backend
// (device_scan.cuh says how it scans). Internal: programs include
// <cub/device/device_scan.cuh> or <cub/cub.cuh>.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <type_traits>

#include "cub/block/block_scan.cuh"
#include "cub/device/detail/reduce.cuh"

namespace cub {
namespace detail {

// What a scan accumulates in: what op(init, item) returns, or op(item, item) without an init.
template <class Op, class InputIt, class Init = iterator_value_t<InputIt>>
using scan_accumulator_t = std::decay_t<std::invoke_result_t<Op&, Init, iterator_value_t<InputIt>>>;

// Where the scan's two passes over the tiles meet: each tile's total, then
// each tile's prefix (the combination of the init, if any, and the totals
// of the tiles before it).
template <class Accum>
struct TileSums {
    Accum* totals;
    Accum* prefixes;
};

// Block b writes the reduction of tile b, in order, to tiles.totals[b].
template <class Accum, class InputIt, class Op>
__global__ void reduce_tiles(InputIt in, std::int64_t n, TileSums<Accum> tiles, Op op) {
    const std::int64_t first = std::int64_t{blockIdx.x} * kReduceThreads;
    const Accum total =
        reduce_range<Accum>(in, first, std::min(first + kReduceThreads, n), kReduceThreads, op);
    if (threadIdx.x == 0) tiles.totals[blockIdx.x] = total;
}

// One block: prefixes[t] = the combination of `init` (where there is one)
// and totals[0, t), a block's worth of tiles at a time, for tiles 1 on and,
// with an init, tile 0.
template <class Accum, class Op>
__global__ void scan_tile_totals(TileSums<Accum> tiles, int count, Op op, std::optional<Accum> init) {
    using BlockScan = cub::BlockScan<Accum, kReduceThreads>;
    __shared__ typename BlockScan::TempStorage temp_storage;
    if (threadIdx.x == 0 && init) tiles.prefixes[0] = *init;
    std::optional<Accum> carry = init;  // the combination of everything before this round's tiles
    for (int round = 0; round < count; round += kReduceThreads) {
        const int tile = round + threadIdx.x;
        Accum through_tile{}, round_total{};
        BlockScan(temp_storage)
            .InclusiveScan(tiles.totals[tile < count ? tile : round], through_tile, op, round_total);
        if (tile + 1 < count) tiles.prefixes[tile + 1] = carry ? op(*carry, through_tile) : through_tile;
        carry = carry ? op(*carry, round_total) : round_total;
        __syncthreads();  // the temporary storage is used again
    }
}

// Block b scans tile b from its prefix: out[i] = the combination of the
// prefix and in[tile's first, i], or (exclusive) in[tile's first, i).
template <bool kExclusive, class Accum, class InputIt, class OutputIt, class Op>
__global__ void scan_tiles(InputIt in, OutputIt out, std::int64_t n, TileSums<Accum> tiles, Op op,
                           bool seeded) {
    using BlockScan = cub::BlockScan<Accum, kReduceThreads>;
    __shared__ typename BlockScan::TempStorage temp_storage;
    const std::int64_t first = std::int64_t{blockIdx.x} * kReduceThreads;
    const std::int64_t i = first + threadIdx.x;
    // A thread past the end scans a copy of the tile's first item: its
    // result, which no one keeps, is the only one it changes.
    const Accum item = in[i < n ? i : first];
    Accum result{};
    if constexpr (kExclusive) {
        BlockScan(temp_storage).ExclusiveScan(item, result, tiles.prefixes[blockIdx.x], op);
    } else {
        BlockScan(temp_storage).InclusiveScan(item, result, op);
        if (blockIdx.x > 0 || seeded) result = op(tiles.prefixes[blockIdx.x], result);
    }
    if (i < n) out[i] = result;
}

// CUB's protocol: with no temporary storage, only say how much it takes.
// An exclusive scan always has an init; an inclusive one may.
template <bool kExclusive, class Accum, class InputIt, class OutputIt, class Op>
cudaError_t scan(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in, OutputIt d_out,
                 std::int64_t n, Op op, std::optional<Accum> init, cudaStream_t stream) {
    const std::int64_t count = (n + kReduceThreads - 1) / kReduceThreads;
    // Never 0 bytes: a 0-byte cudaMalloc may give nullptr, and a call given
    // nullptr only asks for the size again.
    const std::size_t bytes_needed = std::max<std::size_t>(2 * count * sizeof(Accum), 1);
    if (d_temp_storage == nullptr) {
        temp_storage_bytes = bytes_needed;
        return cudaSuccess;
    }
    if (temp_storage_bytes < bytes_needed) return cudaErrorInvalidValue;
    if (n == 0) return cudaSuccess;
    const TileSums<Accum> tiles{static_cast<Accum*>(d_temp_storage),
                                static_cast<Accum*>(d_temp_storage) + count};
    const auto blocks = static_cast<unsigned>(count);
    reduce_tiles<<<blocks, kReduceThreads, 0, stream>>>(d_in, n, tiles, op);
    if (const cudaError_t error = cudaPeekAtLastError(); error != cudaSuccess) return error;
    scan_tile_totals<<<1, kReduceThreads, 0, stream>>>(tiles, static_cast<int>(count), op, init);
    if (const cudaError_t error = cudaPeekAtLastError(); error != cudaSuccess) return error;
    scan_tiles<kExclusive>
        <<<blocks, kReduceThreads, 0, stream>>>(d_in, d_out, n, tiles, op, init.has_value());
    return cudaPeekAtLastError();
}

}  // namespace detail
}  // namespace cub
