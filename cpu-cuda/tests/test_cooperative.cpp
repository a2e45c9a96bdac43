// Cooperative groups, cooperative and cluster launches on the CPU backend:
// tiles and their shuffles, the integer warp reductions, grid and cluster
// barriers, distributed shared memory, and what the backend says when a
// kernel breaks their rules.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include <chrono>
#include <cstdlib>
#include <numeric>
#include <string>
#include <vector>

#include "fault_of.h"
#include "warpdrill/catch.h"
#include "warpdrill/cuda.h"
#include "warpdrill/host.h"

namespace cg = cooperative_groups;
using warpdrill::check_cuda;
using warpdrill::check_launch;
using warpdrill::DeviceBuffer;
using warpdrill::testing::contains;
using warpdrill::testing::expect_says;
using warpdrill::testing::fault_of;
using warpdrill::testing::launch_clusters;

namespace {

constexpr unsigned kFull = 0xffffffffu;

template <class... Params, class... Args>
cudaError_t launch_cooperative(void (*kernel)(Params...), unsigned blocks, unsigned threads, Args... args) {
    void* pointers[] = {&args...};
    return cudaLaunchCooperativeKernel(kernel, dim3(blocks), dim3(threads), pointers);
}

__global__ void all_blocks_see_all(unsigned* slots, unsigned* seen);

// A tile of 32 of a block of 4 threads, as NVIDIA's reduction sample makes
// one for its last pass: shuffles within the 4 threads are defined; the
// tree from offset 16 reads lanes the tile does not have.
__global__ void warp_tile_of_four_threads(int* out, int tree) {
    const cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
    int value = tile.shfl_xor(static_cast<int>(threadIdx.x), 1);
    for (unsigned offset = tile.size() / 2; tree && offset > 0; offset /= 2) value += tile.shfl_down(value, offset);
    out[threadIdx.x] = value;
}

// How many blocks of `threads` a cooperative launch may have.
int resident_blocks(unsigned threads) {
    int per_sm = 0;
    cudaDeviceProp prop{};
    check_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, all_blocks_see_all, threads, 0));
    check_cuda(cudaGetDeviceProperties(&prop, 0));
    return per_sm * prop.multiProcessorCount;
}

// ---- correct kernels ---------------------------------------------------------------------

// Per thread: its rank in a tile of kSize, the tile's rank, the tile count,
// the sum and the maximum over the tile, the value of the tile's next
// thread (shfl_down), of rank 0 (shfl) and the tile's ballot of odd values.
constexpr int kTileFields = 8;
template <unsigned kSize>
__global__ void tile_facts(const int* in, int* out) {
    const cg::thread_block block = cg::this_thread_block();
    const cg::thread_block_tile<kSize> tile = cg::tiled_partition<kSize>(block);
    const int value = in[block.thread_rank()];
    int* mine = out + block.thread_rank() * kTileFields;
    mine[0] = static_cast<int>(tile.thread_rank());
    mine[1] = static_cast<int>(tile.meta_group_rank());
    mine[2] = static_cast<int>(tile.meta_group_size());
    mine[3] = cg::reduce(tile, value, cg::plus<int>());
    mine[4] = cg::reduce(tile, value, cg::greater<int>());
    mine[5] = tile.shfl_down(value, 1);
    mine[6] = tile.shfl(value, 0);
    mine[7] = static_cast<int>(tile.ballot(value % 2 != 0));
}

