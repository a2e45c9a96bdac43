// The profile drivers' writer of their counts (warpdrill/profile_record.h),
// compiled once for every lesson's driver, on the CPU backend.
#include "warpdrill/profile_record.h"

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <utility>

#include <nlohmann/json.hpp>

namespace warpdrill::profile_record {
namespace {

void add_lanes(nlohmann::json& counts, const std::string& name, const cpu::ActiveLanes& lanes) {
    counts[name + "_instructions"] = lanes.instructions;
    counts[name + "_active_threads"] = lanes.active_threads;
    counts[name + "_partial"] = lanes.partial;
}

// One launch: its shape, the race it made, its counts, each source line's
// memory counts and each branch's.
nlohmann::json launch_record(const cpu::LaunchProfile& p) {
    nlohmann::json counts = {{"dynamic_shared_bytes", p.dynamic_shared_bytes},
                             {"static_shared_bytes", p.static_shared_bytes},
                             {"block_barriers", p.stats.block_barriers},
                             {"grid_syncs", p.stats.grid_syncs},
                             {"cluster_syncs", p.stats.cluster_syncs},
                             {"warp_syncs", p.stats.warp_syncs},
                             {"shuffles", p.stats.shuffles},
                             {"warp_reductions", p.stats.warp_reductions},
                             {"votes", p.stats.votes},
                             {"atomics", p.stats.atomics},
                             {"barrier_instructions", p.barrier_instructions}};
    for (const auto& [name, value] : memory_counts(p)) counts[name] = value;
    add_lanes(counts, "memory", p.memory_instructions);
    add_lanes(counts, "sync", p.sync_instructions);
    nlohmann::json sources = nlohmann::json::object();
    for (const cpu::SourceLineProfile& line : p.lines) {
        for (const auto& [name, value] : memory_counts(line)) {
            if (value > 0) sources[line.place()][name] = value;
        }
    }
    nlohmann::json branches = nlohmann::json::array();
    std::uint64_t divergent = 0;
    for (const cpu::BranchProfile& branch : p.branches) {
        divergent += branch.divergent;
        branches.push_back({{kPlace, branch.place()},
                            {kStatement, branch.statement},
                            {kEvaluations, branch.evaluations},
                            {kDivergent, branch.divergent},
                            {kLanesTaken, branch.lanes_taken},
                            {kLanesNotTaken, branch.lanes_not_taken}});
    }
    counts["divergent_branches"] = divergent;
    return {{kKernel, p.kernel}, {kRace, p.race},     {kGrid, p.grid},      {kBlock, p.block},
            {kCounts, counts},   {kSources, sources}, {kBranches, branches}};
}

}  // namespace

std::vector<std::pair<const char*, std::uint64_t>> memory_counts(const cpu::MemoryCounts& m) {
    return {{"global_load_requests", m.global_loads.requests},
            {"global_load_sectors", m.global_loads.sectors},
            {"global_load_reloaded_sectors", m.global_loads.reloaded_sectors},
            {"global_load_stored_earlier_sectors", m.global_loads.stored_earlier_sectors},
            {"global_store_requests", m.global_stores.requests},
            {"global_store_sectors", m.global_stores.sectors},
            {"shared_load_instructions", m.shared_loads.instructions},
            {"shared_load_wavefronts", m.shared_loads.wavefronts},
            {"shared_load_bank_conflicts", m.shared_loads.bank_conflicts},
            {"shared_store_instructions", m.shared_stores.instructions},
            {"shared_store_wavefronts", m.shared_stores.wavefronts},
            {"shared_store_bank_conflicts", m.shared_stores.bank_conflicts}};
}

bool write(const std::string& path, int lesson, long long floats, const char* workload,
           const std::vector<cpu::LaunchProfile>& launches) {
    nlohmann::json document = {{kLesson, lesson},
                               {kFloats, floats},
                               {kWorkload, workload},
                               {kLaunches, nlohmann::json::array()}};
    for (const cpu::LaunchProfile& launch : launches) document[kLaunches].push_back(launch_record(launch));
    std::ofstream out(path);
    out << document.dump() << "\n";
    if (out) return true;
    std::fprintf(stderr, "cannot write the profile record %s\n", path.c_str());
    return false;
}

}  // namespace warpdrill::profile_record
