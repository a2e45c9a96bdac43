#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>

#include "warpdrill/catch.h"
#include "warpdrill/course/lesson.h"
#include "warpdrill/data.h"
#include "warpdrill/host.h"
#include "warpdrill/messages.h"
#include "warpdrill/reference.h"

namespace warpdrill::course {

void launch_or_fail(const std::string& kernel_name, const std::string& input,
                    const std::function<void()>& launch) {
    std::string error;
    try {
        launch();
        return;
    } catch (const std::exception& stopped) {
        error = stopped.what();  // FAIL outside the handler: Catch2 reports by throwing
    }
    FAIL(messages::text("checks.launch_failed",
                        {{"kernel", kernel_name}, {"error", error}, {"launch", input}}));
}

namespace {

struct BlockSumRun {
    std::vector<float> sums;
    LaunchStats stats{};
};

std::string describe_size(const BlockSumKernel& kernel, int n, int block_size, std::uint64_t seed) {
    const int blocks = block_count(kernel, n, block_size);
    return messages::text("checks.block_sums.launch",
                          {{"n", n},
                           {"block_size", block_size},
                           {"blocks", counted(blocks, "checks.blocks.one", "checks.blocks.many")},
                           {"elements", block_size * kernel.elements_per_thread},
                           {"seed", describe_seed(seed)}});
}

BlockSumRun run_block_sums(const BlockSumKernel& kernel, const std::vector<float>& input, int block_size,
                           std::uint64_t seed) {
    const int n = static_cast<int>(input.size());
    DeviceBuffer<float> d_in{std::span<const float>(input)};
    DeviceBuffer<float> d_sums(static_cast<std::size_t>(block_count(kernel, n, block_size)));
    d_sums.poison();
    launch_or_fail(kernel.name, describe_size(kernel, n, block_size, seed), [&] {
        kernel.launch(d_in.data(), d_sums.data(), n, block_size);
        check_launch();
    });
    return {d_sums.download(), last_launch_stats().value_or(LaunchStats{})};
}

std::string block_range(const BlockSumKernel& kernel, std::size_t block, int n, int block_size) {
    const std::size_t span = static_cast<std::size_t>(block_size) * kernel.elements_per_thread;
    const std::size_t first = block * span;
    const std::size_t end = std::min(first + span, static_cast<std::size_t>(n));
    return messages::text(end - first < span ? "checks.block_sums.partial_range" : "checks.block_sums.range",
                          {{"block", block}, {"first", first}, {"end", end}});
}

// Block b's elements of the input.
std::span<const float> block_elements(const std::vector<float>& input, std::size_t block, std::size_t span) {
    const std::size_t first = block * span;
    return std::span<const float>(input).subspan(first, std::min(span, input.size() - first));
}

// What a wrong block sum equals instead, when it is one of a learner's
// usual slips: 0, the sum of only the block's first k elements, or the
// block's sum with one element left out or counted twice. "" when it is none
// of these, or when more than one of them would explain it.
std::string what_the_sum_is(std::span<const float> block, std::size_t first, double got, double want,
                            double tolerance) {
    if (got == 0.0) return messages::text("checks.block_sums.zero");
    const auto near = [&](double value) { return std::fabs(got - value) <= tolerance; };
    const auto element = [&](const char* id, std::size_t k) {
        return messages::text(id, {{"element", first + k}, {"value", number_text(block[k])}});
    };
    std::vector<std::string> explanations;
    double prefix = 0.0;  // up to all but two elements: all but one is "without" the last
    for (std::size_t k = 0; k + 2 < block.size(); ++k) {
        prefix += block[k];
        if (near(prefix)) {
            explanations.push_back(
                messages::text("checks.block_sums.first_elements",
                               {{"count", k + 1}, {"first", first}, {"end", first + k + 1}}));
        }
    }
    for (std::size_t k = 0; k < block.size(); ++k) {
        if (near(want - block[k])) explanations.push_back(element("checks.block_sums.without_element", k));
        if (near(want + block[k])) explanations.push_back(element("checks.block_sums.element_twice", k));
    }
    return explanations.size() == 1 ? explanations.front() : "";
}

// Compares one run with the per-block references and reports the first
// wrong block with its range and the likely cause.
void expect_block_sums(const BlockSumKernel& kernel, const std::vector<float>& input, int block_size,
                       const BlockSumRun& run, std::uint64_t seed, bool exact) {
    const int n = static_cast<int>(input.size());
    const std::size_t span = static_cast<std::size_t>(block_size) * kernel.elements_per_thread;
    std::vector<double> want(run.sums.size()), tolerance(run.sums.size());
    for (std::size_t b = 0; b < want.size(); ++b) {
        const auto block = block_elements(input, b, span);
        want[b] = reference_sum(block);
        tolerance[b] =
            exact ? 0.0 : sum_tolerance(block.size(), reference_sum_abs(block), kernel.elements_per_thread);
    }
    if (const auto mismatch = first_mismatch(run.sums, want, tolerance)) {
        std::string cause = likely_cause(*mismatch);
        if (cause.empty()) {
            cause = what_the_sum_is(block_elements(input, mismatch->index, span), mismatch->index * span,
                                    mismatch->got, mismatch->want, mismatch->tolerance);
        }
        FAIL(messages::text("checks.block_sums.wrong",
                            {{"kernel", kernel.name},
                             {"mismatch", describe(*mismatch, "block_sums")},
                             {"range", block_range(kernel, mismatch->index, n, block_size)},
                             {"launch", describe_size(kernel, n, block_size, seed)}})
             << likely_cause_line(cause));
    }
    SUCCEED();  // one passed check per size, in Catch2's count
}

// The first block whose sum differs between two runs, or nothing.
std::optional<std::size_t> first_different_block(const BlockSumRun& a, const BlockSumRun& b) {
    for (std::size_t i = 0; i < a.sums.size(); ++i) {
        const bool same = a.sums[i] == b.sums[i] || (std::isnan(a.sums[i]) && std::isnan(b.sums[i]));
        if (!same) return i;
    }
    return std::nullopt;
}

}  // namespace

int block_count(const BlockSumKernel& kernel, int n, int block_size) {
    const int span = block_size * kernel.elements_per_thread;
    return (n + span - 1) / span;
}

void check_block_sums(const BlockSumKernel& kernel, int n, int block_size) {
    const std::uint64_t seed = fresh_seed();
    const std::vector<float> input = random_floats(static_cast<std::size_t>(n), seed);
    const BlockSumRun run = run_block_sums(kernel, input, block_size, seed);
    expect_block_sums(kernel, input, block_size, run, seed, false);
    if (!cpu_backend || n == 0) return;

    const auto differs = [&](const BlockSumRun& ascending, const BlockSumRun& descending) -> std::string {
        const auto block = first_different_block(ascending, descending);
        if (!block) return "";
        return messages::text("checks.block_sums.order_difference",
                              {{"block", *block},
                               {"first", number_text(ascending.sums[*block])},
                               {"second", number_text(descending.sums[*block])},
                               {"range", block_range(kernel, *block, n, block_size)}});
    };
    const auto dependence = order_dependence<BlockSumRun>(
        run, [&] { return run_block_sums(kernel, input, block_size, seed); }, differs);
    if (dependence) {
        FAIL(messages::text("checks.block_sums.order_dependent",
                            {{"kernel", kernel.name},
                             {"problem", *dependence},
                             {"launch", describe_size(kernel, n, block_size, seed)}}));
    }
    if (kernel.idea) {
        const std::string problem = kernel.idea(run.stats, block_size);
        if (!problem.empty()) {
            FAIL(messages::text("checks.block_sums.idea",
                                {{"kernel", kernel.name}, {"problem", problem}, {"block_size", block_size}}));
        }
    }
}

void check_block_sums_exact(const BlockSumKernel& kernel, int n, int block_size) {
    const std::uint64_t seed = fresh_seed();
    const std::vector<float> input = random_small_integers(static_cast<std::size_t>(n), seed);
    expect_block_sums(kernel, input, block_size, run_block_sums(kernel, input, block_size, seed), seed, true);
}

void check_block_sums_nan(const BlockSumKernel& kernel, int n, int block_size) {
    const std::uint64_t seed = fresh_seed();
    std::vector<float> input = random_floats(static_cast<std::size_t>(n), seed);
    input[static_cast<std::size_t>(n) / 3] = std::numeric_limits<float>::quiet_NaN();
    input[static_cast<std::size_t>(n) - 1] = std::numeric_limits<float>::infinity();
    expect_block_sums(kernel, input, block_size, run_block_sums(kernel, input, block_size, seed), seed,
                      false);
}

void check_block_sum_lesson(const BlockSumKernel& kernel) {
    const int large = 1 << 20;
    for (int block_size : kernel.block_sizes) {
        const int span = block_size * kernel.elements_per_thread;
        for (int n : {1, 31, 32, 33, span - 1, span, span + 1, 3 * span + 7, 1000, 4099}) {
            check_block_sums(kernel, n, block_size);
        }
    }
    const int block_size = kernel.block_sizes.back() >= 256 ? 256 : kernel.block_sizes.back();
    check_block_sums(kernel, large, block_size);
    check_block_sums_exact(kernel, large + 5, block_size);
    check_block_sums_nan(kernel, 5000, block_size);

    // No elements: no blocks, and nothing may be launched or written.
    DeviceBuffer<float> nothing(1);
    nothing.poison();
    launch_or_fail(kernel.name,
                   messages::text("checks.block_sums.empty_launch", {{"block_size", block_size}}), [&] {
                       kernel.launch(nothing.data(), nothing.data(), 0, block_size);
                       check_launch();
                   });
    if (!std::isnan(nothing.download()[0]))
        FAIL(messages::text("checks.block_sums.written_when_empty", {{"kernel", kernel.name}}));
}

// ---- shuffles ---------------------------------------------------------------

namespace {

constexpr int kWarp = 32;

// Distinct values, so that a wrong one names the lane it came from.
std::vector<int> distinct_values(std::size_t count, std::uint64_t seed) {
    std::vector<int> values(count);
    std::iota(values.begin(), values.end(), 100);
    std::shuffle(values.begin(), values.end(), std::mt19937_64(seed));
    return values;
}

// One thread's values, "131" or "131 140 112 127".
std::string values_of(const std::vector<int>& values, int thread, int per_thread) {
    std::string text;
    for (int k = 0; k < per_thread; ++k)
        text += (k ? " " : "") + std::to_string(values[static_cast<std::size_t>(thread * per_thread + k)]);
    return text;
}

// Where thread `thread`'s wrong values came from: "lane 5's value", "its
// own value", "never written", or "" when they are no input's values.
std::string source_of(const std::vector<int>& in, const std::vector<int>& got, int thread, int per_thread) {
    const std::size_t first = static_cast<std::size_t>(thread * per_thread);
    if (std::all_of(got.begin() + first, got.begin() + first + per_thread, [](int v) { return v == -1; }))
        return messages::text("checks.shuffle.source.never_written");
    const auto at = std::find(in.begin(), in.end(), got[first]);
    if (at == in.end()) return "";
    const int source = static_cast<int>(at - in.begin()) / per_thread;
    const bool whole_array =
        std::equal(got.begin() + first, got.begin() + first + per_thread, in.begin() + source * per_thread);
    if (!whole_array) return "";
    const bool many = per_thread > 1;
    if (source == thread)
        return messages::text(many ? "checks.shuffle.source.own_values" : "checks.shuffle.source.own_value");
    if (source / kWarp == thread / kWarp) {
        return messages::text(many ? "checks.shuffle.source.lane_values" : "checks.shuffle.source.lane_value",
                              {{"lane", source % kWarp}});
    }
    return messages::text(
        many ? "checks.shuffle.source.warp_lane_values" : "checks.shuffle.source.warp_lane_value",
        {{"warp", source / kWarp}, {"lane", source % kWarp}});
}

// "the group of lanes 4-7 of warp 1", or "lane 5 of warp 0" when groups are single lanes.
std::string describe_group(int thread, int width) {
    const int first = thread % kWarp / width * width;
    const int warp = thread / kWarp;
    if (width == 1) return messages::text("checks.shuffle.lane", {{"lane", first}, {"warp", warp}});
    return messages::text("checks.shuffle.group",
                          {{"first", first}, {"last", first + width - 1}, {"warp", warp}});
}

// The columns `text` takes in a terminal: two for a Chinese character (three
// bytes or more in UTF-8), one for any other.
std::size_t columns_of(const std::string& text) {
    std::size_t columns = 0;
    for (const unsigned char byte : text) {
        if ((byte & 0xc0) == 0x80) continue;  // the rest of a character
        columns += byte >= 0xe0 ? 2 : 1;
    }
    return columns;
}

// The group of `width` lanes that holds thread `thread`, one row per lane:
// | lane | value in | expected | got |, with the wrong rows marked.
std::string lane_table(const std::vector<int>& in, const std::vector<int>& want, const std::vector<int>& got,
                       int thread, int width, int per_thread) {
    const int first = thread - thread % kWarp % width;
    // "lane" is the same word in both languages.
    std::vector<std::array<std::string, 4>> rows{{"lane", messages::text("checks.shuffle.column.value_in"),
                                                  messages::text("checks.shuffle.column.expected"),
                                                  messages::text("checks.shuffle.column.got")}};
    for (int t = first; t < first + width; ++t) {
        rows.push_back({std::to_string(t % kWarp), values_of(in, t, per_thread),
                        values_of(want, t, per_thread), values_of(got, t, per_thread)});
    }
    std::array<std::size_t, 4> column_width{};
    for (const auto& row : rows)
        for (std::size_t c = 0; c < row.size(); ++c)
            column_width[c] = std::max(column_width[c], columns_of(row[c]));

    std::string table;
    for (std::size_t r = 0; r < rows.size(); ++r) {
        table += "\n|";
        for (std::size_t c = 0; c < rows[r].size(); ++c)
            table += " " + std::string(column_width[c] - columns_of(rows[r][c]), ' ') + rows[r][c] + " |";
        const int t = first + static_cast<int>(r) - 1;
        if (r > 0 && rows[r][2] != rows[r][3]) {
            const std::string source = source_of(in, got, t, per_thread);
            table += " " + (source.empty()
                                ? messages::text("checks.shuffle.wrong_row")
                                : messages::text("checks.shuffle.wrong_row_from", {{"source", source}}));
        }
    }
    return table;
}

// "shuffle_broadcast with src_lane = 3, width = 8"
std::string describe_launch(const ShuffleExercise& exercise, int param, int width) {
    if (exercise.param_name.empty()) {
        return messages::text("checks.shuffle.launch_without_parameter",
                              {{"exercise", exercise.name}, {"width", width}});
    }
    return messages::text("checks.shuffle.launch", {{"exercise", exercise.name},
                                                    {"parameter", exercise.param_name},
                                                    {"value", param},
                                                    {"width", width}});
}

}  // namespace

void check_shuffle_exercise(const ShuffleExercise& exercise) {
    const std::size_t count = static_cast<std::size_t>(kShuffleThreads) * exercise.values_per_thread;
    for (int width = 1; width <= kWarp; width *= 2) {
        for (int param : exercise.params) {
            const std::string launched = describe_launch(exercise, param, width);
            const std::uint64_t seed = fresh_seed();
            const std::vector<int> in = distinct_values(count, seed);
            DeviceBuffer<int> d_in{std::span<const int>(in)};
            DeviceBuffer<int> d_out(count);
            d_out.poison();
            const std::string input =
                messages::text("checks.input_seed", {{"input", launched}, {"seed", describe_seed(seed)}});
            launch_or_fail(exercise.name, input, [&] {
                exercise.launch(d_in.data(), d_out.data(), kShuffleThreads, param, width);
                check_launch();
            });
            const std::vector<int> got = d_out.download();
            const std::vector<int> want = exercise.reference(in, param, width);
            if (const auto mismatch = first_mismatch(got, want)) {
                const int thread = static_cast<int>(mismatch->index) / exercise.values_per_thread;
                FAIL(messages::text("checks.shuffle.wrong", {{"launch", launched},
                                                             {"group", describe_group(thread, width)},
                                                             {"seed", describe_seed(seed)}})
                     << lane_table(in, want, got, thread, width, exercise.values_per_thread));
            }
            if (const auto stats = last_launch_stats(); stats && width > 1 && stats->shuffles == 0)
                FAIL(messages::text("checks.shuffle.not_shuffled", {{"launch", launched}}));
            SUCCEED();
        }
    }
}

}  // namespace warpdrill::course
