#include "warpdrill/course/device_sum.h"

#include <bit>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "warpdrill/catch.h"
#include "warpdrill/data.h"
#include "warpdrill/host.h"
#include "warpdrill/messages.h"
#include "warpdrill/reference.h"

namespace warpdrill::course {
namespace {

bool is_poison(float value) { return std::bit_cast<std::uint32_t>(value) == 0xffffffffu; }

// "1 cluster", "4 blocks": `count` of what writes the kernel's partial sums.
std::string writers(const DeviceSum& kernel, std::uint64_t count) {
    if (kernel.writer == "cluster") return counted(count, "checks.clusters.one", "checks.clusters.many");
    return counted(count, "checks.blocks.one", "checks.blocks.many");
}

// "cluster" or "block", in the learner's language.
std::string writer(const DeviceSum& kernel) {
    return messages::text(kernel.writer == "cluster" ? "checks.device_sum.writer.cluster"
                                                     : "checks.device_sum.writer.block");
}

DeviceSumRun run_on_device(const DeviceSum& kernel, const std::vector<float>& input, unsigned max_blocks) {
    DeviceBuffer<float> d_in{std::span<const float>(input)};
    return run_device_sum(kernel, d_in.data(), static_cast<std::int64_t>(input.size()), max_blocks);
}

std::string describe_run(std::int64_t n, const DeviceSumRun& run, std::uint64_t seed) {
    return messages::text("checks.grid_launch",
                          {{"n", n},
                           {"tail", n % kPackFloats},
                           {"blocks", counted(run.blocks, "checks.blocks.one", "checks.blocks.many")},
                           {"threads", run.block_threads},
                           {"seed", describe_seed(seed)}});
}

std::string likely_cause(const DeviceSum& kernel, const DeviceSumRun& run, double want) {
    if (is_poison(run.sum)) return messages::text("checks.device_sum.cause.poison");
    if (std::isnan(run.sum) && !std::isnan(want))
        return messages::text("checks.device_sum.cause.nan", {{"array", kernel.partials_name}});
    if (run.partials_written > 1 && !run.partials.empty() && run.sum == run.partials[0]) {
        return messages::text("checks.device_sum.cause.first_only",
                              {{"array", kernel.partials_name}, {"others", run.partials_written - 1}});
    }
    if (run.sum == 0.0f) return messages::text("checks.device_sum.cause.zero");
    return messages::text("checks.device_sum.cause.wrong");
}

// Every writer's partial sum written, and nothing past them.
void expect_partials(const DeviceSum& kernel, const DeviceSumRun& run, const std::string& where) {
    for (std::size_t i = 0; i < run.partials.size(); ++i) {
        const bool written = !is_poison(run.partials[i]);
        if (i < run.partials_written && !written) {
            FAIL(messages::text("checks.device_sum.partial_unwritten",
                                {{"kernel", kernel.name},
                                 {"array", kernel.partials_name},
                                 {"index", i},
                                 {"writers", writers(kernel, run.partials_written)},
                                 {"launch", where}}));
        }
        if (i >= run.partials_written && written) {
            FAIL(messages::text("checks.device_sum.partial_extra",
                                {{"kernel", kernel.name},
                                 {"array", kernel.partials_name},
                                 {"index", i},
                                 {"writers", writers(kernel, run.partials_written)},
                                 {"writer", writer(kernel)},
                                 {"launch", where}}));
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
        const std::string got = stream_text(run.sum, 9), reference = stream_text(want, 9);
        const std::string failure =
            std::isfinite(run.sum) && std::isfinite(want)
                ? messages::text("checks.device_sum.sum_off_by",
                                 {{"kernel", kernel.name},
                                  {"got", got},
                                  {"want", reference},
                                  {"difference", stream_text(std::fabs(run.sum - want), 9)},
                                  {"tolerance", stream_text(tolerance, 9)},
                                  {"launch", where}})
                : messages::text(
                      "checks.device_sum.sum_wrong",
                      {{"kernel", kernel.name}, {"got", got}, {"want", reference}, {"launch", where}});
        FAIL(failure << likely_cause_line(likely_cause(kernel, run, want)));
    }
    expect_partials(kernel, run, where);
    SUCCEED();  // one passed check per input, in Catch2's count
}

std::string bits_differ(const DeviceSumRun& a, const DeviceSumRun& b) {
    if (std::bit_cast<std::uint32_t>(a.sum) == std::bit_cast<std::uint32_t>(b.sum)) return "";
    return messages::text("checks.sum_was",
                          {{"first", stream_text(a.sum, 9)}, {"second", stream_text(b.sum, 9)}});
}

void check_random_sum(const DeviceSum& kernel, std::int64_t n, unsigned max_blocks) {
    const std::uint64_t seed = fresh_seed();
    const std::vector<float> input = random_floats(static_cast<std::size_t>(n), seed);
    const DeviceSumRun run = run_on_device(kernel, input, max_blocks);
    expect_sum(kernel, input, run, seed, false);
    if (!cpu_backend || n == 0 || n > (1 << 20)) return;
    const auto dependence = order_dependence<DeviceSumRun>(
        run, [&] { return run_on_device(kernel, input, max_blocks); }, bits_differ);
    if (dependence) {
        FAIL(messages::text(
            "checks.device_sum.order_dependent",
            {{"kernel", kernel.name}, {"problem", *dependence}, {"launch", describe_run(n, run, seed)}}));
    }
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
            FAIL(messages::text("checks.device_sum.bits_differ", {{"kernel", kernel.name},
                                                                  {"difference", difference},
                                                                  {"launch", describe_run(n, first, seed)}}));
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
    INFO(describe_backend());
    // The counters explain a wrong sum best: look at them first.
    if (cpu_backend && kernel.idea) {
        const std::vector<float> input = random_floats(1 << 16, fresh_seed());
        const std::string problem = kernel.idea(run_on_device(kernel, input, 0));
        if (!problem.empty())
            FAIL(messages::text("checks.device_sum.idea", {{"kernel", kernel.name}, {"problem", problem}}));
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
    CHECK_THROWS_AS(run_device_sum(kernel, buffer.data() + 1, 60, 0), std::invalid_argument);
}

bool skip_before_compute_capability(int major, int minor, const std::string& what) {
    cudaDeviceProp prop{};
    check_cuda(cudaGetDeviceProperties(&prop, 0));
    if (prop.major * 10 + prop.minor >= major * 10 + minor) return false;
    const std::string skipped = messages::text("checks.skipped", {{"requirement", what},
                                                                  {"major", major},
                                                                  {"minor", minor},
                                                                  {"gpu", prop.name},
                                                                  {"gpu_major", prop.major},
                                                                  {"gpu_minor", prop.minor}});
    note_skip(skipped);
    WARN(skipped);
    return true;
}

}  // namespace warpdrill::course
