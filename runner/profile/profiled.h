// A lesson's profile: the CPU backend's counts of its launches and the time
// model's estimate of each on a GPU, and the measurements in results/ that
// are set beside them.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "app.h"
#include "gpu_model.h"
#include "ncu.h"

namespace warpdrill::runner {

struct Profiled {
    const Lesson* lesson = nullptr;
    LessonCounts counts;
    std::vector<LaunchEstimate> estimates;
    double total_us = 0;
    const std::map<std::string, double>* ncu_launch(std::size_t launch, const NcuTable* table) const;
};

// The model's estimate of each of the lesson's launches on `gpu`.
Profiled model(const Lesson& lesson, LessonCounts counts, const GpuSpec& gpu);

// What a lesson's GB/s count, per float of its size: a sum's (or ReduceScale's)
// input read; lesson 13's add reads dst and src and writes dst, three floats'
// worth, as a copy's GB/s counts its reads and writes.
struct Traffic {
    double bytes_per_float;
    std::string words;  // what the GB/s are of, as the learner reads it
};
Traffic traffic(const LessonCounts& counts);

// The lesson's modelled bandwidth, in GB/s of what traffic() says it moves.
double modelled_gbps(const Profiled& profiled);

// scripts/ncu-table.sh's table of every solution, measured on that GPU.
std::string ncu_results_file(const GpuSpec& gpu);

// gpu_bench's time for the lesson at the profiled size on an H100, the GPU's
// time alone (what the model imitates; results/bench-h100.csv); none on
// other GPUs.
std::optional<double> benched_us(const Profiled& profiled, const GpuSpec& gpu, const App& app);

}  // namespace warpdrill::runner