template <unsigned kSize>
void check_tile_facts() {
    constexpr int kThreads = 96;
    std::vector<int> in(kThreads);
    for (int t = 0; t < kThreads; ++t) in[t] = (t * 37) % 101 - 50;
    DeviceBuffer<int> d_in{std::span<const int>(in)};
    DeviceBuffer<int> out(kThreads * kTileFields);
    warpdrill::poison(out);
    warpdrill::launch(tile_facts<kSize>, {1, kThreads}, d_in.data(), out.data());
    check_launch();
    const std::vector<int> got = out.download();
    for (int t = 0; t < kThreads; ++t) {
        INFO("tile of " << kSize << ", thread " << t);
        const int first = t / static_cast<int>(kSize) * static_cast<int>(kSize);
        int sum = 0, max = in[first];
        unsigned odd = 0;
        for (int k = 0; k < static_cast<int>(kSize); ++k) {
            sum += in[first + k];
            max = std::max(max, in[first + k]);
            if (in[first + k] % 2 != 0) odd |= 1u << k;
        }
        const int* mine = &got[t * kTileFields];
        CHECK(mine[0] == t % static_cast<int>(kSize));
        CHECK(mine[1] == t / static_cast<int>(kSize));
        CHECK(mine[2] == kThreads / static_cast<int>(kSize));
        CHECK(mine[3] == sum);
        CHECK(mine[4] == max);
        CHECK(mine[5] == (t - first + 1 < static_cast<int>(kSize) ? in[t + 1] : in[t]));
        CHECK(mine[6] == in[first]);
        CHECK(static_cast<unsigned>(mine[7]) == odd);
    }
}

__global__ void warp_reductions(const int* in, int* sums, int* minima, int* maxima, unsigned* unsigned_sums,
                                int* half_sums) {
    const unsigned t = threadIdx.x;
    sums[t] = __reduce_add_sync(kFull, in[t]);
    minima[t] = __reduce_min_sync(kFull, in[t]);
    maxima[t] = __reduce_max_sync(kFull, in[t]);
    unsigned_sums[t] = __reduce_max_sync(kFull, static_cast<unsigned>(in[t]));
    if (t % 32 < 16) half_sums[t] = __reduce_add_sync(0x0000ffffu, in[t]);
}

// Each block writes its number, the grid meets, and every block then reads
// every other block's: three times, so that the barrier is reused.
__global__ void all_blocks_see_all(unsigned* slots, unsigned* seen) {
    const cg::grid_group grid = cg::this_grid();
    for (unsigned round = 1; round <= 3; ++round) {
        if (threadIdx.x == 0) slots[blockIdx.x] = round * 1000 + blockIdx.x;
        grid.sync();
        unsigned total = 0;
        for (unsigned b = 0; b < gridDim.x; ++b) total += slots[b];
        if (threadIdx.x == 0) seen[blockIdx.x * 3 + round - 1] = total;
        grid.sync();
    }
}

__global__ void grid_ranks(unsigned long long* ranks, unsigned long long* sizes) {
    const cg::grid_group grid = cg::this_grid();
    ranks[grid.thread_rank()] = grid.thread_rank();
    sizes[grid.thread_rank()] = grid.num_threads();
}

// Each block of a cluster keeps its number in static and dynamic shared
// memory; every thread then reads the next block's through the cluster.
__global__ void read_next_block(unsigned* out) {
    __shared__ unsigned mine;
    WARPDRILL_DYNAMIC_SHARED(unsigned, dynamic_mine);
    const cg::cluster_group cluster = cg::this_cluster();
    if (threadIdx.x == 0) {
        mine = blockIdx.x;
        dynamic_mine[3] = 100 + blockIdx.x;
    }
    cluster.sync();
    const int next = static_cast<int>((cluster.block_rank() + 1) % cluster.num_blocks());
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    out[2 * t] = *cluster.map_shared_rank(&mine, next);
    out[2 * t + 1] = cluster.map_shared_rank(dynamic_mine, next)[3];
    cluster.sync();
}

// Clusters and the grid together: each cluster's rank 0 adds its blocks'
// numbers through distributed shared memory, then block 0 adds the clusters'.
__global__ void cluster_then_grid(unsigned* cluster_sums, unsigned* total) {
    __shared__ unsigned number;
    const cg::grid_group grid = cg::this_grid();
    const cg::cluster_group cluster = cg::this_cluster();
    if (threadIdx.x == 0) number = blockIdx.x;
    cluster.sync();
    if (cluster.block_rank() == 0 && threadIdx.x == 0) {
        unsigned sum = 0;
        for (unsigned r = 0; r < cluster.num_blocks(); ++r)
            sum += *cluster.map_shared_rank(&number, static_cast<int>(r));
        cluster_sums[blockIdx.x / cluster.num_blocks()] = sum;
    }
    cluster.sync();
    grid.sync();
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        unsigned sum = 0;
        for (unsigned c = 0; c < gridDim.x / cluster.num_blocks(); ++c) sum += cluster_sums[c];
        *total = sum;
    }
}

}  // namespace

