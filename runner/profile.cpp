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

#include "bench_csv.h"
#include "build.h"
#include "commands.h"
#include "ncu.h"
#include "process.h"

namespace warpdrill::runner {
namespace {

// One line of the table: what it counts in plain words, ncu's metric for it
// (only where the row counts what that metric counts), and its value for a
// launch, with what that value is when it is not a count of what the
// hardware would do. A row with no value is ncu's alone: what the GPU
// measures and the CPU backend cannot see.
using RowValue = std::function<double(const LaunchCounts&, const LaunchEstimate&)>;
struct Row {
    std::string words{};
    std::string ncu_metric{};
    RowValue value{};
    std::string basis{};  // "": counted; "*" or "est.*": over what the backend observes; "model"; "ncu"
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

// A row of ncu's alone, beside the CPU backend's nearest count.
Row ncu_only(std::string words, std::string ncu_metric, int decimals = 0, double ncu_scale = 1) {
    return {.words = std::move(words),
            .ncu_metric = std::move(ncu_metric),
            .basis = "ncu",
            .decimals = decimals,
            .ncu_scale = ncu_scale};
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
        // Lanes that made the access, where ncu counts the lanes of every
        // instruction, predicated ones included: not the same figure.
        {.words = "active lanes per memory or sync instruction",
         .value = [](const LaunchCounts& l, const LaunchEstimate&) { return l.average_active_threads(); },
         .basis = "*",
         .decimals = 1},
        ncu_only("threads per warp instruction, all kinds",
                 "smsp__thread_inst_executed_per_inst_executed.ratio", 1),
        ncu_only("divergent branch targets (SASS)", "smsp__sass_branch_targets_threads_divergent.sum"),
        {.words = "warp instructions with < 32 active lanes",
         .value = [](const LaunchCounts& l, const LaunchEstimate&) { return l.partial_instructions(); },
         .basis = "*",
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
        {.words = "instructions executed",
         .ncu_metric = "smsp__inst_executed.sum",
         .value = [](const LaunchCounts& l, const LaunchEstimate&) { return l.observed_instructions(); },
         .basis = "est.*",
         .count = true},
        {.words = "achieved occupancy, %",
         .ncu_metric = "sm__warps_active.avg.pct_of_peak_sustained_active",
         .value = [](const LaunchCounts&, const LaunchEstimate& e) { return 100 * e.occupancy; },
         .basis = "model"},
        {.words = "DRAM bytes read",
         .ncu_metric = "dram__bytes_read.sum",
         .value = [](const LaunchCounts&, const LaunchEstimate& e) { return e.dram_bytes_read; },
         .basis = "model"},
        {.words = "DRAM bytes written",
         .ncu_metric = "dram__bytes_write.sum",
         .value = [](const LaunchCounts&, const LaunchEstimate& e) { return e.dram_bytes_written; },
         .basis = "model"},
        // The model imitates gpu_bench's time as a caller sees it, the
        // launch included; ncu times the kernel alone, from its start.
        {.words = "time with its launch, us",
         .value = [](const LaunchCounts&, const LaunchEstimate& e) { return e.total_us; },
         .basis = "model",
         .decimals = 1},
        ncu_only("kernel duration, us", "gpu__time_duration.sum", 1, 1e-3),
    };
    return table;
}

constexpr const char* kObservedNote =
    "* and est.*: over the loads, stores and sync points the CPU backend observes; ncu also counts "
    "arithmetic, address math and branches, which it does not see. model: the time model's figure "
    "(DRAM bytes: the sectors loaded or stored, 32 bytes each; stores that the GPU's L2 still holds when "
    "the kernel ends reach DRAM after it, and ncu leaves them out; time: as gpu_bench's caller sees it, "
    "the launch included), not a count. ncu: Nsight Compute's figure alone, which the CPU backend cannot "
    "count";

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
            text += fmt::format("{}{} {} instructions, {} wavefronts, {} bank conflicts",
                                text.empty() ? "" : "; ", words, number(instructions),
                                number(get(prefix + "_wavefronts")), number(get(prefix + "_bank_conflicts")));
        } else {
            const double requests = get(prefix + "_requests");
            if (requests == 0) continue;
            text += fmt::format("{}{} {} requests, {} sectors", text.empty() ? "" : "; ", words,
                                number(requests), number(get(prefix + "_sectors")));
        }
    }
    return text;
}

