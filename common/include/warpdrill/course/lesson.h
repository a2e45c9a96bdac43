// What a lesson's given host code (check/launch.cu) offers its checks, and
// the checks every reduction and shuffle lesson shares. A lesson's check.cpp
// describes its kernels with these structs and calls the shared checks, so
// every lesson is judged the same way and explains failures the same way.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "warpdrill/testing.h"

namespace warpdrill::course {

// A kernel that writes one partial sum per block; block b sums the elements
// [b * block_size * elements_per_thread, (b + 1) * block_size * elements_per_thread).
struct BlockSumKernel {
    std::string name;
    int elements_per_thread = 1;
    std::vector<int> block_sizes;  // the block sizes the kernel supports
    // Launches the kernel over d_in[0, n) with the given block size; writes
    // one float per block to d_block_sums.
    std::function<void(const float* d_in, float* d_block_sums, int n, int block_size)> launch;
    // Checks the backend's counters for the lesson's idea; returns what is
    // wrong, or "". Runs on the CPU backend only.
    std::function<std::string(const LaunchStats& stats, int block_size)> idea;
};

int block_count(const BlockSumKernel& kernel, int n, int block_size);

// A whole sum from a block-sum kernel, as the classic reduction samples make
// it (and the profile and gpu_bench run lessons 1 to 7): the kernel applied
// to its own output until one value is left, each block of a pass reducing
// `span` elements to one. `launch_pass(from, to, count)` launches one pass
// over from[0, count); the passes write scratch[0] and scratch[1] in turn
// (each holding at least ceil(n / span) floats), and the last one *out.
template <class LaunchPass>
void sum_in_passes(const float* in, float* out, int n, int span, float* const (&scratch)[2],
                   LaunchPass&& launch_pass) {
    const float* from = in;
    for (int pass = 0;; ++pass) {
        const int blocks = (n + span - 1) / span;
        float* to = blocks <= 1 ? out : scratch[pass % 2];
        launch_pass(from, to, n);
        if (blocks <= 1) return;
        from = to;
        n = blocks;
    }
}

// Runs `launch` (a kernel launch and check_launch()). When the kernel stops
// with an error (a fault the CPU backend names, a CUDA error on either
// backend), the check fails with that error first, then `input`: what the
// kernel ran on ("n = 1000, ...; input seed ...").
void launch_or_fail(const std::string& kernel_name, const std::string& input,
                    const std::function<void()>& launch);

// Sums of random floats at one size and block size: every block's sum within
// its tolerance, the same in both thread orders, and the lesson's idea applied.
void check_block_sums(const BlockSumKernel& kernel, int n, int block_size);
// Sums of whole numbers, which float adds exactly: any difference is an element lost or counted twice.
void check_block_sums_exact(const BlockSumKernel& kernel, int n, int block_size);
// A NaN in the input makes its own block's sum NaN, an infinity its own
// block's sum infinite, and the other blocks are left alone.
void check_block_sums_nan(const BlockSumKernel& kernel, int n, int block_size);
// Runs all of the above over the sizes a lesson must handle.
void check_block_sum_lesson(const BlockSumKernel& kernel);

// A warp-shuffle exercise: 64 threads (two warps), each holding
// `values_per_thread` ints, exchange them in groups of `width` lanes.
struct ShuffleExercise {
    std::string name;
    std::string param_name;  // "src_lane", "delta", ...; "" when the exercise has none
    int values_per_thread = 1;
    std::vector<int> params;  // the lane, offset or lane mask, as the exercise defines
    std::function<void(const int* d_in, int* d_out, int threads, int param, int width)> launch;
    // What each thread must hold afterwards.
    std::function<std::vector<int>(const std::vector<int>& in, int param, int width)> reference;
};

inline constexpr int kShuffleThreads = 64;

// Every power-of-two width from 1 to 32 and every parameter.
void check_shuffle_exercise(const ShuffleExercise& exercise);

// Defined by each lesson's check/launch.cu, for the kernels it has: the
// lesson's reduction kernel(s), without idea, and its shuffle launch.
BlockSumKernel block_sum_kernel();
BlockSumKernel block_sum_kernel_xor();
void launch_shuffle(const int* d_in, int* d_out, int threads, int param, int width);

// Lesson 8: the sum of d_in[0, n) on the device, two launches of one kernel:
// `blocks` blocks write a partial sum each to d_partials, then one block adds
// them into *d_sum. grid_stride_blocks(n) is the grid the lesson launches,
// max_elements_per_thread(n) the most elements one thread then adds in a row.
inline constexpr int kGridStrideBlockSize = 256;
int grid_stride_blocks(int n);
int max_elements_per_thread(int n);
void grid_stride_sum(const float* d_in, int n, int blocks, float* d_partials, float* d_sum);

// Lesson 9: y = x / max|x| per row of a row-major (rows, cols) matrix: the
// given baseline with a block of kBlockPerRowThreads threads per row, the
// learner's kernel with a warp per row, kRowsPerBlock rows to a block.
inline constexpr int kBlockPerRowThreads = 256;
inline constexpr int kRowsPerBlock = 4;
void reduce_scale_block_per_row(const float* d_x, float* d_y, int rows, int cols);
void reduce_scale_warp_per_row(const float* d_x, float* d_y, int rows, int cols);

// Lesson 10: one launch of `blocks` blocks of kOneLaunchBlockSize threads
// writes the sum of d_in[0, n) to *d_sum, each block writing d_partials[block]
// and taking a ticket from *d_tickets (0 before the launch and after it).
// 512 threads: from 2^21 floats up, 396 blocks of 512 (all an H100 holds)
// took 0.3% to 6% less time than 792 blocks of 256, in each sweep.
inline constexpr int kOneLaunchBlockSize = 512;
void one_launch_sum(const float* d_in, std::int64_t n, float* d_partials, unsigned* d_tickets, float* d_sum,
                    int blocks);
// The grid for n floats on a GPU of `multiprocessors` SMs that holds
// `resident` blocks of this kernel at once. Chosen from four sweeps of every
// grid on an H100, 2^16 to 2^28 floats (bench/grid_sweep.cu,
// results/lesson10-grid-h100.txt, book chapter 10): within 1.6% of the
// fastest grid from 2^18 floats up, within 3.6% below.
// - each block reads at least 4096 floats (16 KiB, two packs per thread):
//   every block pays a fixed cost to finish (its block sum, its partial, its
//   ticket), and a block that reads less does not earn it back;
// - but at least one block per SM while every thread still gets a pack: a
//   small sum's time is the latency of its loads, best spread over every SM;
// - and never more blocks than the GPU holds at once: the rest would only
//   wait for a free SM and give the last block more partials to add.
constexpr int one_launch_grid(std::int64_t n, int multiprocessors, int resident) {
    constexpr std::int64_t kFloatsPerBlock = 4096;
    const std::int64_t one_pack_each = (n / 4 + kOneLaunchBlockSize - 1) / kOneLaunchBlockSize;
    const std::int64_t blocks_of_4096 = (n + kFloatsPerBlock - 1) / kFloatsPerBlock;
    const std::int64_t blocks =
        std::max(blocks_of_4096, std::min<std::int64_t>(one_pack_each, multiprocessors));
    return static_cast<int>(std::clamp<std::int64_t>(blocks, 1, resident));
}
// one_launch_grid for this GPU and lesson 10's kernel.
int one_launch_blocks(std::int64_t n);
// The given variant: each block atomicAdds its sum to *d_sum, which must be 0.
void atomic_add_sum(const float* d_in, std::int64_t n, float* d_sum, int blocks);
// Lesson 11: every thread gets its warp's sum and maximum (__reduce_*_sync).
// Lessons 11 and 12's sums of a whole array: warpdrill/course/device_sum.h.
void launch_warp_sum_and_max(const int* d_in, int* d_sums, int* d_maxima, int threads);

}  // namespace warpdrill::course
