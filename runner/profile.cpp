#include "profile.h"

#include <fmt/core.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <functional>
#include <iterator>
#include <sstream>
#include <tuple>
#include <vector>

#include "commands.h"
#include "process.h"

namespace warpdrill::runner {
namespace {

// One line of the table: what it counts in plain words, ncu's metric for it
// (empty where ncu has no single metric), and its value for a launch.
using RowValue = std::function<double(const LaunchCounts&, const LaunchEstimate&)>;
struct Row {
    std::string words{};
    std::string ncu_metric{};
    RowValue value{};
    int decimals = 0;
    double ncu_scale = 1;  // ncu's unit to the row's (ns to us)
    bool count = false;    // a count of events, not a ratio or a modelled figure
    bool rare = false;     // shown only where not 0: what lessons 10 to 12 add
};

// A count the driver printed under `key`.
Row counter(std::string words, std::string key, std::string ncu_metric = "") {
    return {.words = std::move(words),
            .ncu_metric = std::move(ncu_metric),
            .value = [key](const LaunchCounts& launch, const LaunchEstimate&) { return launch.value(key); },
            .count = true};
}

Row rare_counter(std::string words, std::string key) {
    Row row = counter(std::move(words), std::move(key));
    row.rare = true;
    return row;
}

double sectors_per_request(const LaunchCounts& launch, const LaunchEstimate&) {
    const double requests = launch.value("global_load_requests");
    return requests > 0 ? launch.value("global_load_sectors") / requests : 0.0;
}

const std::vector<Row>& rows() {
    static const std::vector<Row> table = {
        counter("global loads: requests", "global_load_requests",
                "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"),
        counter("global loads: 32-byte sectors", "global_load_sectors",
                "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
        {.words = "global loads: sectors per request", .value = sectors_per_request, .decimals = 2},
        counter("global stores: requests", "global_store_requests",
                "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"),
        counter("global stores: 32-byte sectors", "global_store_sectors",
                "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"),
        counter("shared loads: instructions", "shared_load_instructions",
                "smsp__sass_inst_executed_op_shared_ld.sum"),
        counter("shared loads: wavefronts", "shared_load_wavefronts",
                "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"),
        counter("shared loads: bank conflicts", "shared_load_bank_conflicts",
                "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"),
        counter("shared stores: instructions", "shared_store_instructions",
                "smsp__sass_inst_executed_op_shared_st.sum"),
        counter("shared stores: wavefronts", "shared_store_wavefronts",
                "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"),
        counter("shared stores: bank conflicts", "shared_store_bank_conflicts",
                "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"),
        {.words = "active threads per warp instruction*",
         .ncu_metric = "smsp__thread_inst_executed_per_inst_executed.ratio",
         .value = [](const LaunchCounts& l, const LaunchEstimate&) { return l.average_active_threads(); },
         .decimals = 1},
        {.words = "warp instructions with < 32 active lanes*",
         .value = [](const LaunchCounts& l, const LaunchEstimate&) { return l.partial_instructions(); },
         .count = true},
        counter("block barriers (__syncthreads)", "block_barriers"),
        rare_counter("grid barriers (grid.sync, per block)", "grid_syncs"),
        rare_counter("cluster barriers (cluster.sync, per block)", "cluster_syncs"),
        counter("barrier instructions (one per warp)", "barrier_instructions"),
        counter("warp syncs (__syncwarp)", "warp_syncs"),
        counter("shuffles", "shuffles"),
        rare_counter("warp reductions (__reduce_*_sync)", "warp_reductions"),
        counter("votes", "votes"),
        counter("atomics (threads)", "atomics"),
        {.words = "instructions executed (estimate*)",
         .ncu_metric = "smsp__inst_executed.sum",
         .value = [](const LaunchCounts& l, const LaunchEstimate&) { return l.observed_instructions(); },
         .count = true},
        {.words = "achieved occupancy, % (model)",
         .ncu_metric = "sm__warps_active.avg.pct_of_peak_sustained_active",
         .value = [](const LaunchCounts&, const LaunchEstimate& e) { return 100 * e.occupancy; }},
        {.words = "DRAM bytes (model: sectors x 32)",
         .ncu_metric = "dram__bytes_read.sum",
         .value = [](const LaunchCounts&, const LaunchEstimate& e) { return e.dram_bytes; }},
        {.words = "time, us (model)",
         .ncu_metric = "gpu__time_duration.sum",
         .value = [](const LaunchCounts&, const LaunchEstimate& e) { return e.total_us; },
         .decimals = 1,
         .ncu_scale = 1e-3},
    };
    return table;
}

constexpr const char* kObservedNote =
    "* over the loads, stores and sync points the CPU backend observes; ncu also counts arithmetic, "
    "address math and branches, which it does not see";

// 1234567 -> "1,234,567"; fractions with `decimals` places.
std::string number(double value, int decimals = 0) {
    if (decimals > 0) return fmt::format("{:.{}f}", value, decimals);
    std::string digits = fmt::format("{:.0f}", std::abs(value));
    for (int at = static_cast<int>(digits.size()) - 3; at > 0; at -= 3)
        digits.insert(static_cast<std::size_t>(at), ",");
    return (value < 0 ? "-" : "") + digits;
}

std::string json_number(double value) { return std::isfinite(value) ? fmt::format("{}", value) : "null"; }

std::string shape(const LaunchCounts& launch) {
    const auto dims = [](const std::array<unsigned, 3>& d) {
        return d[1] * d[2] == 1 ? std::to_string(d[0]) : fmt::format("({}, {}, {})", d[0], d[1], d[2]);
    };
    const double shared = launch.value("dynamic_shared_bytes") + launch.value("static_shared_bytes");
    return fmt::format("{}<<<{}, {}>>>{}", launch.kernel, dims(launch.grid), dims(launch.block),
                       shared > 0 ? fmt::format(", {} B shared", number(shared)) : "");
}

std::string floats_text(long long floats) {
    const int log = static_cast<int>(std::log2(static_cast<double>(floats)));
    return (1LL << log) == floats ? fmt::format("2^{} floats", log)
                                  : fmt::format("{} floats", number(floats));
}

// "shared loads 36,864 instructions, 73,728 wavefronts, 36,864 bank conflicts; ..." for
// one source line's counts, the kinds of access it makes only.
std::string line_counts(const std::map<std::string, double>& counts) {
    const auto get = [&](const std::string& name) {
        const auto found = counts.find(name);
        return found == counts.end() ? 0.0 : found->second;
    };
    std::string text;
    for (const auto& [words, key, shared] : {std::tuple{"global loads", "global_load", false},
                                             {"global stores", "global_store", false},
                                             {"shared loads", "shared_load", true},
                                             {"shared stores", "shared_store", true}}) {
        const std::string prefix(key);
        if (shared) {
            const double instructions = get(prefix + "_instructions");
            if (instructions == 0) continue;
            text += fmt::format("{}{} {} instructions, {} wavefronts, {} bank conflicts", text.empty() ? "" : "; ",
                                words, number(instructions), number(get(prefix + "_wavefronts")),
                                number(get(prefix + "_bank_conflicts")));
        } else {
            const double requests = get(prefix + "_requests");
            if (requests == 0) continue;
            text += fmt::format("{}{} {} requests, {} sectors", text.empty() ? "" : "; ", words, number(requests),
                                number(get(prefix + "_sectors")));
        }
    }
    return text;
}

// ---- measurements in results/ ----------------------------------------------------

std::vector<std::string> split_csv(const std::string& line) {
    std::vector<std::string> fields;
    std::string field;
    bool quoted = false;
    for (char c : line) {
        if (c == '"') {
            quoted = !quoted;
        } else if (c == ',' && !quoted) {
            fields.push_back(field);
            field.clear();
        } else {
            field += c;
        }
    }
    fields.push_back(field);
    return fields;
}

// A number in one of ncu's cells; nothing where it gave none ("", "n/a").
std::optional<double> cell_value(const std::string& text) {
    double value = 0;
    const char* end = text.data() + text.size();
    const auto [stop, error] = std::from_chars(text.data(), end, value);
    return error == std::errc{} && stop == end && !text.empty() ? std::optional(value) : std::nullopt;
}

// gpu_bench's median time for "lesson N" at that many floats (results/bench-h100.csv).
std::optional<double> bench_time_us(const fs::path& csv, int lesson, long long floats) {
    std::ifstream in(csv);
    for (std::string line; std::getline(in, line);) {
        const std::vector<std::string> fields = split_csv(line);  // kernel,idea,floats,time_us,gbps,correct
        if (fields.size() == 6 && fields[0] == fmt::format("lesson {}", lesson) &&
            fields[2] == std::to_string(floats)) {
            return std::stod(fields[3]);
        }
    }
    return std::nullopt;
}

// ---- running the driver -----------------------------------------------------------

std::string driver_target(const App& app, const Lesson& lesson, bool solution) {
    return "profile-" + (solution ? "solution-" + lesson.name.substr(0, 2) : app.course.target(lesson));
}

// How a lesson is to be counted.
struct CountRequest {
    bool solution = false;           // the solution's kernel files, not the learner's
    long long floats = ProfileOptions{}.floats;
    bool checked = false;            // the learner's lesson has just passed its checks
    bool quiet = false;              // say nothing when it cannot be counted
};

// Lesson N's profile driver, built, or nothing after saying why (what
// `warpdrill check` says about a learner's lesson that does not pass).
std::optional<fs::path> built_driver(App& app, const Lesson& lesson, const CountRequest& request) {
    if (request.solution && !lesson.has_solution) {
        if (!request.quiet) fmt::print("This copy of the course has no solutions/ (your instructor keeps them).\n");
        return std::nullopt;
    }
    if (!request.solution && !request.checked) {
        const CheckResult result = app.check(lesson);
        if (result.outcome != Outcome::passed) {
            print_result(app, lesson, result);
            fmt::print("\nwarpdrill profile measures a lesson once its checks pass.\n");
            return std::nullopt;
        }
    }
    const std::string target = driver_target(app, lesson, request.solution);
    const ProcessResult build = run_process(
        {"cmake", "--build", app.course.build_dir.string(), "--target", target}, std::chrono::seconds(900));
    if (build.exit_code != 0) {
        if (!request.quiet) fmt::print("{}", trim_compiler_output(build.output, app.course, lesson));
        return std::nullopt;
    }
    return app.course.build_dir / target;
}

// Where the counts of the learner's kernel, at the standard size on the
// H100's grid, are kept for `warpdrill check` to compare the next lesson with.
fs::path counts_cache(const App& app, const Lesson& lesson) {
    return app.course.root / ".progress" / "profile" / (lesson.name + ".txt");
}

// The cached counts, unless the learner has edited the lesson's files since.
std::optional<LessonCounts> cached_counts(const App& app, const Lesson& lesson) {
    const fs::path cache = counts_cache(app, lesson);
    std::error_code error;
    const auto counted = fs::last_write_time(cache, error);
    if (error) return std::nullopt;
    for (const fs::path& file : lesson.edit_files) {
        if (fs::last_write_time(file, error) > counted || error) return std::nullopt;
    }
    std::ifstream in(cache);
    try {
        return parse_driver_output(std::string(std::istreambuf_iterator<char>(in), {}));
    } catch (const std::runtime_error&) {
        return std::nullopt;  // damaged: counted again when needed
    }
}

// The counts of lesson N's launches on the CPU backend, or nothing after saying why.
std::optional<LessonCounts> count_lesson(App& app, const Lesson& lesson, const CountRequest& request,
                                         const GpuSpec& gpu) {
    const std::optional<fs::path> driver = built_driver(app, lesson, request);
    if (!driver) return std::nullopt;
    // The grid of lessons 8 and 10 depends on the GPU's multiprocessors: those of the modelled one.
    const ProcessResult run = run_process({driver->string(), "--floats", std::to_string(request.floats),
                                           "--multiprocessors", std::to_string(gpu.multiprocessors)},
                                          app.check_options.time_limit);
    if (run.exit_code != 0) {
        if (!request.quiet)
            fmt::print("The profile run of lesson {} {}:\n{}", lesson.number,
                       run.timed_out ? "did not finish in time" : "failed", run.output);
        return std::nullopt;
    }
    if (!request.solution && request.floats == ProfileOptions{}.floats && gpu.key == "h100") {
        fs::create_directories(counts_cache(app, lesson).parent_path());
        std::ofstream(counts_cache(app, lesson)) << run.output;
    }
    return parse_driver_output(run.output);
}

struct Profiled {
    const Lesson* lesson = nullptr;
    LessonCounts counts;
    std::vector<LaunchEstimate> estimates;
    double total_us = 0;
    const std::map<std::string, double>* ncu_launch(std::size_t launch, const NcuTable* table) const;
};

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
        profiled.estimates.push_back(estimate_launch(launch, gpu));
        profiled.total_us += profiled.estimates.back().total_us;
    }
    return profiled;
}

double input_gbps(const Profiled& profiled) {
    return profiled.total_us > 0 ? profiled.counts.floats * 4.0 / (profiled.total_us * 1e3) : 0.0;
}

// `warpdrill list` shows the best modelled bandwidth of the learner's
// passing kernels (on an H100, at the standard size) where no GPU measured one.
void record_modelled_gbps(App& app, const Profiled& profiled) {
    std::optional<double>& best = app.progress.of(profiled.lesson->name).modelled_gbps;
    best = std::max(best.value_or(0.0), input_gbps(profiled));
    app.progress.save();
}

// ---- the table ------------------------------------------------------------------------

void print_profile(const Profiled& profiled, const ProfileOptions& options, const GpuSpec& gpu,
                   const App& app, const NcuTable* table) {
    const Lesson& lesson = *profiled.lesson;
    fmt::print("lesson {} ({}), {} kernel, {}: counted on the CPU backend, modelled on an {}\n",
               lesson.number, lesson.title, options.solution ? "the solution's" : "your",
               floats_text(profiled.counts.floats), gpu.name);
    if (table)
        fmt::print("ncu: the solution measured by Nsight Compute on {} ({}, {})\n", table->device,
                   table->date, table->command);
    for (std::size_t l = 0; l < profiled.counts.launches.size(); ++l) {
        const LaunchCounts& launch = profiled.counts.launches[l];
        const auto* measured = profiled.ncu_launch(l, table);
        fmt::print("\nlaunch {} of {}: {}\n", l + 1, profiled.counts.launches.size(), shape(launch));
        fmt::print("  {:<44} {:>14} {:>14}  {}\n", "", "counted", measured ? "ncu" : "", "ncu metric");
        for (const Row& row : rows()) {
            const double value = row.value(launch, profiled.estimates[l]);
            if (row.rare && value == 0) continue;
            std::string quoted;
            if (measured && !row.ncu_metric.empty()) {
                const auto found = measured->find(row.ncu_metric);
                if (found != measured->end()) quoted = number(found->second * row.ncu_scale, row.decimals);
            }
            fmt::print("  {:<44} {:>14} {:>14}  {}\n", row.words, number(value, row.decimals), quoted,
                       row.ncu_metric);
        }
        const LaunchEstimate& e = profiled.estimates[l];
        fmt::print(
            "  model: {} blocks an SM, {} wave{}; launch {:.1f} + max(DRAM {:.1f}, shared {:.1f}) + barriers "
            "{:.1f} + issue {:.1f} us\n",
            e.blocks_per_sm, e.waves, e.waves == 1 ? "" : "s", e.launch_us, e.dram_us, e.shared_us,
            e.barrier_us, e.issue_us);
        if (!launch.sources.empty()) fmt::print("  by source line:\n");
        for (const auto& [place, counts] : launch.sources) fmt::print("    {}: {}\n", place, line_counts(counts));
    }
    fmt::print("\n{}\n", kObservedNote);
    fmt::print("\nall {} launches: {:.1f} us on the {} (model), {:.0f} GB/s of input read",
               profiled.counts.launches.size(), profiled.total_us, gpu.key, input_gbps(profiled));
    const auto measured = gpu.key == "h100" ? bench_time_us(app.course.root / "results" / "bench-h100.csv",
                                                            lesson.number, profiled.counts.floats)
                                            : std::nullopt;
    if (measured) fmt::print("; the solution measured on an H100 by gpu_bench: {:.1f} us", *measured);
    fmt::print("\n");
}

void print_json(const std::vector<Profiled>& all, const ProfileOptions& options, const GpuSpec& gpu,
                const NcuTable* table) {
    fmt::print("{{\"gpu\": \"{}\", \"gpu_name\": \"{}\", \"kernel_files\": \"{}\", \"lessons\": [", gpu.key,
               json_escape(gpu.name), options.solution ? "solution" : "learner");
    for (std::size_t p = 0; p < all.size(); ++p) {
        const Profiled& profiled = all[p];
        fmt::print("{}\n  {{\"lesson\": {}, \"floats\": {}, \"time_us\": {}, \"gbps\": {}, \"launches\": [",
                   p ? "," : "", profiled.counts.lesson, profiled.counts.floats,
                   json_number(profiled.total_us), json_number(input_gbps(profiled)));
        for (std::size_t l = 0; l < profiled.counts.launches.size(); ++l) {
            const LaunchCounts& launch = profiled.counts.launches[l];
            const LaunchEstimate& e = profiled.estimates[l];
            fmt::print(
                "{}\n    {{\"kernel\": \"{}\", \"grid\": [{}, {}, {}], \"block\": [{}, {}, {}], \"counts\": "
                "{{",
                l ? "," : "", json_escape(launch.kernel), launch.grid[0], launch.grid[1], launch.grid[2],
                launch.block[0], launch.block[1], launch.block[2]);
            bool first = true;
            for (const auto& [name, value] : launch.values) {
                fmt::print("{}\"{}\": {}", first ? "" : ", ", name, json_number(value));
                first = false;
            }
            fmt::print("}},\n     \"sources\": {{");
            first = true;
            for (const auto& [place, counts] : launch.sources) {
                fmt::print("{}\"{}\": {{", first ? "" : ", ", json_escape(place));
                bool first_count = true;
                for (const auto& [name, value] : counts) {
                    fmt::print("{}\"{}\": {}", first_count ? "" : ", ", name, json_number(value));
                    first_count = false;
                }
                fmt::print("}}");
                first = false;
            }
            fmt::print(
                "}},\n     \"model\": {{\"blocks_per_sm\": {}, \"occupancy\": {}, \"waves\": {}, "
                "\"dram_bytes\": {}, "
                "\"launch_us\": {}, \"dram_us\": {}, \"shared_us\": {}, \"barrier_us\": {}, \"issue_us\": "
                "{}, "
                "\"time_us\": {}}}",
                e.blocks_per_sm, json_number(e.occupancy), e.waves, json_number(e.dram_bytes),
                json_number(e.launch_us), json_number(e.dram_us), json_number(e.shared_us),
                json_number(e.barrier_us), json_number(e.issue_us), json_number(e.total_us));
            if (const auto* measured = profiled.ncu_launch(l, table)) {
                fmt::print(",\n     \"ncu\": {{");
                first = true;
                for (const auto& [metric, value] : *measured) {
                    fmt::print("{}\"{}\": {}", first ? "" : ", ", metric, json_number(value));
                    first = false;
                }
                fmt::print("}}");
            }
            fmt::print("}}");
        }
        fmt::print("]}}");
    }
    fmt::print("]}}\n");
}

// ---- comparing two lessons -------------------------------------------------------------

// A lesson's launches as one: counts summed, so that ratios weigh each launch
// by its instructions; the model's figures summed, occupancy averaged.
std::pair<LaunchCounts, LaunchEstimate> all_launches(const Profiled& profiled) {
    LaunchCounts counts;
    LaunchEstimate estimate;
    for (std::size_t l = 0; l < profiled.counts.launches.size(); ++l) {
        for (const auto& [name, value] : profiled.counts.launches[l].values) counts.values[name] += value;
        const LaunchEstimate& e = profiled.estimates[l];
        estimate.dram_bytes += e.dram_bytes;
        estimate.total_us += e.total_us;
        estimate.occupancy += e.occupancy / static_cast<double>(profiled.counts.launches.size());
    }
    return {counts, estimate};
}

double total(const Profiled& profiled, const Row& row) {
    const auto [counts, estimate] = all_launches(profiled);
    return row.value(counts, estimate);
}

// "shared stores: bank conflicts 1,425,408 -> 0" for the counters that moved
// most (by ratio), and the modelled time.
std::string what_moved(const Profiled& from, const Profiled& to) {
    struct Move {
        double score;
        std::string text;
    };
    std::vector<Move> moves;
    for (const Row& row : rows()) {
        if (!row.count) continue;  // ratios and the model: the time is said below
        const double a = total(from, row);
        const double b = total(to, row);
        const double score = std::abs(std::log((b + 1) / (a + 1)));
        if (score > std::log(1.1))
            moves.push_back({score, fmt::format("{} {} -> {}", row.words, number(a), number(b))});
    }
    std::ranges::sort(moves, std::greater{}, &Move::score);
    std::string text;
    for (std::size_t m = 0; m < std::min<std::size_t>(3, moves.size()); ++m) text += moves[m].text + "; ";
    return text + fmt::format("modelled time {:.1f} -> {:.1f} us", from.total_us, to.total_us);
}

void print_compare(const Profiled& a, const Profiled& b, const GpuSpec& gpu) {
    fmt::print("lesson {} -> lesson {}, {}, summed over each lesson's launches (modelled on an {})\n",
               a.lesson->number, b.lesson->number, floats_text(a.counts.floats), gpu.name);
    fmt::print("  {:<44} {:>14} {:>14}\n", "", fmt::format("lesson {}", a.lesson->number),
               fmt::format("lesson {}", b.lesson->number));
    for (const Row& row : rows()) {
        const double from = total(a, row);
        const double to = total(b, row);
        if (row.rare && from == 0 && to == 0) continue;
        fmt::print("  {:<44} {:>14} {:>14}\n", row.words, number(from, row.decimals), number(to, row.decimals));
    }
    fmt::print("\n{}\n\nWhat moved most, lesson {} -> {}: {}\n", kObservedNote, a.lesson->number,
               b.lesson->number, what_moved(a, b));
}

// ---- on a GPU: Nsight Compute ------------------------------------------------------------

// ncu's CSV (a row per launch and metric) as launches of {kernel, metric -> value}.
std::vector<std::pair<std::string, std::map<std::string, double>>> read_ncu_csv(const fs::path& file) {
    std::vector<std::pair<std::string, std::map<std::string, double>>> launches;
    std::ifstream in(file);
    std::vector<std::string> columns;
    for (std::string line; std::getline(in, line);) {
        std::vector<std::string> fields = split_csv(line);
        if (columns.empty()) {
            if (std::ranges::find(fields, "Metric Name") != fields.end()) columns = std::move(fields);
            continue;
        }
        std::map<std::string, std::string> field;
        for (std::size_t c = 0; c < columns.size() && c < fields.size(); ++c) field[columns[c]] = fields[c];
        const auto launch = static_cast<std::size_t>(std::stoul(field["ID"]));
        if (launches.size() <= launch) launches.resize(launch + 1);
        std::string value = field["Metric Value"];
        std::erase(value, ',');
        launches[launch].first = field["Kernel Name"];
        if (const auto number = cell_value(value)) launches[launch].second[field["Metric Name"]] = *number;
    }
    return launches;
}

// Runs ncu on the lesson's driver and prints what it measured; one clear
// line when ncu is missing or may not read the counters.
int measure_on_gpu(App& app, const Lesson& lesson, const ProfileOptions& options) {
    const std::optional<fs::path> driver = built_driver(app, lesson, {.solution = options.solution});
    if (!driver) return 1;
    std::string metrics;
    for (const Row& row : rows()) {
        if (!row.ncu_metric.empty()) metrics += (metrics.empty() ? "" : ",") + row.ncu_metric;
    }
    const fs::path log = app.course.build_dir / "ncu-profile.csv";
    fs::remove(log);
    const ProcessResult run = run_process(
        {"ncu", "--csv", "--print-units", "base", "--print-kernel-base", "function", "--metrics", metrics,
         "--log-file", log.string(), driver->string(), "--floats", std::to_string(options.floats)},
        app.check_options.time_limit * 4);
    if (run.exit_code == 127) {
        fmt::print(
            "Nsight Compute (ncu) is not on the PATH; it comes with the CUDA toolkit. Without it, a "
            "CPU-backend build (cmake --preset cpu) counts and models lesson {}.\n",
            lesson.number);
        return 1;
    }
    if (run.output.find("ERR_NVGPUCTRPERM") != std::string::npos) {
        fmt::print(
            "ncu may not read this GPU's performance counters (ERR_NVGPUCTRPERM): run it as root, or "
            "let every user read them (NVIDIA's page on ERR_NVGPUCTRPERM says how). A CPU-backend build "
            "(cmake --preset cpu) counts and models lesson {} without them.\n",
            lesson.number);
        return 1;
    }
    const auto launches = read_ncu_csv(log);
    if (run.exit_code != 0 || launches.empty()) {
        fmt::print("ncu did not measure lesson {}:\n{}", lesson.number, run.output);
        return 1;
    }
    fmt::print("lesson {} ({}), {} kernel, {}: measured by Nsight Compute on this GPU\n", lesson.number,
               lesson.title, options.solution ? "the solution's" : "your", floats_text(options.floats));
    for (std::size_t l = 0; l < launches.size(); ++l) {
        fmt::print("\nlaunch {} of {}: {}\n", l + 1, launches.size(), launches[l].first);
        for (const Row& row : rows()) {
            const auto found = launches[l].second.find(row.ncu_metric);
            if (found == launches[l].second.end()) continue;
            const std::string measured = row.words.substr(0, row.words.find(" (model"));
            fmt::print("  {:<44} {:>14}  {}\n", measured, number(found->second * row.ncu_scale, row.decimals),
                       row.ncu_metric);
        }
    }
    return 0;
}

}  // namespace