// ---- measurements in results/ ----------------------------------------------------

// scripts/ncu-table.sh's table of every solution, measured on that GPU.
std::string ncu_results_file(const GpuSpec& gpu) { return "results/ncu-" + gpu.key + ".csv"; }

// gpu_bench's median time for "lesson N" at that many floats, as a caller
// sees it, which the model imitates (results/bench-h100.csv).
std::optional<double> bench_time_us(const fs::path& csv, int lesson, long long floats) {
    for (const BenchRow& row : read_bench_csv(csv)) {
        if (row.kernel == fmt::format("lesson {}", lesson) && row.floats == floats) return row.time_us;
    }
    return std::nullopt;
}

// ---- running the driver -----------------------------------------------------------

std::string driver_target(const App& app, const Lesson& lesson, bool solution) {
    return "profile-" + (solution ? "solution-" + lesson.name.substr(0, 2) : app.course.target(lesson));
}

// How a lesson is to be counted.
struct CountRequest {
    bool solution = false;  // the solution's kernel files, not the learner's
    long long floats = ProfileOptions{}.floats;
    bool checked = false;  // the learner's lesson has just passed its checks
    bool quiet = false;    // say nothing when it cannot be counted
    fs::path build_dir{};  // "": the course's build
    // The grid of lessons 8 and 10 depends on the GPU: 0, the modelled GPU's
    // multiprocessors and no register limit; else a measured GPU's.
    int multiprocessors = 0;
    int register_limited_blocks = 0;
};

// Lesson N's profile driver, built, or nothing after saying why (what
// `warpdrill check` says about a learner's lesson that does not pass).
std::optional<fs::path> built_driver(App& app, const Lesson& lesson, const CountRequest& request) {
    if (request.solution && !lesson.has_solution) {
        if (!request.quiet)
            fmt::print("This copy of the course has no solutions/ (your instructor keeps them).\n");
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
    const fs::path build_dir = request.build_dir.empty() ? app.course.build_dir : request.build_dir;
    const ProcessResult build = build_target(build_dir, target);
    if (build.exit_code != 0) {
        if (request.quiet) return std::nullopt;
        // profile_lesson.cu's #error for a lesson it has no workload for.
        if (build.output.find("has no profile workload") != std::string::npos) {
            fmt::print(
                "warpdrill profile has no workload for lesson {} ({}): its driver, "
                "common/src/course/profile_lesson.cu, runs one kernel of each lesson it knows at a fixed "
                "size, and none of this one.\n",
                lesson.number, lesson.title);
        } else {
            fmt::print("{}", trim_compiler_output(build.output, app.course, lesson));
        }
        return std::nullopt;
    }
    return build_dir / target;
}

// Where the counts of the learner's kernel, at the standard size on the
// H100's grid, are kept for `warpdrill check` to compare the next lesson with.
fs::path counts_cache(const App& app, const Lesson& lesson) {
    return app.course.root / ".progress" / "profile" / (lesson.name + ".json");
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
        return read_profile_record(std::string(std::istreambuf_iterator<char>(in), {}));
    } catch (const std::runtime_error&) {
        return std::nullopt;  // damaged: counted again when needed
    }
}