TEST_CASE("thread_block_tile: ranks, shuffles, ballot and cg::reduce for every tile size",
          "[backend][groups]") {
    check_tile_facts<1>();
    check_tile_facts<2>();
    check_tile_facts<4>();
    check_tile_facts<8>();
    check_tile_facts<16>();
    check_tile_facts<32>();
}

TEST_CASE("a tile of 32 of a smaller block is partial: its missing lanes count as exited",
          "[backend][groups][diagnostics]") {
    DeviceBuffer<int> out(4);
    warpdrill::poison(out);
    warpdrill::launch(warp_tile_of_four_threads, {1, 4}, out.data(), 0);
    check_launch();
    CHECK(out.download() == std::vector<int>{1, 0, 3, 2});
    const std::string message = fault_of([&] { warpdrill::launch(warp_tile_of_four_threads, {1, 4}, out.data(), 1); });
    expect_says(message, {"so it reads lane 16, which does not exist (the block has 4 threads"});
}

TEST_CASE("__reduce_add_sync, __reduce_min_sync and __reduce_max_sync", "[backend][groups]") {
    constexpr int kThreads = 64;
    std::vector<int> in(kThreads);
    for (int t = 0; t < kThreads; ++t) in[t] = (t * 7919) % 2001 - 1000;
    DeviceBuffer<int> d_in{std::span<const int>(in)};
    DeviceBuffer<int> sums(kThreads), minima(kThreads), maxima(kThreads), half_sums(kThreads);
    DeviceBuffer<unsigned> unsigned_maxima(kThreads);
    warpdrill::poison(sums, minima, maxima, half_sums, unsigned_maxima);
    warpdrill::launch(warp_reductions, {1, kThreads}, d_in.data(), sums.data(), minima.data(), maxima.data(),
                      unsigned_maxima.data(), half_sums.data());
    check_launch();
    for (int warp = 0; warp < 2; ++warp) {
        const auto first = in.begin() + warp * 32;
        INFO("warp " << warp);
        CHECK(sums.download()[warp * 32 + 5] == std::accumulate(first, first + 32, 0));
        CHECK(minima.download()[warp * 32 + 31] == *std::min_element(first, first + 32));
        CHECK(maxima.download()[warp * 32] == *std::max_element(first, first + 32));
        unsigned unsigned_max = 0;
        for (auto v = first; v != first + 32; ++v)
            unsigned_max = std::max(unsigned_max, static_cast<unsigned>(*v));
        CHECK(unsigned_maxima.download()[warp * 32 + 9] == unsigned_max);
        CHECK(half_sums.download()[warp * 32 + 15] == std::accumulate(first, first + 16, 0));
    }
    CHECK(warpdrill::cpu::last_launch_stats().warp_reductions == 2 * 5);
}

TEST_CASE("a cooperative launch: every block sees every block's writes after grid.sync()",
          "[backend][groups]") {
    const unsigned blocks = static_cast<unsigned>(resident_blocks(64));
    DeviceBuffer<unsigned> slots(blocks), seen(3 * blocks);
    warpdrill::poison(seen);
    check_cuda(launch_cooperative(all_blocks_see_all, blocks, 64, slots.data(), seen.data()));
    check_launch();
    const std::vector<unsigned> got = seen.download();
    for (unsigned round = 1; round <= 3; ++round) {
        const unsigned want = round * 1000 * blocks + blocks * (blocks - 1) / 2;
        for (unsigned b = 0; b < blocks; ++b) CHECK(got[b * 3 + round - 1] == want);
    }
    const auto stats = warpdrill::cpu::last_launch_stats();
    CHECK(stats.grid_syncs == 6 * blocks);
    CHECK(stats.block_barriers == 0);

    DeviceBuffer<unsigned long long> ranks(4 * 96), sizes(4 * 96);
    warpdrill::poison(ranks, sizes);
    check_cuda(launch_cooperative(grid_ranks, 4, 96, ranks.data(), sizes.data()));
    check_launch();
    CHECK(ranks.download()[200] == 200);
    CHECK(sizes.download()[7] == 4 * 96);
}

