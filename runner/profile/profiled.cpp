#include "profiled.h"

#include <fmt/core.h>

#include "bench_csv.h"
#include "warpdrill/messages.h"

namespace warpdrill::runner {
namespace {

// gpu_bench's median time for "lesson N" at that many floats, the GPU's time
// alone, which the model imitates (results/bench-h100.csv).
std::optional<double> bench_time_us(const fs::path& csv, int lesson, long long floats) {
    for (const BenchRow& row : read_bench_csv(csv)) {
        if (row.kernel == fmt::format("lesson {}", lesson) && row.floats == floats) return row.gpu_us;
    }
    return std::nullopt;
}

}  // namespace

const std::map<std::string, double>* Profiled::ncu_launch(std::size_t launch, const NcuTable* table) const {
    if (!table) return nullptr;
    const std::pair key{counts.lesson, static_cast<int>(launch) + 1};
    const auto found = table->metrics.find(key);
    // Only the same kernel is worth quoting (a learner's kernel may be launched differently).
    const auto kernel = table->kernels.find(key);
    if (found == table->metrics.end() || kernel == table->kernels.end() ||
        !kernel->second.starts_with(
            counts.launches[launch].kernel.substr(0, counts.launches[launch].kernel.find('<')))) {
        return nullptr;
    }
    return &found->second;
}

Profiled model(const Lesson& lesson, LessonCounts counts, const GpuSpec& gpu) {
    Profiled profiled{&lesson, std::move(counts), {}, 0};
    for (const LaunchCounts& launch : profiled.counts.launches) {
        profiled.estimates.push_back(estimate_launch(launch, gpu, profiled.estimates.empty()));
        profiled.total_us += profiled.estimates.back().total_us;
    }
    return profiled;
}

Traffic traffic(const LessonCounts& counts) {
    if (counts.workload == "ring_add") return {12, messages::text("profile.traffic.ring")};
    return {4, messages::text("profile.traffic.input")};
}

double modelled_gbps(const Profiled& profiled) {
    const double bytes = profiled.counts.floats * traffic(profiled.counts).bytes_per_float;
    return profiled.total_us > 0 ? bytes / (profiled.total_us * 1e3) : 0.0;
}

std::string ncu_results_file(const GpuSpec& gpu) { return "results/ncu-" + gpu.key + ".csv"; }

std::optional<double> benched_us(const Profiled& profiled, const GpuSpec& gpu, const App& app) {
    if (gpu.key != "h100") return std::nullopt;
    return bench_time_us(app.course.root / "results" / "bench-h100.csv", profiled.lesson->number,
                         profiled.counts.floats);
}

}  // namespace warpdrill::runner