// The counts of lesson N's launches on the CPU backend, or nothing after saying why.
std::optional<LessonCounts> count_lesson(App& app, const Lesson& lesson, const CountRequest& request,
                                         const GpuSpec& gpu) {
    const std::optional<fs::path> driver = built_driver(app, lesson, request);
    if (!driver) return std::nullopt;
    const int multiprocessors = request.multiprocessors > 0 ? request.multiprocessors : gpu.multiprocessors;
    const fs::path record = counts_cache(app, lesson).replace_extension(".new.json");
    fs::create_directories(record.parent_path());
    fs::remove(record);
    const ProcessResult run =
        run_process({driver->string(), "--floats", std::to_string(request.floats), "--multiprocessors",
                     std::to_string(multiprocessors), "--register-limited-blocks",
                     std::to_string(request.register_limited_blocks), "--record", record.string()},
                    app.check_options.time_limit);
    if (run.exit_code != 0) {
        if (!request.quiet)
            fmt::print("The profile run of lesson {} {}:\n{}", lesson.number,
                       run.timed_out ? "did not finish in time" : "failed", run.output);
        return std::nullopt;
    }
    LessonCounts counts = read_profile_record(read_text(record));
    if (!request.solution && request.floats == ProfileOptions{}.floats && gpu.key == "h100" &&
        request.multiprocessors == 0) {
        fs::rename(record, counts_cache(app, lesson));
    } else {
        fs::remove(record);
    }
    return counts;
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

// What a lesson's GB/s count, per float of its size: a sum's (or ReduceScale's)
// input read; lesson 13's add reads dst and src and writes dst, three floats'
// worth, as a copy's GB/s counts its reads and writes.
struct Traffic {
    double bytes_per_float;
    const char* words;  // what the GB/s are of
};

Traffic traffic(const LessonCounts& counts) {
    if (counts.workload == "ring_add") return {12, "moved (dst and src read, dst written)"};
    return {4, "of input read"};
}

double modelled_gbps(const Profiled& profiled) {
    const double bytes = profiled.counts.floats * traffic(profiled.counts).bytes_per_float;
    return profiled.total_us > 0 ? bytes / (profiled.total_us * 1e3) : 0.0;
}

// `warpdrill list` shows the best modelled bandwidth of the learner's
// passing kernels (on an H100, at the standard size) where no GPU measured one.
void record_modelled_gbps(App& app, const Profiled& profiled) {
    std::optional<double>& best = app.progress.of(profiled.lesson->name).modelled_gbps;
    best = std::max(best.value_or(0.0), modelled_gbps(profiled));
    app.progress.save();
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

// gpu_bench's time for the lesson at the profiled size on an H100, as its
// caller sees it (what the model imitates); none on other GPUs.
std::optional<double> benched_us(const Profiled& profiled, const GpuSpec& gpu, const App& app) {
    if (gpu.key != "h100") return std::nullopt;
    return bench_time_us(app.course.root / "results" / "bench-h100.csv", profiled.lesson->number,
                         profiled.counts.floats);
}

void print_profile(const Profiled& profiled, const ProfileOptions& options, const GpuSpec& gpu,
                   const App& app, const NcuTable* table) {
    const Lesson& lesson = *profiled.lesson;
    fmt::print("lesson {} ({}), {} kernel, {}: counted on the CPU backend, modelled on an {}\n",
               lesson.number, lesson.title, options.solution ? "the solution's" : "your",
               floats_text(profiled.counts.floats), gpu.name);
    if (table && table->launch(lesson.number, 1)) {
        fmt::print("ncu: {}\n", table->source);
    } else if (table) {
        fmt::print(
            "ncu: {} has no rows for lesson {} yet (bash scripts/ncu-table.sh measures them on a GPU)\n",
            ncu_results_file(gpu), lesson.number);
    }
    for (std::size_t l = 0; l < profiled.counts.launches.size(); ++l) {
        const LaunchCounts& launch = profiled.counts.launches[l];
        const auto* measured = profiled.ncu_launch(l, table);
        fmt::print("\nlaunch {} of {}: {}\n", l + 1, profiled.counts.launches.size(), shape(launch));
        if (!launch.race.empty()) {
            fmt::print(
                "A race: the counts below are those of the racy kernel, which `warpdrill check` stops at.\n"
                "{}\n\n",
                launch.race);
        }
        print_row("", "CPU backend", "", measured ? "ncu" : "", "ncu metric");
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
        fmt::print(
            "  model: {} blocks an SM, {} wave{}; launch {:.1f} + max(DRAM {:.1f}, shared {:.1f}) + barriers "
            "{:.1f} + issue {:.1f} us\n",
            e.blocks_per_sm, e.waves, e.waves == 1 ? "" : "s", e.launch_us, e.dram_us, e.shared_us,
            e.barrier_us, e.issue_us);
        if (!launch.sources.empty()) fmt::print("  by source line:\n");
        for (const auto& [place, counts] : launch.sources)
            fmt::print("    {}: {}\n", place, line_counts(counts));
    }
    fmt::print("\n{}\n", kObservedNote);
    fmt::print("\nall {} launches: {:.1f} us on the {} (model), {:.0f} GB/s {}",
               profiled.counts.launches.size(), profiled.total_us, gpu.key, modelled_gbps(profiled),
               traffic(profiled.counts).words);
    if (const auto benched = benched_us(profiled, gpu, app)) {
        fmt::print("; the solution measured on an H100 by gpu_bench: {:.1f} us as its caller sees it",
                   *benched);
        // Where both are the solution's, their ratio is the model's error.
        if (options.solution) fmt::print(" (the model: {:.2f} of it)", profiled.total_us / *benched);
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
                "\"dram_bytes_read\": {}, \"dram_bytes_written\": {}, "
                "\"launch_us\": {}, \"dram_us\": {}, \"shared_us\": {}, \"barrier_us\": {}, \"issue_us\": "
                "{}, "
                "\"time_us\": {}}}",
                e.blocks_per_sm, json_number(e.occupancy), e.waves, json_number(e.dram_bytes_read),
                json_number(e.dram_bytes_written), json_number(e.launch_us), json_number(e.dram_us),
                json_number(e.shared_us), json_number(e.barrier_us), json_number(e.issue_us),
                json_number(e.total_us));
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
        const std::string weight_metric = row.ncu_metric.find("per_inst") != std::string::npos
                                              ? "smsp__inst_executed.sum"
                                              : "gpu__time_duration.sum";
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

std::string what_moved(const Profiled& from, const Profiled& to) {
    return moved_most(from, to, counted_total) +
           fmt::format("modelled time {:.1f} -> {:.1f} us", from.total_us, to.total_us);
}

void print_compare(const Profiled& a, const Profiled& b, const ProfileOptions& options, const GpuSpec& gpu,
                   const App& app, const NcuTable* table) {
    const Total measured = measured_total(table);
    const Row& time = *std::ranges::find(rows(), "gpu__time_duration.sum", &Row::ncu_metric);
    const std::optional<double> time_a = measured(a, time), time_b = measured(b, time);
    const bool with_ncu = time_a && time_b;
    fmt::print(
        "lesson {} -> lesson {}, {}, summed over each lesson's launches (counted on the CPU backend, "
        "modelled on an {})\n",
        a.lesson->number, b.lesson->number, floats_text(a.counts.floats), gpu.name);
    if (with_ncu) fmt::print("ncu: {}\n", table->source);
    const auto lesson = [](const Profiled& p, const char* what) {
        return fmt::format("{}lesson {}", what, p.lesson->number);
    };
    fmt::print("  {:<44} {:>14} {:>14} {:<5} {:>14} {:>14}\n", "", lesson(a, ""), lesson(b, ""), "",
               with_ncu ? lesson(a, "ncu ") : "", with_ncu ? lesson(b, "ncu ") : "");
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
    fmt::print("\n{}\n\n", kObservedNote);
    if (a.counts.workload != b.counts.workload) {
        fmt::print("Lessons {} and {} compute different things ({}, {}): set side by side, not compared.\n",
                   a.lesson->number, b.lesson->number, a.counts.workload, b.counts.workload);
        return;
    }
    fmt::print("What moved most, lesson {} -> {}: {}\n", a.lesson->number, b.lesson->number,
               what_moved(a, b));
    if (with_ncu)
        fmt::print("Measured by ncu: {}time {:.1f} -> {:.1f} us\n", moved_most(a, b, measured), *time_a,
                   *time_b);
    // The solutions' times measured by gpu_bench, and the model's error on each.
    const auto benched_a = benched_us(a, gpu, app), benched_b = benched_us(b, gpu, app);
    if (options.solution && benched_a && benched_b) {
        fmt::print(
            "Measured by gpu_bench on an H100, as its caller sees it: {:.1f} -> {:.1f} us (the model: {:.2f} "
            "and {:.2f} of it)\n",
            *benched_a, *benched_b, a.total_us / *benched_a, b.total_us / *benched_b);
    }
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

// ---- on a GPU: Nsight Compute beside the model ---------------------------------------------

// What ncu measures: the rows' metrics, and the grid's inputs that the CPU
// backend is given so that it counts the launches ncu measured.
constexpr const char* kMultiprocessors = "device__attribute_multiprocessor_count";
constexpr const char* kRegisterLimitedBlocks = "launch__occupancy_limit_registers";

std::vector<std::string> ncu_metrics() {
    std::vector<std::string> metrics = {kMultiprocessors, kRegisterLimitedBlocks};
    for (const Row& row : rows()) {
        if (!row.ncu_metric.empty()) metrics.push_back(row.ncu_metric);
    }
    return metrics;
}

// A machine whose course builds for the GPU counts on the CPU backend in a
// build of its own beside the course's.
fs::path model_build_dir(const App& app) {
    const fs::path& course = app.course.build_dir;
    return course.parent_path() / (course.filename().string() + "-cpu-model");
}

// Configures that build once; the reason when it cannot be.
std::optional<std::string> model_build_problem(const App& app) {
    const fs::path dir = model_build_dir(app);
    if (fs::exists(dir / "CMakeCache.txt")) return std::nullopt;
    fmt::print("warpdrill: configuring a CPU-backend build in {}, to count beside ncu ...\n", dir.string());
    std::fflush(stdout);
    const ProcessResult configure = run_process(
        {"cmake", "-S", app.course.root.string(), "-B", dir.string(), "-G", "Ninja",
         "-DCMAKE_BUILD_TYPE=RelWithDebInfo", "-DWARPDRILL_BACKEND=cpu", "-DWARPDRILL_BUILD_TESTS=OFF"},
        std::chrono::seconds(600));
    if (configure.exit_code == 0) return std::nullopt;
    std::error_code ignored;
    fs::remove_all(dir, ignored);
    return "the CPU backend could not be configured, so nothing is counted or modelled beside ncu:\n" +
           configure.output;
}

// ncu's rows alone, where the CPU backend cannot count beside them.
void print_ncu_only(const Lesson& lesson, const NcuTable& table) {
    fmt::print("lesson {} ({}): {}\n", lesson.number, lesson.title, table.source);
    for (int l = 1; const auto* measured = table.launch(lesson.number, l); ++l) {
        fmt::print("\nlaunch {}: {}\n", l, table.kernels.at({lesson.number, l}));
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
            fmt::print("{}\n    {{\"kernel\": \"{}\", \"ncu\": {{", l > 1 ? "," : "",
                       json_escape(table.kernels.at({number, l})));
            bool first = true;
            for (const auto& [metric, value] : *measured) {
                fmt::print("{}\"{}\": {}", first ? "" : ", ", metric, json_number(value));
                first = false;
            }
            fmt::print("}}}}");
        }
        fmt::print("]}}");
    }
    fmt::print("]}}\n");
}

// `warpdrill profile` where the course runs on a GPU: ncu measures the
// kernel on it, and the CPU backend counts and models the same launches
// beside it. One clear line for what cannot be had.
int profile_on_gpu(App& app, const ProfileOptions& options, const GpuSpec& gpu) {
    std::optional<std::string> no_model = model_build_problem(app);
    std::string no_ncu;
    NcuTable measured;
    std::vector<const Lesson*> lessons;
    std::vector<Profiled> profiled;
    for (const int number : {options.lesson, options.compare}) {
        if (number == 0) continue;
        const Lesson& lesson = app.lesson(number);
        lessons.push_back(&lesson);
        const std::optional<fs::path> driver = built_driver(app, lesson, {.solution = options.solution});
        if (!driver) return 1;
        const NcuRun run = run_ncu({.lesson = number,
                                    .what = options.solution ? "the solution's kernel" : "your kernel",
                                    .program = {driver->string(), "--floats", std::to_string(options.floats)},
                                    .metrics = ncu_metrics(),
                                    .log = app.course.build_dir / "ncu-profile.csv",
                                    .time_limit = app.check_options.time_limit * 4});
        const std::map<std::string, double>* first_launch = nullptr;
        if (run.table) {
            measured.source = run.table->source;
            measured.device = run.table->device;
            measured.kernels.insert(run.table->kernels.begin(), run.table->kernels.end());
            measured.metrics.insert(run.table->metrics.begin(), run.table->metrics.end());
            first_launch = measured.launch(number, 1);
        } else {
            no_ncu = run.problem;
        }
        if (no_model) continue;
        const auto grid_input = [first_launch](const char* metric) {
            if (!first_launch) return 0;  // the modelled GPU's grid
            const auto found = first_launch->find(metric);
            return found == first_launch->end() ? 0 : static_cast<int>(found->second);
        };
        std::optional<LessonCounts> counts =
            count_lesson(app, lesson,
                         {.solution = options.solution,
                          .floats = options.floats,
                          .checked = true,
                          .build_dir = model_build_dir(app),
                          .multiprocessors = grid_input(kMultiprocessors),
                          .register_limited_blocks = grid_input(kRegisterLimitedBlocks)},
                         gpu);
        if (!counts) return 1;
        profiled.push_back(model(lesson, std::move(*counts), gpu));
    }
    if (lessons.size() == 2 && no_ncu.empty())  // each run named its own program
        measured.source = fmt::format(
            "{} measured just now by Nsight Compute on this GPU{} (ncu --clock-control none "
            "--metrics <the rows' metrics> on each lesson's profile driver)",
            options.solution ? "the solutions' kernels" : "your kernels",
            measured.device.empty() ? "" : ", an " + measured.device);
    const NcuTable* ncu = no_ncu.empty() ? &measured : nullptr;
    if (no_model && !ncu) {
        fmt::print("{}\n{}\n", no_ncu, *no_model);
        return 1;
    }
    if (no_model) {
        if (options.json) {
            print_ncu_only_json(lessons, measured, *no_model);
            return 0;
        }
        fmt::print("{}\n\n", *no_model);
        for (const Lesson* lesson : lessons) print_ncu_only(*lesson, measured);
        return 0;
    }
    if (!ncu && !options.json) fmt::print("{} The CPU backend's counts and the model follow.\n\n", no_ncu);
    print_profiles(profiled, options, gpu, app, ncu);
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
    // The nearest lesson before it that passed and computes the same (lessons 9 and 13 compute other things).
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
    fmt::print(
        "No lesson before {} that you passed computes the same ({}), so nothing to compare it with; "
        "warpdrill profile {} shows its counts.\n",
        lesson.number, after.counts.workload, lesson.number);
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
    if (app.course.backend != "cpu") return profile_on_gpu(app, options, *gpu);
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
        comparable ? read_ncu_table(app.course.root / ncu_results_file(*gpu)) : std::nullopt;
    const NcuTable* ncu = table ? &*table : nullptr;
    // `warpdrill list` shows the learner's kernels' modelled bandwidth where no GPU measured one.
    if (!options.solution && gpu->key == "h100" && options.floats == ProfileOptions{}.floats) {
        for (const Profiled& lesson : profiled) record_modelled_gbps(app, lesson);
    }
    print_profiles(profiled, options, *gpu, app, ncu);
    return 0;
}

}  // namespace warpdrill::runner