TEST_CASE("occupancy and cooperative grids that cannot be resident", "[backend][groups]") {
    int per_sm = 0;
    check_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, all_blocks_see_all, 256, 0));
    CHECK(per_sm == 8);  // 2048 threads an SM
    check_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, all_blocks_see_all, 32, 0));
    CHECK(per_sm == 32);  // 32 blocks an SM
    check_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, all_blocks_see_all, 64, 40 * 1024));
    CHECK(per_sm == 5);  // 228 KB of shared memory an SM, 1 KB of it reserved per block
    int cooperative = 0;
    check_cuda(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, 0));
    CHECK(cooperative == 1);

    const unsigned too_many = static_cast<unsigned>(resident_blocks(256)) + 1;
    DeviceBuffer<unsigned> slots(too_many), seen(3 * too_many);
    CHECK(launch_cooperative(all_blocks_see_all, too_many, 256, slots.data(), seen.data()) ==
          cudaErrorCooperativeLaunchTooLarge);
    CHECK(cudaGetLastError() == cudaErrorCooperativeLaunchTooLarge);
    CHECK(std::string(cudaGetErrorName(cudaErrorCooperativeLaunchTooLarge)) ==
          "cudaErrorCooperativeLaunchTooLarge");
}

TEST_CASE("clusters: blocks read each other's shared memory through map_shared_rank", "[backend][groups]") {
    for (const unsigned cluster_blocks : {2u, 4u, 8u}) {
        INFO("clusters of " << cluster_blocks);
        const unsigned blocks = 32, threads = 64;  // more clusters than run at once
        DeviceBuffer<unsigned> out(2 * blocks * threads);
        warpdrill::poison(out);
        check_cuda(launch_clusters(read_next_block, blocks, threads, cluster_blocks, false,
                                   16 * sizeof(unsigned), out.data()));
        check_launch();
        const std::vector<unsigned> got = out.download();
        for (unsigned b = 0; b < blocks; ++b) {
            const unsigned next =
                b / cluster_blocks * cluster_blocks + (b % cluster_blocks + 1) % cluster_blocks;
            CHECK(got[2 * (b * threads + 5)] == next);
            CHECK(got[2 * (b * threads + 63) + 1] == 100 + next);
        }
        CHECK(warpdrill::cpu::last_launch_stats().cluster_syncs == 2 * blocks);
    }
}

TEST_CASE("a cooperative launch with clusters", "[backend][groups]") {
    const unsigned blocks = static_cast<unsigned>(resident_blocks(128)) / 4 * 4;
    DeviceBuffer<unsigned> cluster_sums(blocks / 4), total(1);
    warpdrill::poison(total);
    check_cuda(
        launch_clusters(cluster_then_grid, blocks, 128, 4, true, 0, cluster_sums.data(), total.data()));
    check_launch();
    CHECK(total.download()[0] == blocks * (blocks - 1) / 2);
    int clusters = 0;
    cudaLaunchAttribute attribute{};
    attribute.id = cudaLaunchAttributeClusterDimension;
    attribute.val.clusterDim = {4, 1, 1};
    const cudaLaunchConfig_t config{dim3(blocks), dim3(128), 0, nullptr, &attribute, 1};
    check_cuda(cudaOccupancyMaxActiveClusters(&clusters, cluster_then_grid, &config));
    CHECK(static_cast<unsigned>(clusters) == blocks / 4);
}

TEST_CASE("cluster launches CUDA refuses", "[backend][groups][diagnostics]") {
    DeviceBuffer<unsigned> out(2 * 12 * 32);
    CHECK(launch_clusters(read_next_block, 12, 32, 8, false, 64, out.data()) == cudaErrorInvalidClusterSize);
    CHECK(launch_clusters(read_next_block, 32, 32, 16, false, 64, out.data()) == cudaErrorInvalidClusterSize);
    ::setenv("WARPDRILL_CPU_COMPUTE_CAPABILITY", "80", 1);
    int supported = 1;
    check_cuda(cudaDeviceGetAttribute(&supported, cudaDevAttrClusterLaunch, 0));
    CHECK(supported == 0);
    CHECK(launch_clusters(read_next_block, 8, 32, 2, false, 64, out.data()) == cudaErrorNotSupported);
    ::unsetenv("WARPDRILL_CPU_COMPUTE_CAPABILITY");
    cudaGetLastError();
}

