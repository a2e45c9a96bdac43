// The lessons whose kernel sums a whole array in one launch (11 and 12):
// what their given launch code (check/launch.cu) offers, and the checks
// they share. check.cpp adds what the lesson's idea looks like in the CPU
// backend's counters; the shared checks do the rest: every size from 0 up,
// grids of one block and of many, exact sums of whole numbers, NaN and
// infinities, the same bits on every run, misaligned input refused, and
// partial sums written where, and only where, the lesson says.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "warpdrill/testing.h"

namespace warpdrill::course {

// The kernels load 16 bytes at a time: packs of four floats.
inline constexpr int kPackFloats = 4;

struct DeviceSumRun {
    float sum = 0.0f;
    unsigned blocks = 0;  // the grid launched
    unsigned block_threads = 0;
    // The kernel's array of partial sums after the launch (poisoned before
    // it), and how many of them the kernel must write: one per block, or
    // one per cluster.
    std::vector<float> partials;
    unsigned partials_written = 0;
    LaunchStats stats{};
};

struct DeviceSum {
    std::string name;           // the kernel
    std::string partials_name;  // its array of partial sums
    std::string writer;         // what writes one partial sum: "block" or "cluster"
    unsigned block_threads = 0;
    unsigned blocks_per_writer = 1;  // 1, or a cluster's blocks
    // The grid for n floats: at least one pack of four floats per thread, at
    // most max_blocks (0: as many as the GPU runs at once), whole writers.
    std::function<unsigned(std::int64_t n, unsigned max_blocks)> grid;
    // Launches the sum of d_in[0, n) with `blocks` blocks: one partial sum
    // per writer to d_partials (room for one per block), the sum to *d_sum.
    // Only launches: call it through launch_device_sum, which checks d_in.
    std::function<void(const float* d_in, std::int64_t n, unsigned blocks, float* d_partials, float* d_sum)>
        launch;
    // CPU backend only: "" when the counters show the lesson's idea, else
    // what they show instead.
    std::function<std::string(const DeviceSumRun& run)> idea;
};

// kernel.launch, after checking that d_in is 16-byte aligned for 4-float
// loads (std::invalid_argument if not).
void launch_device_sum(const DeviceSum& kernel, const float* d_in, std::int64_t n, unsigned blocks,
                       float* d_partials, float* d_sum);

// A run's shape before it runs: the grid for n floats and max_blocks, the
// block's threads and how many partial sums that grid writes.
DeviceSumRun planned_run(const DeviceSum& kernel, std::int64_t n, unsigned max_blocks);

// What the checks run: the grid for n floats and max_blocks, the partial sums
// and the sum poisoned, one launch, and what it wrote with its counters.
DeviceSumRun run_device_sum(const DeviceSum& kernel, const float* d_in, std::int64_t n, unsigned max_blocks);

// The longest chain of dependent additions in a run's sum, for its
// tolerance: a thread's grid-stride loop, then the trees, then one thread's
// share of the partial sums.
std::size_t sequential_terms(std::int64_t n, const DeviceSumRun& run);
// The same for lesson 10's one launch: `blocks` blocks of kOneLaunchBlockSize
// threads, each writing its partial, which the last block's threads add.
std::size_t one_launch_sequential_terms(std::int64_t n, int blocks);

void check_device_sum_lesson(const DeviceSum& kernel);

// Defined by the launch code of lessons 11 and 12.
DeviceSum device_sum_kernel();

// On a GPU older than compute capability major.minor: prints "SKIPPED on
// this GPU: <what> ..." as a warning and returns true, and the calling check
// returns without checking, so that it passes (Catch2 2 has no SKIP, and
// Catch2 3 fails a run whose every test case was skipped). `what` is what
// the check needs, in the learner's language (a message of messages/lessons.toml).
bool skip_before_compute_capability(int major, int minor, const std::string& what);

}  // namespace warpdrill::course
