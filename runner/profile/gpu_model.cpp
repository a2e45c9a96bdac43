#include "gpu_model.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "warpdrill/profile_record.h"

namespace warpdrill::runner {
namespace {

constexpr int kWarpSize = 32;
constexpr double kSectorBytes = 32;
constexpr double kIssuePerCycle = 4;  // four warp schedulers an SM, one instruction a cycle each

// Measured on an H100 (gpu_bench's method), used for every GPU:
// a device copy reaches 2984 to 3028 of the published 3350 GB/s
// (results/bench-h100.txt, 2^28 and 2^32 floats);
constexpr double kDramEfficiency = 0.9;
// one more launch of a short kernel adds 3.7 to 4.8 us (lesson 3's three
// launches against lesson 4's two, at 2^18 floats: 17.1 and 12.3 us in the
// run this was fitted to, 15.9 and 11.7 in results/bench-h100.txt).
constexpr double kLaunchOverheadUs = 4.8;
// Fitted to gpu_bench's H100 times of lessons 1 to 8 at 2^20, 2^22 and 2^24
// floats (README, "How far the model is from the hardware"): a block waits
// this long at each barrier for its warps' step of the tree;
constexpr double kBarrierCycles = 90;
// and each observed instruction stands for this many issued. nvcc's PTX for
// lesson 3's loop agrees: 12 instructions a step for a working warp, of which
// it observes 4, and 6 for an idle one, of which it observes 1.
constexpr double kIssueFactor = 4;

}  // namespace

// Published figures: NVIDIA's data sheets and architecture whitepapers, and
// the CUDA Programming Guide's table of limits per compute capability.
const std::vector<GpuSpec>& gpu_specs() {
    static const std::vector<GpuSpec> specs = {
        {"h100", "NVIDIA H100 SXM5 80GB", 132, 1.98, 3350, 2048, 32, 228 * 1024, 1024},
        {"a100", "NVIDIA A100 SXM4 80GB", 108, 1.41, 2039, 2048, 32, 164 * 1024, 1024},
        {"l4", "NVIDIA L4", 58, 2.04, 300, 1536, 24, 100 * 1024, 1024},
        {"t4", "NVIDIA T4", 40, 1.59, 320, 1024, 16, 64 * 1024, 0},
        {"rtx4090", "NVIDIA GeForce RTX 4090", 128, 2.52, 1008, 1536, 24, 100 * 1024, 1024},
    };
    return specs;
}

const GpuSpec* find_gpu(const std::string& key) {
    for (const GpuSpec& gpu : gpu_specs()) {
        if (gpu.key == key) return &gpu;
    }
    return nullptr;
}

double LaunchCounts::value(const std::string& key) const {
    const auto found = values.find(key);
    return found == values.end() ? 0.0 : found->second;
}

double LaunchCounts::observed_instructions() const {
    return value("memory_instructions") + value("sync_instructions");
}

double LaunchCounts::average_active_threads() const {
    const double instructions = observed_instructions();
    return instructions > 0 ? (value("memory_active_threads") + value("sync_active_threads")) / instructions
                            : 0.0;
}

double LaunchCounts::partial_instructions() const { return value("memory_partial") + value("sync_partial"); }

namespace {

std::array<unsigned, 3> dims_of(const nlohmann::json& dims) {
    std::array<unsigned, 3> out{1, 1, 1};
    for (std::size_t i = 0; i < out.size() && i < dims.size(); ++i) out[i] = dims.at(i).get<unsigned>();
    return out;
}

std::map<std::string, double> counts_of(const nlohmann::json& counts) {
    std::map<std::string, double> out;
    for (const auto& [name, value] : counts.items()) out[name] = value.get<double>();
    return out;
}

LaunchCounts launch_of(const nlohmann::json& launch) {
    namespace record = warpdrill::profile_record;
    LaunchCounts counts;
    counts.kernel = launch.at(record::kKernel).get<std::string>();
    counts.race = launch.value(record::kRace, "");
    counts.grid = dims_of(launch.at(record::kGrid));
    counts.block = dims_of(launch.at(record::kBlock));
    counts.values = counts_of(launch.at(record::kCounts));
    const nlohmann::json& sources = launch.at(record::kSources);
    for (const auto& [place, line] : sources.items()) counts.sources[place] = counts_of(line);
    for (const nlohmann::json& branch : launch.at(record::kBranches)) {
        counts.branches.push_back({.place = branch.at(record::kPlace).get<std::string>(),
                                   .statement = branch.at(record::kStatement).get<std::string>(),
                                   .evaluations = branch.at(record::kEvaluations).get<double>(),
                                   .divergent = branch.at(record::kDivergent).get<double>(),
                                   .lanes_taken = branch.at(record::kLanesTaken).get<double>(),
                                   .lanes_not_taken = branch.at(record::kLanesNotTaken).get<double>()});
    }
    return counts;
}

}  // namespace

LessonCounts read_profile_record(const std::string& text) {
    namespace record = warpdrill::profile_record;
    try {
        const nlohmann::json document = nlohmann::json::parse(text);
        LessonCounts counts;
        counts.lesson = document.at(record::kLesson).get<int>();
        counts.floats = document.at(record::kFloats).get<long long>();
        counts.workload = document.at(record::kWorkload).get<std::string>();
        for (const nlohmann::json& launch : document.at(record::kLaunches)) counts.launches.push_back(launch_of(launch));
        return counts;
    } catch (const nlohmann::json::exception& error) {
        throw std::runtime_error(std::string("the profile driver's record is not as profile_record.h says: ") +
                                 error.what());
    }
}

LaunchEstimate estimate_launch(const LaunchCounts& launch, const GpuSpec& gpu) {
    LaunchEstimate estimate;
    const int warps_per_block = (launch.threads_per_block() + kWarpSize - 1) / kWarpSize;
    const double shared_per_block = launch.value("dynamic_shared_bytes") +
                                    launch.value("static_shared_bytes") + gpu.reserved_shared_per_block;
    const int by_shared = shared_per_block > 0 ? static_cast<int>(gpu.shared_bytes_per_sm / shared_per_block)
                                               : gpu.max_blocks_per_sm;
    estimate.blocks_per_sm = std::max(
        1,
        std::min({gpu.max_blocks_per_sm, gpu.max_threads_per_sm / (warps_per_block * kWarpSize), by_shared}));

    const double blocks = launch.blocks();
    const double wave_size = double(gpu.multiprocessors) * estimate.blocks_per_sm;
    estimate.waves = static_cast<int>(std::ceil(blocks / wave_size));
    const double sms_in_use = std::min<double>(gpu.multiprocessors, blocks);
    const double resident_blocks =
        std::min<double>(estimate.blocks_per_sm, blocks / (gpu.multiprocessors * estimate.waves));
    estimate.occupancy = resident_blocks * warps_per_block * kWarpSize / gpu.max_threads_per_sm;

    const double clock_hz = gpu.boost_clock_ghz * 1e9;
    estimate.dram_bytes_read = launch.value("global_load_sectors") * kSectorBytes;
    estimate.dram_bytes_written = launch.value("global_store_sectors") * kSectorBytes;
    estimate.launch_us = kLaunchOverheadUs;
    estimate.dram_us = (estimate.dram_bytes_read + estimate.dram_bytes_written) /
                       (gpu.dram_gbps * 1e9 * kDramEfficiency) * 1e6;
    const double wavefronts =
        launch.value("shared_load_wavefronts") + launch.value("shared_store_wavefronts");
    estimate.shared_us = wavefronts / (sms_in_use * clock_hz) * 1e6;
    // A grid or cluster barrier is priced as a block barrier: no figure for its own cost is measured.
    const double barriers =
        launch.value("block_barriers") + launch.value("grid_syncs") + launch.value("cluster_syncs");
    const double barriers_per_block = blocks > 0 ? barriers / blocks : 0.0;
    estimate.barrier_us = estimate.waves * barriers_per_block * kBarrierCycles / clock_hz * 1e6;
    estimate.issue_us =
        launch.observed_instructions() * kIssueFactor / (sms_in_use * kIssuePerCycle * clock_hz) * 1e6;
    estimate.total_us = estimate.launch_us + std::max(estimate.dram_us, estimate.shared_us) +
                        estimate.barrier_us + estimate.issue_us;
    return estimate;
}

}  // namespace warpdrill::runner