void print_what_moved_on_first_pass(App& app, const Lesson& lesson) {
    if (app.course.backend != "cpu") return;
    const GpuSpec& h100 = *find_gpu("h100");
    fmt::print("\nProfiling your kernel, to show what the hardware now does differently ...\n");
    std::optional<LessonCounts> now = count_lesson(app, lesson, {.checked = true, .quiet = true}, h100);
    if (!now) return;
    const Profiled after = model(lesson, std::move(*now), h100);
    record_modelled_gbps(app, after);
    // The nearest lesson before it that passed and computes the same (lesson 9 computes another thing).
    for (int number = lesson.number - 1; number >= 1; --number) {
        const Lesson* found = app.course.find(number);  // a course of an instructor's may skip numbers
        if (!found) continue;
        const Lesson& earlier = *found;
        const LessonProgress* progress = app.progress.find(earlier.name);
        if (!progress || !progress->passed) continue;
        std::optional<LessonCounts> counts = cached_counts(app, earlier);
        if (!counts) counts = count_lesson(app, earlier, {.checked = true, .quiet = true}, h100);
        if (!counts || counts->workload != after.counts.workload) continue;
        const Profiled before = model(earlier, std::move(*counts), h100);
        fmt::print("What moved, lesson {} -> {} (your kernels, {}, modelled on an H100): {}\n", number,
                   lesson.number, floats_text(after.counts.floats), what_moved(before, after));
        fmt::print("(warpdrill profile {} --compare {} sets the two side by side)\n", number, lesson.number);
        return;
    }
}

