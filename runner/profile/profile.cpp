#include "profile.h"

#include <fmt/core.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <vector>

#include "build.h"
#include "commands.h"
#include "ncu.h"
#include "process.h"
#include "text.h"
#include "warpdrill/messages.h"
#include "profile_table.h"
#include "profiled.h"

namespace warpdrill::runner {
namespace {

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
    if (lesson.workload.empty()) {
        if (!request.quiet)
            fmt::print("{}\n", messages::text("profile.no_workload", {{"lesson", lesson.number}, {"title", lesson.title}}));
        return std::nullopt;
    }
    if (request.solution && !lesson.has_solution) {
        if (!request.quiet)
            fmt::print("{}\n", messages::text("solution.none"));
        return std::nullopt;
    }
    if (!request.solution && !request.checked) {
        const CheckResult result = app.check(lesson);
        if (result.outcome != Outcome::passed) {
            print_result(app, lesson, result);
            fmt::print("\n{}\n", messages::text("profile.not_passing"));
            return std::nullopt;
        }
    }
    const std::string target = driver_target(app, lesson, request.solution);
    const fs::path build_dir = request.build_dir.empty() ? app.course.build_dir : request.build_dir;
    const ProcessResult build = build_target(build_dir, target);
    if (build.exit_code != 0) {
        if (!request.quiet) fmt::print("{}", trim_compiler_output(build.output, app.course, lesson));
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
            fmt::print("{}\n{}", messages::text(run.timed_out ? "profile.run_timed_out" : "profile.run_failed",
                                                {{"lesson", lesson.number}}),
                       run.output);
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

// `warpdrill list` shows the best modelled bandwidth of the learner's
// passing kernels (on an H100, at the standard size) where no GPU measured one.
void record_modelled_gbps(App& app, const Profiled& profiled) {
    std::optional<double>& best = app.progress.of(profiled.lesson->name).modelled_gbps;
    best = std::max(best.value_or(0.0), modelled_gbps(profiled));
    app.progress.save();
}

// ---- on a GPU: Nsight Compute beside the model ---------------------------------------------

// What ncu measures: the rows' metrics, and the grid's inputs that the CPU
// backend is given so that it counts the launches ncu measured.
constexpr const char* kMultiprocessors = "device__attribute_multiprocessor_count";
constexpr const char* kRegisterLimitedBlocks = "launch__occupancy_limit_registers";

std::vector<std::string> ncu_metrics() {
    std::vector<std::string> metrics = {kMultiprocessors, kRegisterLimitedBlocks};
    for (std::string& metric : row_ncu_metrics()) metrics.push_back(std::move(metric));
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
    fmt::print("{}\n", messages::text("profile.configuring_model_build", {{"dir", dir.string()}}));
    std::fflush(stdout);
    const ProcessResult configure = run_process(
        {"cmake", "-S", app.course.root.string(), "-B", dir.string(), "-G", "Ninja",
         "-DCMAKE_BUILD_TYPE=RelWithDebInfo", "-DWARPDRILL_BACKEND=cpu", "-DWARPDRILL_BUILD_TESTS=OFF"},
        std::chrono::seconds(600));
    if (configure.exit_code == 0) return std::nullopt;
    std::error_code ignored;
    fs::remove_all(dir, ignored);
    return messages::text("profile.no_model_build") + "\n" + cmake_error(configure.output);
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
                                    .what = messages::text(options.solution ? "profile.ncu.what_solution"
                                                                            : "profile.ncu.what_yours"),
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
        measured.source = messages::text(
            measured.device.empty() ? "profile.ncu.source_now" : "profile.ncu.source_now_on",
            {{"what", messages::text(options.solution ? "profile.ncu.what_solutions" : "profile.ncu.what_yours_all")},
             {"device", measured.device},
             {"command", messages::text("profile.ncu.each_driver")}});
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
    if (!ncu && !options.json) fmt::print("{} {}\n\n", no_ncu, messages::text("profile.model_follows"));
    print_profiles(profiled, options, gpu, app, ncu);
    return 0;
}
}  // namespace

void print_what_moved_on_first_pass(App& app, const Lesson& lesson) {
    if (app.course.backend != "cpu") return;
    const GpuSpec& h100 = *find_gpu("h100");
    fmt::print("\n{}\n", messages::text("profile.first_pass.profiling"));
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
        fmt::print("{}\n", messages::text("profile.first_pass.moved", {{"from", number},
                                                                       {"to", lesson.number},
                                                                       {"floats", floats_text(after.counts.floats)},
                                                                       {"moves", what_moved(before, after)}}));
        fmt::print("{}\n", messages::text("profile.first_pass.compare", {{"from", number}, {"to", lesson.number}}));
        return;
    }
    fmt::print("{}\n", messages::text("profile.first_pass.nothing_to_compare",
                                      {{"lesson", lesson.number}, {"workload", after.counts.workload}}));
}

int run_profile(App& app, const ProfileOptions& options) {
    const GpuSpec* gpu = find_gpu(options.gpu);
    if (!gpu) {
        std::string known;
        for (const GpuSpec& spec : gpu_specs()) known += " " + spec.key;
        fmt::print(stderr, "{}\n", messages::text("profile.unknown_gpu", {{"gpu", options.gpu}, {"known", known}}));
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
