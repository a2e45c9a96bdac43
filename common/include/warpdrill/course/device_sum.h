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
    // Sums d_in[0, n) with at most max_blocks blocks (0: as many as the GPU
    // runs at once). Throws std::invalid_argument for input that is not
    // 16-byte aligned.
    std::function<DeviceSumRun(const float* d_in, std::int64_t n, unsigned max_blocks)> run;
    // CPU backend only: "" when the counters show the lesson's idea, else
    // what they show instead.
    std::function<std::string(const DeviceSumRun& run)> idea;
};

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
