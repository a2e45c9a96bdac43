#include "metric_table.h"

#include <toml++/toml.h>

#include <algorithm>
#include <stdexcept>

namespace warpdrill::runner {
namespace {

Metric read_metric(const toml::table& entry) {
    const auto key = entry["key"].value<std::string>();
    if (!key) throw std::runtime_error("an entry without its key");
    return {.key = *key,
            .ncu = entry["ncu"].value_or(std::string()),
            .basis = entry["basis"].value_or(std::string()),
            .agrees = entry["agrees"].value_or(std::string()),
            .decimals = entry["decimals"].value_or(0),
            .ncu_scale = entry["ncu_scale"].value_or(1.0),
            .count = entry["count"].value_or(false),
            .rare = entry["rare"].value_or(false)};
}

}  // namespace

std::vector<Metric> parse_metric_table(std::string_view text, std::string_view source) {
    try {
        const toml::table document = toml::parse(text, source);
        const toml::array* entries = document["metric"].as_array();
        if (!entries) throw std::runtime_error("no [[metric]] entries");
        std::vector<Metric> table;
        for (const toml::node& entry : *entries) {
            if (!entry.is_table()) throw std::runtime_error("a metric that is not a table");
            table.push_back(read_metric(*entry.as_table()));
        }
        return table;
    } catch (const std::exception& error) {  // toml::parse_error among them
        throw std::runtime_error(std::string(source) + ": " + error.what());
    }
}

const Metric& metric(const std::vector<Metric>& table, std::string_view key) {
    const auto found = std::ranges::find(table, key, &Metric::key);
    if (found == table.end())
        throw std::out_of_range("no metric " + std::string(key) + " in runner/profile/metrics.toml");
    return *found;
}

}  // namespace warpdrill::runner
