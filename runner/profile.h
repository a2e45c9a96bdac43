// `warpdrill profile N`: what the hardware does with lesson N's kernel, counted
// on the CPU backend as Nsight Compute counts on a GPU, with a modelled time
// on a named GPU, and ncu's own numbers beside them where results/ holds them.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>

#include "app.h"
#include "gpu_model.h"

namespace warpdrill::runner {

// After a lesson's first pass (`warpdrill check`), on the CPU backend:
// profiles the learner's kernel and prints one line, the counters that moved
// most since the nearest earlier lesson that passed and computes the same.
void print_what_moved_on_first_pass(App& app, const Lesson& lesson);

// A table written by scripts/ncu-table.sh: ncu's metrics of every lesson's
// solution, by lesson and launch (from 1). The file: `# device:`, `# date:`
// and `# command:` lines, then a CSV table `lesson,launch,kernel,<metric>...`.
struct NcuTable {
    std::string device;   // the header's "# device:" line
    std::string date;     // "# date:"
    std::string command;  // "# command:"
    std::map<std::pair<int, int>, std::string> kernels;
    std::map<std::pair<int, int>, std::map<std::string, double>> metrics;
};

// results/ncu-<gpu>.csv, when the course has one.
std::optional<NcuTable> read_ncu_table(const fs::path& file);

}  // namespace warpdrill::runner
