#include "gpu_model.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

#include "warpdrill/profile_record.h"

namespace warpdrill::runner {
namespace {

constexpr int kWarpSize = 32;
constexpr double kSectorBytes = 32;
constexpr double kMiB = 1024.0 * 1024.0;

// Measured on an H100 on kernels that each do one thing, the GPU's time
// alone (results/model-patterns-h100.csv); `python3 scripts/model-fit.py`
// derives each from that table and a test holds them to it. They serve for
// every GPU, the cycles at its own clock and the bandwidth as the same share
// of its published figure.
// The first launch of a call, and each launch after it in the same call:
constexpr double kFirstLaunchUs = 3.091;
constexpr double kNextLaunchUs = 1.728;
// what one more block adds to an empty launch (the GPU's block dispatch);
constexpr double kBlockDispatchUs = 0.0005932;
// the largest reads' bytes a microsecond, and the smallest reads' wait for their first bytes;
constexpr double kDramBytesPerUs = 3.105e+06;
constexpr double kDramLatencyUs = 0.7947;
// one load's latency in a chain of dependent loads, when L2 serves it (the
// chain was just stored) and when DRAM does (twice L2's size written since);
constexpr double kL2LoadUs = 0.146;
constexpr double kDramLoadUs = 0.3533;
// the cycles a block's warp takes from one instruction the CPU backend
// observes to the next, the arithmetic and the waiting between them
// included: one block an SM looping over __syncthreads(), where each loop
// step is one observed instruction (a block's latency);
constexpr double kWarpCyclesPerObservedInstruction = 28.46;
// and the cycles an SM spends for each, eight blocks an SM looping the same
// way (the SM's throughput).
constexpr double kSmCyclesPerObservedInstruction = 2.042;
// lesson 10's finish (a fence, an atomic ticket, the last block adding the
// partials) less the empty launch, by grid: {blocks, us}.
constexpr std::array<std::pair<double, double>, 3> kFinishUs = {{{132, 1.47}, {396, 1.38}, {1056, 2.46}}};

// The finish's cost at this grid, on the line through the measured grids (held at their ends).
double finish_us(double blocks) {
    if (blocks <= kFinishUs.front().first) return kFinishUs.front().second;
    for (std::size_t i = 1; i < kFinishUs.size(); ++i) {
        const auto [x0, y0] = kFinishUs[i - 1];
        const auto [x1, y1] = kFinishUs[i];
        if (blocks <= x1) return y0 + (y1 - y0) * (blocks - x0) / (x1 - x0);
    }
    return kFinishUs.back().second;
}

}  // namespace

// Published figures: NVIDIA's data sheets and architecture whitepapers, and
// the CUDA Programming Guide's table of limits per compute capability.
const std::vector<GpuSpec>& gpu_specs() {
    static const std::vector<GpuSpec> specs = {
        {"h100", "NVIDIA H100 SXM5 80GB", 132, 1.98, 3350, 2048, 32, 228 * 1024, 1024, 50 * kMiB},
        {"a100", "NVIDIA A100 SXM4 80GB", 108, 1.41, 2039, 2048, 32, 164 * 1024, 1024, 40 * kMiB},
        {"l4", "NVIDIA L4", 58, 2.04, 300, 1536, 24, 100 * 1024, 1024, 48 * kMiB},
        {"t4", "NVIDIA T4", 40, 1.59, 320, 1024, 16, 64 * 1024, 0, 4 * kMiB},
        {"rtx4090", "NVIDIA GeForce RTX 4090", 128, 2.52, 1008, 1536, 24, 100 * 1024, 1024, 72 * kMiB},
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

namespace {

// Where a launch's global-load sectors come from. A sector a block loads
// again (the reread pattern's second pass, lesson 9's second read of a row)
// comes from L2 while every resident block's own sectors fit in it together,
// and from DRAM again when they do not (results/model-patterns-h100.csv: a
// read twice over of 16 MB costs what a read once does, of 64 MB twice as
// much). A sector an earlier launch of the call stored (the partial sums a
// lesson's next launch adds) comes from L2 while they fit in it.
struct LoadedSectors {
    double from_dram = 0;
    double from_l2 = 0;
    bool reloads_from_l2 = false;
    double passes_again = 0;  // a block's loads again, in passes over its own sectors
};

LoadedSectors loaded_sectors(const LaunchCounts& launch, const GpuSpec& gpu, double resident_blocks) {
    const double sectors = launch.value("global_load_sectors");
    const double reloaded = launch.value("global_load_reloaded_sectors");
    const double stored_earlier = launch.value("global_load_stored_earlier_sectors");
    const double first_loads = sectors - reloaded;
    const double own_bytes_per_block = launch.blocks() > 0 ? first_loads * kSectorBytes / launch.blocks() : 0;
    LoadedSectors loaded;
    loaded.reloads_from_l2 = own_bytes_per_block * resident_blocks <= gpu.l2_bytes;
    loaded.passes_again = first_loads > 0 ? reloaded / first_loads : 0;
    loaded.from_l2 = (loaded.reloads_from_l2 ? reloaded : 0) +
                     (stored_earlier * kSectorBytes <= gpu.l2_bytes ? stored_earlier : 0);
    loaded.from_dram = sectors - loaded.from_l2;
    return loaded;
}

// A block's wait for its loads: its first bytes (from DRAM, or less by what
// L2 saves a lone load where L2 serves all of them), then one L2 or DRAM
// load for each pass it makes again over its sectors.
double load_wait_us(const LoadedSectors& loaded) {
    const double first_bytes_us = loaded.from_dram > 0 ? kDramLatencyUs
                                  : loaded.from_l2 > 0 ? kDramLatencyUs - (kDramLoadUs - kL2LoadUs)
                                                       : 0.0;
    return first_bytes_us + loaded.passes_again * (loaded.reloads_from_l2 ? kL2LoadUs : kDramLoadUs);
}

// The bandwidth the model gives a GPU: the share of its published figure
// that the H100 reached on the patterns.
double dram_bytes_per_us(const GpuSpec& gpu) {
    static const double h100_share = kDramBytesPerUs / (find_gpu("h100")->dram_gbps * 1e3);
    return gpu.dram_gbps * 1e3 * h100_share;
}

}  // namespace

LaunchEstimate estimate_launch(const LaunchCounts& launch, const GpuSpec& gpu, bool first_in_call) {
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

    const double cycles_per_us = gpu.boost_clock_ghz * 1e3;
    estimate.launch_us = first_in_call ? kFirstLaunchUs : kNextLaunchUs;
    estimate.dispatch_us = blocks * kBlockDispatchUs;
    const LoadedSectors loaded = loaded_sectors(launch, gpu, std::min(blocks, wave_size));
    estimate.dram_bytes_read = loaded.from_dram * kSectorBytes;
    estimate.dram_bytes_written = launch.value("global_store_sectors") * kSectorBytes;
    estimate.dram_us = (estimate.dram_bytes_read + estimate.dram_bytes_written) / dram_bytes_per_us(gpu);
    estimate.issue_us =
        launch.observed_instructions() * kSmCyclesPerObservedInstruction / (sms_in_use * cycles_per_us);
    const double wavefronts =
        launch.value("shared_load_wavefronts") + launch.value("shared_store_wavefronts");
    estimate.shared_us = wavefronts / (sms_in_use * cycles_per_us);
    // A block's latency: its waits for loads, then its warps' observed
    // instructions one after another (a grid or cluster barrier is priced as
    // a block barrier's sync instruction: no figure for its own cost is measured).
    const double warps = blocks * warps_per_block;
    const double instructions_per_warp = warps > 0 ? launch.observed_instructions() / warps : 0.0;
    estimate.load_wait_us = load_wait_us(loaded);
    estimate.block_latency_us =
        estimate.load_wait_us + instructions_per_warp * kWarpCyclesPerObservedInstruction / cycles_per_us;
    estimate.waves_us = estimate.waves * estimate.block_latency_us;
    estimate.finish_us = launch.value("atomics") > 0 ? finish_us(blocks) : 0.0;
    // The longest of: DRAM's bytes, then the last block's latency (its work
    // on the last bytes comes after them); the SMs' instructions or the block
    // dispatch, after the blocks' first loads (a block's instructions are
    // those the SMs issue, not to be added twice: one block an SM looping
    // over barriers takes its chain of instructions alone, eight blocks an SM
    // their issue alone); the waves one after another.
    estimate.total_us = estimate.launch_us +
                        std::max({estimate.dram_us + estimate.block_latency_us,
                                  estimate.issue_us + estimate.shared_us + estimate.load_wait_us,
                                  estimate.dispatch_us + estimate.load_wait_us, estimate.waves_us}) +
                        estimate.finish_us;
    return estimate;
}

}  // namespace warpdrill::runner
