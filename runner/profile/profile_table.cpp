#include "profile_table.h"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "metric_table.h"
#include "metric_table_text.h"
#include "warpdrill/messages.h"

namespace warpdrill::runner {
namespace {

// One line of the table: what it counts in plain words, ncu's metric for it
// (only where the row counts what that metric counts), and its value for a
// launch, with what that value is when it is not a count of what the
// hardware would do. A row with no value is ncu's alone: what the GPU
// measures and the CPU backend cannot see. Each row is an entry of
// runner/profile/metrics.toml, which says what its fields mean.
using RowValue = std::function<double(const LaunchCounts&, const LaunchEstimate&)>;
struct Row {
    std::string key{};
    std::string words{};
    std::string ncu_metric{};
    RowValue value{};
    std::string basis{};  // "": counted; "*" or profile.basis.estimated: over what the backend observes;
                          // profile.basis.model; "ncu" (profile.observed_note explains each)
    int decimals = 0;
    double ncu_scale = 1;  // ncu's unit to the row's (ns to us)
    bool count = false;    // a count of events, not a ratio or a modelled figure
    bool rare = false;     // shown only where not 0: what lessons 10 to 12 add
};

// runner/profile/metrics.toml, as compiled in.
const std::vector<Metric>& metric_table() {
    static const std::vector<Metric> table =
        parse_metric_table(kMetricTableText, "runner/profile/metrics.toml");
    return table;
}

double sectors_per_request(const LaunchCounts& launch, const LaunchEstimate&) {
    const double requests = launch.value("global_load_requests");
    return requests > 0 ? launch.value("global_load_sectors") / requests : 0.0;
}

// The rows whose figure the runner works out from the backend's counts or
// the model, by key; every other row but ncu's reads the count of its key.
const std::map<std::string, RowValue, std::less<>>& worked_out() {
    using Counts = const LaunchCounts&;
    using Estimate = const LaunchEstimate&;
    static const std::map<std::string, RowValue, std::less<>> values = {
        {"sectors_per_request", sectors_per_request},
        {"active_lanes", [](Counts l, Estimate) { return l.average_active_threads(); }},
        {"partial_instructions", [](Counts l, Estimate) { return l.partial_instructions(); }},
        {"instructions", [](Counts l, Estimate) { return l.observed_instructions(); }},
        {"occupancy", [](Counts, Estimate e) { return 100 * e.occupancy; }},
        {"dram_bytes_read", [](Counts, Estimate e) { return e.dram_bytes_read; }},
        {"dram_bytes_written", [](Counts, Estimate e) { return e.dram_bytes_written; }},
        {"time_with_launch", [](Counts, Estimate e) { return e.total_us; }},
    };
    return values;
}

// A row's figure on the CPU backend's side: none for ncu's own rows.
RowValue value_of(const Metric& metric) {
    if (metric.basis == "ncu") return {};
    if (const auto found = worked_out().find(metric.key); found != worked_out().end()) return found->second;
    if (metric.basis != "counted")
        throw std::logic_error(metric.key + ": runner/profile/metrics.toml's row that nothing works out");
    return [key = metric.key](const LaunchCounts& launch, const LaunchEstimate&) {
        return launch.value(key);
    };
}

// The mark beside a row's figure.
std::string basis_mark(const Metric& metric) {
    if (metric.basis == "counted") return "";
    if (metric.basis == "observed") return "*";
    if (metric.basis == "estimated") return messages::text("profile.basis.estimated");
    if (metric.basis == "model") return messages::text("profile.basis.model");
    if (metric.basis == "ncu") return "ncu";
    throw std::logic_error(metric.key + ": no basis \"" + metric.basis + "\" (runner/profile/metrics.toml)");
}

// The table's entries that are rows of the profile, in its order (the
// others are what ncu measures for the tests and the book).
const std::vector<Row>& rows() {
    static const std::vector<Row> table = [] {
        std::vector<Row> rows;
        for (const Metric& metric : metric_table()) {
            if (metric.basis.empty()) continue;
            rows.push_back({.key = metric.key,
                            .words = messages::text("profile.row." + metric.key),
                            .ncu_metric = metric.ncu,
                            .value = value_of(metric),
                            .basis = basis_mark(metric),
                            .decimals = metric.decimals,
                            .ncu_scale = metric.ncu_scale,
                            .count = metric.count,
                            .rare = metric.rare});
        }
        return rows;
    }();
    return table;
}

// 1234567 -> "1,234,567"; fractions with `decimals` places.
std::string number(double value, int decimals = 0) {
    if (decimals > 0) return fmt::format("{:.{}f}", value, decimals);
    std::string digits = fmt::format("{:.0f}", std::abs(value));
    for (int at = static_cast<int>(digits.size()) - 3; at > 0; at -= 3)
        digits.insert(static_cast<std::size_t>(at), ",");
    return (value < 0 ? "-" : "") + digits;
}

std::string json_number(double value) { return std::isfinite(value) ? fmt::format("{}", value) : "null"; }

// {"name": value, ...}: a launch's counts, or ncu's metrics.
std::string json_numbers(const std::map<std::string, double>& values) {
    std::string text;
    for (const auto& [name, value] : values)
        text += fmt::format("{}\"{}\": {}", text.empty() ? "" : ", ", json_escape(name), json_number(value));
    return "{" + text + "}";
}

std::string shape(const LaunchCounts& launch) {
    const auto dims = [](const std::array<unsigned, 3>& d) {
        return d[1] * d[2] == 1 ? std::to_string(d[0]) : fmt::format("({}, {}, {})", d[0], d[1], d[2]);
    };
    const double shared = launch.value("dynamic_shared_bytes") + launch.value("static_shared_bytes");
    return fmt::format("{}<<<{}, {}>>>{}", launch.kernel, dims(launch.grid), dims(launch.block),
                       shared > 0 ? messages::text("profile.shared_bytes", {{"bytes", number(shared)}}) : "");
}

// "shared loads 36,864 instructions, 73,728 wavefronts, 36,864 bank conflicts; ..." for
// one source line's counts, the kinds of access it makes only.
std::string line_counts(const std::map<std::string, double>& counts) {
    const auto get = [&](const std::string& name) {
        const auto found = counts.find(name);
        return found == counts.end() ? 0.0 : found->second;
    };
    std::string text;
    for (const auto& [id, key, shared] : {std::tuple{"profile.line.global_loads", "global_load", false},
                                          {"profile.line.global_stores", "global_store", false},
                                          {"profile.line.shared_loads", "shared_load", true},
                                          {"profile.line.shared_stores", "shared_store", true}}) {
        const std::string prefix(key);
        const double accesses = get(prefix + (shared ? "_instructions" : "_requests"));
        if (accesses == 0) continue;
        if (!text.empty()) text += "; ";
        text += shared ? messages::text(id, {{"instructions", number(accesses)},
                                             {"wavefronts", number(get(prefix + "_wavefronts"))},
                                             {"conflicts", number(get(prefix + "_bank_conflicts"))}})
                       : messages::text(id, {{"requests", number(accesses)},
                                             {"sectors", number(get(prefix + "_sectors"))}});
    }
    return text;
}

// "64 times a warp reached it, 47 of them divergent (...)" for one branch.
std::string branch_counts(const BranchCounts& branch) {
    if (branch.divergent == 0)
        return messages::text("profile.branch.uniform", {{"evaluations", number(branch.evaluations)}});
    return messages::text("profile.branch.divergent",
                          {{"evaluations", number(branch.evaluations)},
                           {"divergent", number(branch.divergent)},
                           {"taken", number(branch.lanes_taken / branch.divergent, 1)},
                           {"not_taken", number(branch.lanes_not_taken / branch.divergent, 1)}});
}

// ---- the table ------------------------------------------------------------------------

// ncu's figure for a row in one launch, in the row's unit.
std::optional<double> ncu_value(const std::map<std::string, double>* measured, const Row& row) {
    if (!measured || row.ncu_metric.empty()) return std::nullopt;
    const auto found = measured->find(row.ncu_metric);
    if (found == measured->end()) return std::nullopt;
    return found->second * row.ncu_scale;
}

void print_row(const std::string& words, const std::string& counted, const std::string& basis,
               const std::string& measured, const std::string& metric) {
    fmt::print("  {:<44} {:>14} {:<5} {:>14}  {}\n", words, counted, basis, measured, metric);
}

void print_profile(const Profiled& profiled, const ProfileOptions& options, const GpuSpec& gpu,
                   const App& app, const NcuTable* table) {
    const Lesson& lesson = *profiled.lesson;
    fmt::print("{}\n", messages::text(options.solution ? "profile.title.solution" : "profile.title.yours",
                                      {{"lesson", lesson.number},
                                       {"title", lesson.title},
                                       {"floats", floats_text(profiled.counts.floats)},
                                       {"gpu", gpu.name}}));
    if (table && table->launch(lesson.number, 1)) {
        fmt::print("ncu: {}\n", table->source);
    } else if (table) {
        fmt::print("{}\n", messages::text("profile.ncu_missing",
                                          {{"file", ncu_results_file(gpu)}, {"lesson", lesson.number}}));
    }
    for (std::size_t l = 0; l < profiled.counts.launches.size(); ++l) {
        const LaunchCounts& launch = profiled.counts.launches[l];
        const auto* measured = profiled.ncu_launch(l, table);
        fmt::print("\n{}\n", messages::text("profile.launch", {{"number", l + 1},
                                                              {"count", profiled.counts.launches.size()},
                                                              {"shape", shape(launch)}}));
        if (!launch.race.empty()) {
            fmt::print("{}\n{}\n\n", messages::text("profile.race"), launch.race);
        }
        print_row("", messages::text("profile.column.cpu"), "", measured ? "ncu" : "",
                  messages::text("profile.column.metric"));
        for (const Row& row : rows()) {
            const std::optional<double> quoted = ncu_value(measured, row);
            if (!row.value) {
                if (quoted)
                    print_row(row.words, "", row.basis, number(*quoted, row.decimals), row.ncu_metric);
                continue;
            }
            const double value = row.value(launch, profiled.estimates[l]);
            if (row.rare && value == 0) continue;
            print_row(row.words, number(value, row.decimals), row.basis,
                      quoted ? number(*quoted, row.decimals) : "", row.ncu_metric);
        }
        const LaunchEstimate& e = profiled.estimates[l];
        const auto us = [](double value) { return fmt::format("{:.1f}", value); };
        fmt::print("  {}\n",
                   messages::text_of_case(e.waves == 1 ? "profile.model.one_wave" : "profile.model.waves",
                                          {{"blocks", e.blocks_per_sm},
                                           {"waves", e.waves},
                                           {"launch", us(e.launch_us)},
                                           {"dram", us(e.dram_us)},
                                           {"issue", us(e.issue_us)},
                                           {"shared", us(e.shared_us)},
                                           {"dispatch", us(e.dispatch_us)},
                                           {"wait", us(e.load_wait_us)},
                                           {"waves_latency", us(e.waves_us)},
                                           {"latency", us(e.block_latency_us)},
                                           {"finish", us(e.finish_us)}}));
        if (!launch.sources.empty()) fmt::print("  {}\n", messages::text("profile.by_source_line"));
        for (const auto& [place, counts] : launch.sources)
            fmt::print("    {}: {}\n", place, line_counts(counts));
        if (!launch.branches.empty()) fmt::print("  {}\n", messages::text("profile.by_source_branch"));
        for (const BranchCounts& branch : launch.branches)
            fmt::print("    {} ({}): {}\n", branch.place, branch.statement, branch_counts(branch));
    }
    fmt::print("\n{}\n", messages::text("profile.observed_note"));
    fmt::print("\n{}", messages::text("profile.all_launches", {{"count", profiled.counts.launches.size()},
                                                              {"us", fmt::format("{:.1f}", profiled.total_us)},
                                                              {"gpu", gpu.key},
                                                              {"gbps", fmt::format("{:.0f}", modelled_gbps(profiled))},
                                                              {"traffic", traffic(profiled.counts).words}}));
    if (const auto benched = benched_us(profiled, gpu, app)) {
        fmt::print("{}", messages::text("profile.benched", {{"us", fmt::format("{:.1f}", *benched)}}));
        // Where both are the solution's, their ratio is the model's error.
        if (options.solution) {
            fmt::print("{}", messages::text("profile.model_share",
                                            {{"share", fmt::format("{:.2f}", profiled.total_us / *benched)}}));
        }
    }
    fmt::print("\n");
}

void print_json(const std::vector<Profiled>& all, const ProfileOptions& options, const GpuSpec& gpu,
                const NcuTable* table) {
    fmt::print(
        "{{\"gpu\": \"{}\", \"gpu_name\": \"{}\", \"kernel_files\": \"{}\", \"ncu_source\": {}, "
        "\"lessons\": [",
        gpu.key, json_escape(gpu.name), options.solution ? "solution" : "learner",
        table ? "\"" + json_escape(table->source) + "\"" : "null");
    for (std::size_t p = 0; p < all.size(); ++p) {
        const Profiled& profiled = all[p];
        fmt::print("{}\n  {{\"lesson\": {}, \"floats\": {}, \"time_us\": {}, \"gbps\": {}, \"launches\": [",
                   p ? "," : "", profiled.counts.lesson, profiled.counts.floats,
                   json_number(profiled.total_us), json_number(modelled_gbps(profiled)));
        for (std::size_t l = 0; l < profiled.counts.launches.size(); ++l) {
            const LaunchCounts& launch = profiled.counts.launches[l];
            const LaunchEstimate& e = profiled.estimates[l];
            fmt::print(
                "{}\n    {{\"kernel\": \"{}\", \"grid\": [{}, {}, {}], \"block\": [{}, {}, {}], \"counts\": "
                "{},\n     \"sources\": {{",
                l ? "," : "", json_escape(launch.kernel), launch.grid[0], launch.grid[1], launch.grid[2],
                launch.block[0], launch.block[1], launch.block[2], json_numbers(launch.values));
            bool first = true;
            for (const auto& [place, counts] : launch.sources) {
                fmt::print("{}\"{}\": {}", first ? "" : ", ", json_escape(place), json_numbers(counts));
                first = false;
            }
            fmt::print("}},\n     \"branches\": [");
            for (std::size_t b = 0; b < launch.branches.size(); ++b) {
                const BranchCounts& branch = launch.branches[b];
                fmt::print(
                    "{}{{\"place\": \"{}\", \"statement\": \"{}\", \"evaluations\": {}, \"divergent\": {}, "
                    "\"lanes_taken\": {}, \"lanes_not_taken\": {}}}",
                    b ? ", " : "", json_escape(branch.place), branch.statement,
                    json_number(branch.evaluations), json_number(branch.divergent),
                    json_number(branch.lanes_taken), json_number(branch.lanes_not_taken));
            }
            fmt::print(
                "],\n     \"model\": {{\"blocks_per_sm\": {}, \"occupancy\": {}, \"waves\": {}, "
                "\"dram_bytes_read\": {}, \"dram_bytes_written\": {}, \"launch_us\": {}, \"dram_us\": {}, "
                "\"issue_us\": {}, \"shared_us\": {}, \"dispatch_us\": {}, "
                "\"load_wait_us\": {}, \"block_latency_us\": {}, \"waves_us\": {}, \"finish_us\": {}, "
                "\"time_us\": {}}}",
                e.blocks_per_sm, json_number(e.occupancy), e.waves, json_number(e.dram_bytes_read),
                json_number(e.dram_bytes_written), json_number(e.launch_us), json_number(e.dram_us),
                json_number(e.issue_us), json_number(e.shared_us), json_number(e.dispatch_us),
                json_number(e.load_wait_us), json_number(e.block_latency_us), json_number(e.waves_us),
                json_number(e.finish_us), json_number(e.total_us));
            if (const auto* measured = profiled.ncu_launch(l, table))
                fmt::print(",\n     \"ncu\": {}", json_numbers(*measured));
            fmt::print("}}");
        }
        fmt::print("]}}");
    }
    fmt::print("]}}\n");
}

// ---- comparing two lessons -------------------------------------------------------------

// A lesson's launches as one: counts summed, so that ratios weigh each launch
// by its instructions; the model's figures summed, occupancy averaged over time.
std::pair<LaunchCounts, LaunchEstimate> all_launches(const Profiled& profiled) {
    LaunchCounts counts;
    LaunchEstimate estimate;
    for (std::size_t l = 0; l < profiled.counts.launches.size(); ++l) {
        for (const auto& [name, value] : profiled.counts.launches[l].values) counts.values[name] += value;
        const LaunchEstimate& e = profiled.estimates[l];
        estimate.dram_bytes_read += e.dram_bytes_read;
        estimate.dram_bytes_written += e.dram_bytes_written;
        estimate.total_us += e.total_us;
        estimate.occupancy += e.occupancy * e.total_us;  // weighed by time, as ncu's is
    }
    if (estimate.total_us > 0) estimate.occupancy /= estimate.total_us;
    return {counts, estimate};
}

// A row's figure over all of a lesson's launches: the CPU backend's, or
// ncu's (nothing unless ncu measured every launch).
using Total = std::function<std::optional<double>(const Profiled&, const Row&)>;

std::optional<double> counted_total(const Profiled& profiled, const Row& row) {
    if (!row.value) return std::nullopt;
    const auto [counts, estimate] = all_launches(profiled);
    return row.value(counts, estimate);
}

// ncu's counts are summed; its active threads per instruction weighed by
// instructions, its occupancy by time.
Total measured_total(const NcuTable* table) {
    return [table](const Profiled& profiled, const Row& row) -> std::optional<double> {
        if (!table || row.ncu_metric.empty()) return std::nullopt;
        const bool summed = row.ncu_metric.ends_with(".sum");
        const bool per_instruction = row.ncu_metric.find("per_inst") != std::string::npos;
        const char* weight = per_instruction ? "instructions" : "kernel_duration";
        const std::string& weight_metric = metric(metric_table(), weight).ncu;
        double sum = 0, weights = 0;
        for (std::size_t l = 0; l < profiled.counts.launches.size(); ++l) {
            const auto* measured = profiled.ncu_launch(l, table);
            const std::optional<double> value = ncu_value(measured, row);
            if (!value) return std::nullopt;
            const auto weight = measured->find(weight_metric);
            const double w = summed || weight == measured->end() ? 1.0 : weight->second;
            sum += *value * (summed ? 1.0 : w);
            weights += w;
        }
        if (summed) return sum;
        return weights > 0 ? std::optional(sum / weights) : std::nullopt;
    };
}

// "shared stores: bank conflicts 1,425,408 -> 0; ..." for the counts that
// moved most (by ratio), at most three.
std::string moved_most(const Profiled& from, const Profiled& to, const Total& total) {
    struct Move {
        double score;
        std::string text;
    };
    std::vector<Move> moves;
    for (const Row& row : rows()) {
        if (!row.count) continue;  // ratios and the model: the time is said apart
        const std::optional<double> a = total(from, row);
        const std::optional<double> b = total(to, row);
        if (!a || !b) continue;
        const double score = std::abs(std::log((*b + 1) / (*a + 1)));
        if (score > std::log(1.1))
            moves.push_back({score, fmt::format("{} {} -> {}", row.words, number(*a), number(*b))});
    }
    std::ranges::sort(moves, std::greater{}, &Move::score);
    std::string text;
    for (std::size_t m = 0; m < std::min<std::size_t>(3, moves.size()); ++m) text += moves[m].text + "; ";
    return text;
}

void print_compare(const Profiled& a, const Profiled& b, const ProfileOptions& options, const GpuSpec& gpu,
                   const App& app, const NcuTable* table) {
    const Total measured = measured_total(table);
    const Row& time = *std::ranges::find(rows(), "kernel_duration", &Row::key);
    const std::optional<double> time_a = measured(a, time), time_b = measured(b, time);
    const bool with_ncu = time_a && time_b;
    fmt::print("{}\n", messages::text("profile.compare.title", {{"from", a.lesson->number},
                                                                {"to", b.lesson->number},
                                                                {"floats", floats_text(a.counts.floats)},
                                                                {"gpu", gpu.name}}));
    if (with_ncu) fmt::print("ncu: {}\n", table->source);
    const auto column = [](const Profiled& p, const char* id) {
        return messages::text(id, {{"lesson", p.lesson->number}});
    };
    fmt::print("  {:<44} {:>14} {:>14} {:<5} {:>14} {:>14}\n", "", column(a, "profile.column.lesson"),
               column(b, "profile.column.lesson"), "", with_ncu ? column(a, "profile.column.ncu_lesson") : "",
               with_ncu ? column(b, "profile.column.ncu_lesson") : "");
    const auto cell = [](std::optional<double> value, int decimals) {
        return value ? number(*value, decimals) : std::string();
    };
    for (const Row& row : rows()) {
        const std::optional<double> from = counted_total(a, row);
        const std::optional<double> to = counted_total(b, row);
        if (row.rare && from == 0 && to == 0) continue;
        const std::optional<double> ncu_from = with_ncu ? measured(a, row) : std::nullopt;
        const std::optional<double> ncu_to = with_ncu ? measured(b, row) : std::nullopt;
        if (!row.value && !ncu_from && !ncu_to) continue;
        fmt::print("  {:<44} {:>14} {:>14} {:<5} {:>14} {:>14}\n", row.words, cell(from, row.decimals),
                   cell(to, row.decimals), row.basis, cell(ncu_from, row.decimals),
                   cell(ncu_to, row.decimals));
    }
    fmt::print("\n{}\n\n", messages::text("profile.observed_note"));
    if (a.counts.workload != b.counts.workload) {
        fmt::print("{}\n", messages::text("profile.compare.different", {{"from", a.lesson->number},
                                                                        {"to", b.lesson->number},
                                                                        {"from_workload", a.counts.workload},
                                                                        {"to_workload", b.counts.workload}}));
        return;
    }
    fmt::print("{}\n", messages::text("profile.compare.moved_most",
                                      {{"from", a.lesson->number}, {"to", b.lesson->number}, {"moves", what_moved(a, b)}}));
    if (with_ncu) {
        fmt::print("{}\n", messages::text("profile.compare.ncu_moved", {{"moves", moved_most(a, b, measured)},
                                                                        {"from_us", fmt::format("{:.1f}", *time_a)},
                                                                        {"to_us", fmt::format("{:.1f}", *time_b)}}));
    }
    // The solutions' times measured by gpu_bench, and the model's error on each.
    const auto benched_a = benched_us(a, gpu, app), benched_b = benched_us(b, gpu, app);
    if (options.solution && benched_a && benched_b) {
        fmt::print("{}\n", messages::text("profile.compare.benched",
                                          {{"from_us", fmt::format("{:.1f}", *benched_a)},
                                           {"to_us", fmt::format("{:.1f}", *benched_b)},
                                           {"from_share", fmt::format("{:.2f}", a.total_us / *benched_a)},
                                           {"to_share", fmt::format("{:.2f}", b.total_us / *benched_b)}}));
    }
}

}  // namespace

std::string floats_text(long long floats) {
    const int log = static_cast<int>(std::log2(static_cast<double>(floats)));
    return (1LL << log) == floats ? messages::text("profile.floats", {{"count", fmt::format("2^{}", log)}})
                                  : messages::text("profile.floats", {{"count", number(floats)}});
}

std::string what_moved(const Profiled& from, const Profiled& to) {
    return moved_most(from, to, counted_total) +
           messages::text("profile.modelled_time", {{"from_us", fmt::format("{:.1f}", from.total_us)},
                                                    {"to_us", fmt::format("{:.1f}", to.total_us)}});
}

// One lesson's table, two side by side, or JSON for tools and the book.
void print_profiles(const std::vector<Profiled>& profiled, const ProfileOptions& options, const GpuSpec& gpu,
                    const App& app, const NcuTable* ncu) {
    if (options.json) {
        print_json(profiled, options, gpu, ncu);
    } else if (profiled.size() == 2) {
        print_compare(profiled[0], profiled[1], options, gpu, app, ncu);
    } else {
        print_profile(profiled[0], options, gpu, app, ncu);
    }
}

// ncu's rows alone, where the CPU backend cannot count beside them.
void print_ncu_only(const Lesson& lesson, const NcuTable& table) {
    fmt::print("{}\n", messages::text("profile.ncu_only.title",
                                      {{"lesson", lesson.number}, {"title", lesson.title}, {"source", table.source}}));
    for (int l = 1; const auto* measured = table.launch(lesson.number, l); ++l) {
        fmt::print("\n{}\n", messages::text("profile.ncu_only.launch",
                                            {{"number", l}, {"kernel", table.kernels.at({lesson.number, l})}}));
        for (const Row& row : rows()) {
            if (const std::optional<double> value = ncu_value(measured, row))
                fmt::print("  {:<44} {:>14}  {}\n", row.words, number(*value, row.decimals), row.ncu_metric);
        }
    }
}

void print_ncu_only_json(const std::vector<const Lesson*>& lessons, const NcuTable& table,
                         const std::string& no_model) {
    fmt::print("{{\"ncu_source\": \"{}\", \"model\": null, \"why_no_model\": \"{}\", \"lessons\": [",
               json_escape(table.source), json_escape(no_model));
    for (std::size_t p = 0; p < lessons.size(); ++p) {
        const int number = lessons[p]->number;
        fmt::print("{}\n  {{\"lesson\": {}, \"launches\": [", p ? "," : "", number);
        for (int l = 1; const auto* measured = table.launch(number, l); ++l) {
            fmt::print("{}\n    {{\"kernel\": \"{}\", \"ncu\": {}}}", l > 1 ? "," : "",
                       json_escape(table.kernels.at({number, l})), json_numbers(*measured));
        }
        fmt::print("]}}");
    }
    fmt::print("]}}\n");
}

std::vector<std::string> row_ncu_metrics() {
    std::vector<std::string> metrics;
    for (const Row& row : rows()) {
        if (!row.ncu_metric.empty()) metrics.push_back(row.ncu_metric);
    }
    return metrics;
}

}  // namespace warpdrill::runner
