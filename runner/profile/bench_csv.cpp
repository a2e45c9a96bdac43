#include "bench_csv.h"

#include <algorithm>
#include <fstream>
#include <map>

#include "ncu.h"

namespace warpdrill::runner {

std::vector<BenchRow> read_bench_csv(const fs::path& file) {
    std::ifstream in(file);
    std::string header;
    if (!std::getline(in, header)) return {};
    std::map<std::string, std::size_t> column;
    const std::vector<std::string> names = split_csv(header);
    for (std::size_t c = 0; c < names.size(); ++c) column[names[c]] = c;
    for (const char* name : {"kernel", "floats", "time_us", "gpu_us", "gbps", "correct"}) {
        if (!column.contains(name)) return {};
    }
    std::vector<BenchRow> rows;
    for (std::string line; std::getline(in, line);) {
        const std::vector<std::string> fields = split_csv(line);
        if (fields.size() != names.size()) continue;
        const auto number = [&](const char* name) { return cell_value(fields[column[name]]); };
        const auto floats = number("floats"), time_us = number("time_us"), gpu_us = number("gpu_us"),
                   gbps = number("gbps");
        if (!floats || !time_us || !gpu_us || !gbps) continue;
        rows.push_back({fields[column["kernel"]], static_cast<long long>(*floats), *time_us, *gpu_us, *gbps,
                        fields[column["correct"]] == "yes"});
    }
    return rows;
}

}  // namespace warpdrill::runner
