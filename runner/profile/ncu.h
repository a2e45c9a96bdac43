// Nsight Compute's numbers for `warpdrill profile`: the table that
// scripts/ncu-table.sh keeps in results/, and ncu run on this machine's GPU.
#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "course.h"

namespace warpdrill::runner {

// ncu's metrics by lesson and launch (from 1), and where they come from.
struct NcuTable {
    std::string device;   // "NVIDIA H100 80GB HBM3, driver 580.95.05, ..."
    std::string date;     // "2026-11-23"
    std::string command;  // what measured them
    std::string source;   // one line for the reader: what was measured, where and how
    std::map<std::pair<int, int>, std::string> kernels;
    std::map<std::pair<int, int>, std::map<std::string, double>> metrics;

    const std::map<std::string, double>* launch(int lesson, int number) const;
};

// results/ncu-<gpu>.csv, written by scripts/ncu-table.sh: `# device:`,
// `# date:` and `# command:` lines, then a CSV table `lesson,launch,kernel,
// <metric>...` of every lesson's solution. Nothing when the course has none.
std::optional<NcuTable> read_ncu_table(const fs::path& file);

// ncu run on a profile driver: its table, or one line that says why there is none.
struct NcuRun {
    std::optional<NcuTable> table;
    std::string problem;  // ncu missing, the counters not readable, the driver failed
};

struct NcuRequest {
    int lesson = 0;
    std::string what;                  // "your kernel", "the solution's kernel"
    std::vector<std::string> program;  // the driver and its arguments
    std::vector<std::string> metrics;
    fs::path log;  // ncu's CSV goes here
    std::chrono::seconds time_limit{600};
};
NcuRun run_ncu(const NcuRequest& request);

// Splits one line of a CSV file (quotes hold commas).
std::vector<std::string> split_csv(const std::string& line);
// A number in one of ncu's cells; nothing where it gave none ("", "n/a").
std::optional<double> cell_value(const std::string& text);

}  // namespace warpdrill::runner
