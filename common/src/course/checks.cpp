#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <sstream>

#include "warpdrill/catch.h"
#include "warpdrill/course/lesson.h"
#include "warpdrill/data.h"
#include "warpdrill/host.h"
#include "warpdrill/reference.h"

namespace warpdrill::course {
namespace {

struct BlockSumRun {
    std::vector<float> sums;
    LaunchStats stats{};
};

BlockSumRun run_block_sums(const BlockSumKernel& kernel, const std::vector<float>& input, int block_size) {
    const int n = static_cast<int>(input.size());
    DeviceBuffer<float> d_in{std::span<const float>(input)};
    DeviceBuffer<float> d_sums(static_cast<std::size_t>(block_count(kernel, n, block_size)));
    d_sums.poison();
    kernel.launch(d_in.data(), d_sums.data(), n, block_size);
    check_launch();
    return {d_sums.download(), last_launch_stats().value_or(LaunchStats{})};
}

std::string describe_size(const BlockSumKernel& kernel, int n, int block_size, std::uint64_t seed) {
    std::ostringstream text;
    text << "n = " << n << ", block size " << block_size << ", " << block_count(kernel, n, block_size)
         << " blocks of " << block_size * kernel.elements_per_thread << " elements; input seed " << seed
         << " (WARPDRILL_SEED=" << seed << " replays it)";
    return text.str();
}

std::string block_range(const BlockSumKernel& kernel, std::size_t block, int n, int block_size) {
    const std::size_t span = static_cast<std::size_t>(block_size) * kernel.elements_per_thread;
    const std::size_t first = block * span;
    const std::size_t end = std::min(first + span, static_cast<std::size_t>(n));
    std::ostringstream text;
    text << "block " << block << " sums elements [" << first << ", " << end << ")";
    if (end - first < span) text << ", a partial block: threads past n must add nothing";
    return text.str();
}

// Compares one run with the per-block references and reports the first
// wrong block with its range, the likely cause and the lesson's hint.
void expect_block_sums(const BlockSumKernel& kernel, const std::vector<float>& input, int block_size,
                       const BlockSumRun& run, std::uint64_t seed, bool exact) {
    const int n = static_cast<int>(input.size());
    const std::size_t span = static_cast<std::size_t>(block_size) * kernel.elements_per_thread;
    std::vector<double> want(run.sums.size()), tolerance(run.sums.size());
    for (std::size_t b = 0; b < want.size(); ++b) {
        const std::size_t first = b * span;
        const auto block = std::span<const float>(input).subspan(first, std::min(span, input.size() - first));
        want[b] = reference_sum(block);
        tolerance[b] =
            exact ? 0.0 : sum_tolerance(block.size(), reference_sum_abs(block), kernel.elements_per_thread);
    }
    if (const auto mismatch = first_mismatch(run.sums, want, tolerance)) {
        FAIL(kernel.name << ": " << describe(*mismatch, "block_sums") << ".\n"
                         << block_range(kernel, mismatch->index, n, block_size) << "; "
                         << describe_size(kernel, n, block_size, seed)
                         << ".\nLikely cause: " << likely_cause(*mismatch) << ".\nHint: " << kernel.hint);
    }
    SUCCEED();  // one passed check per size, in Catch2's count
}

std::string first_difference(const BlockSumRun& a, const BlockSumRun& b) {
    for (std::size_t i = 0; i < a.sums.size(); ++i) {
        const bool same = a.sums[i] == b.sums[i] || (std::isnan(a.sums[i]) && std::isnan(b.sums[i]));
        if (!same) {
            std::ostringstream text;
            text << "block_sums[" << i << "] was " << a.sums[i] << " and then " << b.sums[i];
            return text.str();
        }
    }
    return "";
}

}  // namespace

int block_count(const BlockSumKernel& kernel, int n, int block_size) {
    const int span = block_size * kernel.elements_per_thread;
    return (n + span - 1) / span;
}

void check_block_sums(const BlockSumKernel& kernel, int n, int block_size) {
    const std::uint64_t seed = fresh_seed();
    const std::vector<float> input = random_floats(static_cast<std::size_t>(n), seed);
    const BlockSumRun run = run_block_sums(kernel, input, block_size);
    expect_block_sums(kernel, input, block_size, run, seed, false);
    if (!cpu_backend || n == 0) return;

    const auto dependence = order_dependence<BlockSumRun>(
        run, [&] { return run_block_sums(kernel, input, block_size); }, first_difference);
    if (dependence)
        FAIL(kernel.name << ": " << *dependence << "; " << describe_size(kernel, n, block_size, seed));
    if (kernel.idea) {
        const std::string problem = kernel.idea(run.stats, block_size);
        if (!problem.empty()) FAIL(kernel.name << ": " << problem << " (block size " << block_size << ")");
    }
}

void check_block_sums_exact(const BlockSumKernel& kernel, int n, int block_size) {
    const std::uint64_t seed = fresh_seed();
    const std::vector<float> input = random_small_integers(static_cast<std::size_t>(n), seed);
    expect_block_sums(kernel, input, block_size, run_block_sums(kernel, input, block_size), seed, true);
}

void check_block_sums_nan(const BlockSumKernel& kernel, int n, int block_size) {
    const std::uint64_t seed = fresh_seed();
    std::vector<float> input = random_floats(static_cast<std::size_t>(n), seed);
    input[static_cast<std::size_t>(n) / 3] = std::numeric_limits<float>::quiet_NaN();
    input[static_cast<std::size_t>(n) - 1] = std::numeric_limits<float>::infinity();
    expect_block_sums(kernel, input, block_size, run_block_sums(kernel, input, block_size), seed, false);
}

void check_block_sum_lesson(const BlockSumKernel& kernel) {
    INFO("backend: " << backend_name());
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
    kernel.launch(nothing.data(), nothing.data(), 0, block_size);
    check_launch();
    CHECK(std::isnan(nothing.download()[0]));
}

// ---- shuffles ---------------------------------------------------------------

namespace {

// Distinct values, so that a wrong one names the lane it came from.
std::vector<int> distinct_values(std::size_t count, std::uint64_t seed) {
    std::vector<int> values(count);
    std::iota(values.begin(), values.end(), 100);
    std::shuffle(values.begin(), values.end(), std::mt19937_64(seed));
    return values;
}

std::string source_of(const std::vector<int>& in, int value, int values_per_thread) {
    const auto at = std::find(in.begin(), in.end(), value);
    if (value == -1) return "the poison written before the launch: nothing was stored there";
    std::ostringstream text;
    text << value;
    if (at == in.end()) return text.str();
    const auto index = at - in.begin();
    text << ", the value of thread " << index / values_per_thread;
    if (values_per_thread > 1) text << " (its element " << index % values_per_thread << ")";
    return text.str();
}

}  // namespace

void check_shuffle_exercise(const ShuffleExercise& exercise) {
    INFO("backend: " << backend_name());
    const std::size_t count = static_cast<std::size_t>(kShuffleThreads) * exercise.values_per_thread;
    for (int width = 1; width <= 32; width *= 2) {
        for (int param : exercise.params) {
            const std::uint64_t seed = fresh_seed();
            const std::vector<int> in = distinct_values(count, seed);
            DeviceBuffer<int> d_in{std::span<const int>(in)};
            DeviceBuffer<int> d_out(count);
            d_out.poison();
            exercise.launch(d_in.data(), d_out.data(), kShuffleThreads, param, width);
            check_launch();
            const std::vector<int> got = d_out.download();
            const std::vector<int> want = exercise.reference(in, param, width);
            if (const auto mismatch = first_mismatch(got, want)) {
                const std::size_t thread = mismatch->index / exercise.values_per_thread;
                FAIL(exercise.name << " with width " << width << " and parameter " << param << ": thread "
                                   << thread << " (lane " << thread % 32 << ", group of lanes "
                                   << thread % 32 / width * width << "-"
                                   << thread % 32 / width * width + width - 1 << ") holds "
                                   << source_of(in, got[mismatch->index], exercise.values_per_thread)
                                   << ", but should hold "
                                   << source_of(in, want[mismatch->index], exercise.values_per_thread)
                                   << " (out[" << mismatch->index << "]).\nHint: " << exercise.hint);
            }
            if (const auto stats = last_launch_stats(); stats && width > 1 && stats->shuffles == 0) {
                FAIL(exercise.name << ": the right values, but no warp shuffle moved them; use __shfl*_sync");
            }
            SUCCEED();
        }
    }
}

}  // namespace warpdrill::course
