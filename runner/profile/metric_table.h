// The profile's metrics as runner/profile/metrics.toml writes them once: what
// each is called, Nsight Compute's metric for it, and how the profile shows
// it. The runner reads the copy compiled into it (profile_table.cpp); the
// backend's tests read the file (cpu-cuda/tests/profile_patterns.cu).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace warpdrill::runner {

// One [[metric]] of the table (its header says what each field means).
struct Metric {
    std::string key{};
    std::string ncu{};     // "" where ncu has no metric for it
    std::string basis{};   // "" where it is not a row of the profile
    std::string agrees{};  // "exactly", "with_load_excess", or "" where the tests do not compare it
    int decimals = 0;
    double ncu_scale = 1;
    bool count = false;
    bool rare = false;
};

// The entries of a metrics.toml's `text`, in its order; throws
// std::runtime_error, naming `source`, where it is not one.
std::vector<Metric> parse_metric_table(std::string_view text, std::string_view source);

// The entry `key` of `table`; throws std::out_of_range where it has none.
const Metric& metric(const std::vector<Metric>& table, std::string_view key);

}  // namespace warpdrill::runner