// ---- broken kernels, and what the backend says -------------------------------------------

namespace {

__global__ void grid_sync_without_cooperative_launch(int* out) {
    cg::this_grid().sync();
    out[blockIdx.x] = 1;
}

__global__ void block_skips_grid_sync(int* out) {
    if (blockIdx.x != 1) cg::this_grid().sync();
    out[blockIdx.x] = 1;
}

__global__ void half_block_at_grid_sync(int* out) {
    if (threadIdx.x < 16) cg::this_grid().sync();
    out[blockIdx.x] = 1;
}

__global__ void grid_and_cluster_wait_for_each_other(int* out) {
    if (cg::this_cluster().block_rank() == 0) {
        cg::this_grid().sync();
    } else {
        cg::this_cluster().sync();
    }
    out[blockIdx.x] = 1;
}

__global__ void rank_zero_skips_cluster_sync(int* out) {
    const cg::cluster_group cluster = cg::this_cluster();
    if (cluster.block_rank() != 0) cluster.sync();
    out[blockIdx.x] = 1;
}

__global__ void map_rank_out_of_range(int* out) {
    __shared__ int value;
    const cg::cluster_group cluster = cg::this_cluster();
    value = 1;
    cluster.sync();
    out[blockIdx.x] = *cluster.map_shared_rank(&value, static_cast<int>(cluster.num_blocks()));
    cluster.sync();
}

__global__ void map_past_dynamic_shared(int* out) {
    WARPDRILL_DYNAMIC_SHARED(int, values);  // 64 ints
    const cg::cluster_group cluster = cg::this_cluster();
    values[threadIdx.x] = 1;
    cluster.sync();
    out[blockIdx.x] = *cluster.map_shared_rank(values + 64, 1);
    cluster.sync();
}

__global__ void map_before_cluster_sync(int* out) {
    __shared__ int value;
    value = 1;
    out[blockIdx.x] = *cg::this_cluster().map_shared_rank(&value, 1);
    cg::this_cluster().sync();
}

__global__ void return_while_read(int* out) {
    __shared__ int value;
    const cg::cluster_group cluster = cg::this_cluster();
    value = 1;
    cluster.sync();
    if (cluster.block_rank() == 0) out[blockIdx.x] = *cluster.map_shared_rank(&value, 1);
}

__global__ void map_global_memory(int* out) {
    cg::this_cluster().sync();
    out[blockIdx.x] = *cg::this_cluster().map_shared_rank(out, 1);
}

__global__ void tiles_of_64_in_96_threads(int* out) {
    const auto tile = cg::tiled_partition<64>(cg::this_thread_block());
    out[threadIdx.x] = static_cast<int>(tile.thread_rank());
}

}  // namespace

TEST_CASE("grid.sync() in a launch that is not cooperative", "[backend][groups][diagnostics]") {
    DeviceBuffer<int> out(4);
    const std::string message = fault_of([&] {
        warpdrill::launch(grid_sync_without_cooperative_launch, {2, 32}, out.data());
    });
    expect_says(message, {"this_grid().sync() at cpu-cuda/tests/test_cooperative.cpp:",
                          "in a kernel that was not launched cooperatively"});
}

TEST_CASE("grid.sync() not reached by every block, or by every thread of a block",
          "[backend][groups][diagnostics]") {
    DeviceBuffer<int> out(4);
    std::string message = fault_of([&] { launch_cooperative(block_skips_grid_sync, 4, 32, out.data()); });
    INFO(message);
    CHECK(contains(message,
                   "blocks (0,0,0), (2,0,0), (3,0,0) wait at this_grid().sync() at "
                   "cpu-cuda/tests/test_cooperative.cpp:"));
    CHECK(contains(message,
                   "while block (1,0,0) returned from the kernel: every thread of the grid must reach "
                   "every this_grid().sync()"));
    message = fault_of([&] { launch_cooperative(half_block_at_grid_sync, 2, 32, out.data()); });
    CHECK(contains(message, "threads 0-15 wait at this_grid().sync()"));
    CHECK(contains(message, "which threads 16-31 never reached"));
}

