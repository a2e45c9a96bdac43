#include "warpdrill/course/device_sum.h"

#include <bit>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "warpdrill/catch.h"
#include "warpdrill/data.h"
#include "warpdrill/host.h"
#include "warpdrill/reference.h"

namespace warpdrill::course {
namespace {

constexpr int kPackFloats = 4;

bool is_poison(float value) { return std::bit_cast<std::uint32_t>(value) == 0xffffffffu; }

// "1 cluster", "4 clusters"
std::string count_of(std::uint64_t count, const std::string& noun) {
    return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

DeviceSumRun run_on_device(const DeviceSum& kernel, const std::vector<float>& input, unsigned max_blocks) {
    DeviceBuffer<float> d_in{std::span<const float>(input)};
    return kernel.run(d_in.data(), static_cast<std::int64_t>(input.size()), max_blocks);
}

std::string describe_run(std::int64_t n, const DeviceSumRun& run, std::uint64_t seed) {
    std::ostringstream text;
    text << "n = " << n << " (n % 4 = " << n % kPackFloats << "), a grid of " << count_of(run.blocks, "block")
         << " of " << run.block_threads << " threads; input seed " << seed << " (WARPDRILL_SEED=" << seed
         << " replays it)";
    return text.str();
}

// The longest chain of dependent additions: a thread's grid-stride loop,
// then the trees (counted by the tolerance's log2 n), then one thread's
// share of the partial sums.
std::size_t sequential_terms(std::int64_t n, const DeviceSumRun& run) {
    const std::int64_t threads = std::int64_t{run.blocks} * run.block_threads;
    const std::int64_t packs_per_thread = (n / kPackFloats + threads - 1) / threads;
    const std::int64_t partials_per_thread =
        (run.partials_written + run.block_threads - 1) / run.block_threads;
    return static_cast<std::size_t>(kPackFloats * packs_per_thread + 1 + partials_per_thread);
}

std::string likely_cause(const DeviceSum& kernel, const DeviceSumRun& run, double want) {
    if (is_poison(run.sum)) {
        return "the result has all bits set, the poison written before the launch: it was never written, or "
               "it "
               "was added up from a partial sum read before it was written";
    }
    if (std::isnan(run.sum) && !std::isnan(want)) {
        return "NaN, though the input holds none: a sum read memory that was never written (the " +
               kernel.partials_name + " are poisoned, all bits set, before the launch)";
    }
    if (run.partials_written > 1 && !run.partials.empty() && run.sum == run.partials[0]) {
        return "the result is " + kernel.partials_name + "[0] alone: the other " +
               std::to_string(run.partials_written - 1) + " partial sums were not added";
    }
    if (run.sum == 0.0f) return "exactly 0: nothing was added";
    return "a wrong value";
}

// Every writer's partial sum written, and nothing past them.
void expect_partials(const DeviceSum& kernel, const DeviceSumRun& run, const std::string& where) {
    for (std::size_t i = 0; i < run.partials.size(); ++i) {
        const bool written = !is_poison(run.partials[i]);
        if (i < run.partials_written && !written) {
            FAIL(kernel.name << ": " << kernel.partials_name << "[" << i
                             << "] still holds the poison written before the launch, though the grid has "
                             << count_of(run.partials_written, kernel.writer) << "; " << where);
        }
        if (i >= run.partials_written && written) {
            FAIL(kernel.name << ": " << kernel.partials_name << "[" << i
                             << "] was written, but the grid has only "
                             << count_of(run.partials_written, kernel.writer) << ": one partial sum per "
                             << kernel.writer << " may reach global memory; " << where);
        }
    }
}

void expect_sum(const DeviceSum& kernel, const std::vector<float>& input, const DeviceSumRun& run,
                std::uint64_t seed, bool exact) {
    const auto n = static_cast<std::int64_t>(input.size());
    const double want = reference_sum(input);
    const double tolerance =
        exact ? 0.0 : sum_tolerance(input.size(), reference_sum_abs(input), sequential_terms(n, run));
    const std::string where = describe_run(n, run, seed);
    if (first_mismatch(std::span(&run.sum, 1), std::span(&want, 1), std::span(&tolerance, 1))) {
        std::ostringstream text;
        text.precision(9);
        text << kernel.name << ": the sum is " << run.sum << ", but the reference is " << want;
        if (std::isfinite(run.sum) && std::isfinite(want)) {
            text << " (off by " << std::fabs(run.sum - want) << ", tolerance " << tolerance << ")";
        }
        FAIL(text.str() << "; " << where << ".\nLikely cause: " << likely_cause(kernel, run, want) << ".");
    }
    expect_partials(kernel, run, where);
    SUCCEED();  // one passed check per input, in Catch2's count
}

std::string bits_differ(const DeviceSumRun& a, const DeviceSumRun& b) {
    if (std::bit_cast<std::uint32_t>(a.sum) == std::bit_cast<std::uint32_t>(b.sum)) return "";
    std::ostringstream text;
    text.precision(9);
    text << "the sum was " << a.sum << " and then " << b.sum;
    return text.str();
}

void check_random_sum(const DeviceSum& kernel, std::int64_t n, unsigned max_blocks) {
    const std::uint64_t seed = fresh_seed();
    const std::vector<float> input = random_floats(static_cast<std::size_t>(n), seed);
    const DeviceSumRun run = run_on_device(kernel, input, max_blocks);
    expect_sum(kernel, input, run, seed, false);
    if (!cpu_backend || n == 0 || n > (1 << 20)) return;
    const auto dependence = order_dependence<DeviceSumRun>(
        run, [&] { return run_on_device(kernel, input, max_blocks); }, bits_differ);
    if (dependence) FAIL(kernel.name << ": " << *dependence << "; " << describe_run(n, run, seed));
}

// The same input gives the same bits, launch after launch: the partial sums
// are added in a fixed order, never in the order the blocks finish.
void check_same_bits(const DeviceSum& kernel, std::int64_t n) {
    const std::uint64_t seed = fresh_seed();
    const std::vector<float> input = random_floats(static_cast<std::size_t>(n), seed);
    const DeviceSumRun first = run_on_device(kernel, input, 0);
    for (int again = 0; again < 3; ++again) {
        const std::string difference = bits_differ(first, run_on_device(kernel, input, 0));
        if (!difference.empty()) {
            FAIL(kernel.name << ": the same input gave different bits on another launch: " << difference
                             << "; " << describe_run(n, first, seed));
        }
    }
    SUCCEED();
}

void check_special_values(const DeviceSum& kernel) {
    const std::uint64_t seed = fresh_seed();
    std::vector<float> input = random_floats(10001, seed);
    input[3333] = std::numeric_limits<float>::quiet_NaN();
    expect_sum(kernel, input, run_on_device(kernel, input, 0), seed, false);
    input[3333] = std::numeric_limits<float>::infinity();
    expect_sum(kernel, input, run_on_device(kernel, input, 0), seed, false);
    input[10000] = -std::numeric_limits<float>::infinity();  // inf + -inf is NaN
    expect_sum(kernel, input, run_on_device(kernel, input, 0), seed, false);
}

}  // namespace

void check_device_sum_lesson(const DeviceSum& kernel) {
    INFO("backend: " << backend_name());
    // The counters explain a wrong sum best: look at them first.
    if (cpu_backend && kernel.idea) {
        const std::vector<float> input = random_floats(1 << 16, fresh_seed());
        const std::string problem = kernel.idea(run_on_device(kernel, input, 0));
        if (!problem.empty()) FAIL(kernel.name << ": " << problem);
    }
    // From nothing to a grid of many blocks, sizes that do and do not fill packs of four.
    for (std::int64_t n : {0, 1, 2, 3, 5, 7, 31, 33, 255, 1000, 4097, 65537, (1 << 20) + 3, 1 << 22}) {
        check_random_sum(kernel, n, 0);
    }
    // One block for a large input, and a few: the grid-stride loop and the finish must not assume a size.
    check_random_sum(kernel, (1 << 18) + 1, 1);
    check_random_sum(kernel, (1 << 18) + 3, 3);

    // Whole numbers sum exactly in float: any difference is an element lost or counted twice.
    const std::uint64_t seed = fresh_seed();
    const std::vector<float> integers = random_small_integers((1 << 20) + 5, seed);
    expect_sum(kernel, integers, run_on_device(kernel, integers, 0), seed, true);

    check_special_values(kernel);
    check_same_bits(kernel, (1 << 20) + 7);

    DeviceBuffer<float> buffer(64);
    CHECK_THROWS_AS(kernel.run(buffer.data() + 1, 60, 0), std::invalid_argument);
}

bool skip_before_compute_capability(int major, int minor, const std::string& what) {
    cudaDeviceProp prop{};
    check_cuda(cudaGetDeviceProperties(&prop, 0));
    if (prop.major * 10 + prop.minor >= major * 10 + minor) return false;
    std::ostringstream skipped;
    skipped << "SKIPPED on this GPU: " << what << " (compute capability " << major << "." << minor
            << " or later); this GPU, " << prop.name << ", has " << prop.major << "." << prop.minor;
    note_skip(skipped.str());
    WARN(skipped.str());
    return true;
}

}  // namespace warpdrill::course