std::optional<NcuTable> read_ncu_table(const fs::path& file) {
    std::ifstream in(file);
    if (!in) return std::nullopt;
    NcuTable table;
    const auto header = [](const std::string& line, const char* name) {
        const std::string prefix = std::string("# ") + name + ": ";
        return line.starts_with(prefix) ? std::optional(line.substr(prefix.size())) : std::nullopt;
    };
    std::vector<std::string> columns;  // lesson,launch,kernel, then one per metric
    for (std::string line; std::getline(in, line);) {
        if (const auto device = header(line, "device")) table.device = *device;
        if (const auto date = header(line, "date")) table.date = *date;
        if (const auto command = header(line, "command")) table.command = *command;
        if (line.empty() || line.starts_with("#")) continue;
        std::vector<std::string> fields = split_csv(line);
        if (columns.empty()) {
            columns = std::move(fields);
            continue;
        }
        if (fields.size() < 3) continue;
        const std::pair key{std::stoi(fields[0]), std::stoi(fields[1])};
        table.kernels[key] = fields[2];
        for (std::size_t c = 3; c < fields.size() && c < columns.size(); ++c) {
            if (const auto number = cell_value(fields[c])) table.metrics[key][columns[c]] = *number;
        }
    }
    return table;
}

int run_profile(App& app, const ProfileOptions& options) {
    const GpuSpec* gpu = find_gpu(options.gpu);
    if (!gpu) {
        std::string known;
        for (const GpuSpec& spec : gpu_specs()) known += " " + spec.key;
        fmt::print(stderr, "warpdrill profile: no figures for a GPU called '{}'; known:{}\n", options.gpu,
                   known);
        return 2;
    }
    if (app.course.backend != "cpu")
        return measure_on_gpu(app, app.lesson(options.lesson), options);
    std::vector<Profiled> profiled;
    for (const int number : {options.lesson, options.compare}) {
        if (number == 0) continue;
        const Lesson& lesson = app.lesson(number);
        std::optional<LessonCounts> counts =
            count_lesson(app, lesson, {.solution = options.solution, .floats = options.floats}, *gpu);
        if (!counts) return 1;
        profiled.push_back(model(lesson, std::move(*counts), *gpu));
    }
    // The table holds the solutions at the profile's standard size.
    const bool comparable = options.solution && options.floats == ProfileOptions{}.floats;
    const std::optional<NcuTable> table =
        comparable ? read_ncu_table(app.course.root / "results" / ("ncu-" + gpu->key + ".csv"))
                   : std::nullopt;
    const NcuTable* ncu = table ? &*table : nullptr;
    // `warpdrill list` shows the learner's kernels' modelled bandwidth where no GPU measured one.
    if (!options.solution && gpu->key == "h100" && options.floats == ProfileOptions{}.floats) {
        for (const Profiled& lesson : profiled) record_modelled_gbps(app, lesson);
    }
    if (options.json) {
        print_json(profiled, options, *gpu, ncu);
    } else if (profiled.size() == 2) {
        print_compare(profiled[0], profiled[1], *gpu);
    } else {
        print_profile(profiled[0], options, *gpu, app, ncu);
    }
    return 0;
}

}  // namespace warpdrill::runner
