// What `warpdrill profile` knows of GPUs: their published figures, the counts
// the CPU backend took of a lesson's launches (from the profile driver,
// common/src/profile/profile_lesson.cpp), and a model of how long a launch
// takes on a named GPU, the GPU's time alone as gpu_bench measures it
// (results/bench-h100.csv's gpu_us). The model, term by term (README, "Profile"):
//   time = launch + max(DRAM, instructions + shared memory, block dispatch,
//                       earlier waves) + a block's latency + finish
//   launch        the first launch of a call, or one after it in the same call
//   DRAM          global sectors loaded and stored * 32 bytes / measured bandwidth, less
//                 the sectors a block loads again while the resident blocks' own fit in L2
//   instructions  the warp instructions observed * the SM's cycles for each / (SMs in use * clock)
//   shared        wavefronts / (SMs in use * clock): one wavefront a cycle an SM
//   dispatch      blocks * what one block adds to an empty launch
//   latency       one block's: its first DRAM bytes, then each warp's observed
//                 instructions one after another
//   earlier waves the waves before the last (of resident blocks) * a block's latency
//   finish        a launch with atomics: lesson 10's fence, ticket and last block
// where waves = blocks / (SMs * blocks that fit an SM), rounded up. The
// constants that are not published figures were measured on an H100 on
// kernels that each do one thing (gpu_model.cpp; scripts/model-fit.py) and
// serve for every GPU.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace warpdrill::runner {

struct GpuSpec {
    std::string key;   // "h100"
    std::string name;  // "NVIDIA H100 SXM5 80GB"
    int multiprocessors = 0;
    double boost_clock_ghz = 0;
    double dram_gbps = 0;  // published peak
    int max_threads_per_sm = 0;
    int max_blocks_per_sm = 0;
    int shared_bytes_per_sm = 0;
    int reserved_shared_per_block = 0;  // the driver's own, per resident block
    double l2_bytes = 0;
};

const std::vector<GpuSpec>& gpu_specs();
// The GPU of that key ("h100", "a100", "l4", "t4", "rtx4090"), or null.
const GpuSpec* find_gpu(const std::string& key);

// One condition of the kernel's source, as the driver counted it
// (cpu::BranchProfile, warpdrill/cpu/backend.h).
struct BranchCounts {
    std::string place;      // "reduce.cuh:22"
    std::string statement;  // "if", "while" or "for"
    double evaluations = 0;
    double divergent = 0;
    double lanes_taken = 0;
    double lanes_not_taken = 0;
};

// One launch as the profile driver counted it; values by the driver's names
// ("global_load_requests", ...).
struct LaunchCounts {
    std::string kernel;
    std::array<unsigned, 3> grid{1, 1, 1};
    std::array<unsigned, 3> block{1, 1, 1};
    std::string race;  // the first race the launch made: the counts are the racy kernel's
    std::map<std::string, double> values;
    // The memory counts by source line: place ("reduce.cuh:24") -> name -> value.
    std::map<std::string, std::map<std::string, double>> sources;
    std::vector<BranchCounts> branches;  // in the order of the source

    double value(const std::string& key) const;  // 0 when absent
    double blocks() const { return double(grid[0]) * grid[1] * grid[2]; }
    int threads_per_block() const { return static_cast<int>(block[0] * block[1] * block[2]); }
    // Warp instructions the backend sees: loads, stores and sync points.
    // Arithmetic, address math and branch instructions it does not see.
    double observed_instructions() const;
    // Averaged over the observed warp instructions.
    double average_active_threads() const;
    double partial_instructions() const;
};

struct LessonCounts {
    int lesson = 0;
    long long floats = 0;
    std::string workload;  // "sum", "reduce_scale" for lesson 9, "ring_add" for lesson 13
    std::vector<LaunchCounts> launches;
};

// Reads the driver's record (warpdrill/profile_record.h); throws std::runtime_error when it is not one.
LessonCounts read_profile_record(const std::string& text);

struct LaunchEstimate {
    int blocks_per_sm = 0;  // by threads, blocks and shared memory (registers are not known)
    double occupancy = 0;   // achieved: resident warps over the SM's most, averaged over the waves
    int waves = 0;
    double dram_bytes_read = 0;     // the global sectors loaded that L2 does not serve, 32 bytes each
    double dram_bytes_written = 0;  // and those stored
    double launch_us = 0, dram_us = 0, issue_us = 0, shared_us = 0, dispatch_us = 0;
    double load_wait_us = 0;      // a block's wait for its loads (part of its latency)
    double block_latency_us = 0;  // its wait for loads, then its warps' observed instructions
    double waves_us = 0;          // the waves one after another, a block's latency each
    double finish_us = 0;
    double total_us = 0;
};

// first_in_call: the launch opens its call (gpu_bench times a lesson's launches as one call).
LaunchEstimate estimate_launch(const LaunchCounts& launch, const GpuSpec& gpu, bool first_in_call);

}  // namespace warpdrill::runner