TEST_CASE("blocks that wait at different group barriers", "[backend][groups][diagnostics]") {
    DeviceBuffer<int> out(4);
    const std::string message = fault_of(
        [&] { launch_clusters(grid_and_cluster_wait_for_each_other, 4, 32, 2, true, 0, out.data()); });
    expect_says(message, {"wait at this_grid().sync() at cpu-cuda/tests/test_cooperative.cpp:",
                          "wait at this_cluster().sync() at", "no block can go on"});
}

TEST_CASE("cluster.sync() not reached by every block of the cluster", "[backend][groups][diagnostics]") {
    DeviceBuffer<int> out(8);
    const std::string message =
        fault_of([&] { launch_clusters(rank_zero_skips_cluster_sync, 8, 32, 4, false, 0, out.data()); });
    INFO(message);
    CHECK(contains(message, "wait at this_cluster().sync() at cpu-cuda/tests/test_cooperative.cpp:"));
    CHECK(contains(message,
                   "returned from the kernel: every thread of the cluster must reach every "
                   "this_cluster().sync()"));
}

TEST_CASE("map_shared_rank: a rank out of range, past the end, before the first cluster.sync()",
          "[backend][groups][diagnostics]") {
    DeviceBuffer<int> out(8);
    std::string message =
        fault_of([&] { launch_clusters(map_rank_out_of_range, 8, 32, 4, false, 0, out.data()); });
    CHECK(contains(message, "this_cluster().map_shared_rank() at cpu-cuda/tests/test_cooperative.cpp:"));
    CHECK(contains(message, "asks for block rank 4, but the cluster has 4 blocks (ranks 0 to 3)"));
    message = fault_of(
        [&] { launch_clusters(map_past_dynamic_shared, 2, 64, 2, false, 64 * sizeof(int), out.data()); });
    CHECK(contains(message,
                   "maps 4 bytes at offset 256 of the dynamic shared memory, which holds 256 "
                   "bytes: the access runs past the end of block rank 1's shared memory"));
    message = fault_of([&] { launch_clusters(map_before_cluster_sync, 2, 32, 2, false, 0, out.data()); });
    CHECK(contains(message, "reaches into block rank 1 before the cluster's first this_cluster().sync()"));
    message = fault_of([&] { launch_clusters(map_global_memory, 2, 32, 2, false, 0, out.data()); });
    CHECK(contains(message, "was given an address that is not in the block's shared memory"));
    message = fault_of([&] { warpdrill::launch(map_rank_out_of_range, {2, 32}, out.data()); });
    CHECK(contains(message, "asks for block rank 1, but the kernel was launched without clusters"));
}

TEST_CASE("a block that returns while another may still read its shared memory",
          "[backend][groups][diagnostics]") {
    DeviceBuffer<int> out(8);
    const std::string message =
        fault_of([&] { launch_clusters(return_while_read, 8, 32, 2, false, 0, out.data()); });
    INFO(message);
    // Block 1 returns before or after block 0 reads: either way the rule is named.
    CHECK(contains(message, "this_cluster().map_shared_rank() at cpu-cuda/tests/test_cooperative.cpp:"));
    CHECK(contains(message, "returned from the kernel"));
    CHECK(contains(message,
                   "the cluster must meet at a this_cluster().sync() after the last read of another "
                   "block's shared memory"));
}

TEST_CASE("tiles of several warps that do not divide the block", "[backend][groups][diagnostics]") {
    DeviceBuffer<int> out(96);
    const std::string message = fault_of([&] {
        warpdrill::launch(tiles_of_64_in_96_threads, {1, 96}, out.data());
    });
    CHECK(contains(message, "tiled_partition<64>() at cpu-cuda/tests/test_cooperative.cpp:"));
    CHECK(contains(message, "splits a group of 96 threads"));
}
