// Lesson 8's checks. Run them with `warpdrill check 8`.
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "warpdrill/catch.h"
#include "warpdrill/course/lesson.h"
#include "warpdrill/data.h"
#include "warpdrill/host.h"
#include "warpdrill/messages.h"
#include "warpdrill/reference.h"

using namespace warpdrill;
using namespace warpdrill::course;

namespace {

std::string describe_input(std::size_t n, std::uint64_t seed) {
    if (n == 0) return "n = 0";
    return messages::text("lesson08.input", {{"n", n}, {"tail", n % 4}, {"seed", describe_seed(seed)}});
}

// The lesson's sum of d_in[0, n), its partial sums and result poisoned first.
float device_sum(const float* d_in, int n) {
    const int blocks = grid_stride_blocks(n);
    DeviceBuffer<float> partials(static_cast<std::size_t>(blocks));
    DeviceBuffer<float> sum(1);
    partials.poison();
    sum.poison();
    grid_stride_sum(d_in, n, blocks, partials.data(), sum.data());
    check_launch();
    return sum.download()[0];
}

float sum_on_device(const std::vector<float>& input, std::uint64_t seed) {
    DeviceBuffer<float> d_in{std::span<const float>(input)};
    float sum = 0.0f;
    launch_or_fail("device_sum", describe_input(input.size(), seed),
                   [&] { sum = device_sum(d_in.data(), static_cast<int>(input.size())); });
    return sum;
}

void expect_sum(const std::vector<float>& input, float got, double tolerance, std::uint64_t seed) {
    const double want = reference_sum(input);
    if (std::isnan(want) && std::isnan(got)) return;
    if (!(std::fabs(got - want) <= tolerance)) {
        FAIL(messages::text("lesson08.sum_wrong", {{"got", number_text(got)},
                                                   {"want", number_text(want)},
                                                   {"difference", number_text(std::fabs(got - want))},
                                                   {"tolerance", number_text(tolerance)},
                                                   {"input", describe_input(input.size(), seed)}})
             << likely_cause_line(got == 0.0f ? messages::text("lesson08.zero") : ""));
    }
}

}  // namespace

TEST_CASE("lesson 8: reduce_grid_stride sums random floats of every size", "[lesson08][reduce]") {
    if (const float empty = sum_on_device({}, 0); empty != 0.0f)
        FAIL(messages::text("lesson08.empty_not_zero", {{"sum", number_text(empty)}}));
    for (int n : {1, 3, 4, 5, 31, 32, 33, 255, 256, 257, 1000, 4099, (1 << 20) + 3, 1 << 22}) {
        const std::uint64_t seed = fresh_seed();
        const std::vector<float> input = random_floats(static_cast<std::size_t>(n), seed);
        const double tolerance =
            sum_tolerance(input.size(), reference_sum_abs(input), max_elements_per_thread(n));
        const float sum = sum_on_device(input, seed);
        expect_sum(input, sum, tolerance, seed);
        if (cpu_backend && n < (1 << 20)) {
            const auto dependence = order_dependence<float>(
                sum, [&] { return sum_on_device(input, seed); },
                [](float ascending, float descending) {
                    if (ascending == descending) return std::string();
                    return messages::text("checks.sum_was", {{"first", number_text(ascending)},
                                                             {"second", number_text(descending)}});
                });
            if (dependence) {
                FAIL(messages::text(
                    "lesson08.order_dependent",
                    {{"problem", *dependence}, {"input", describe_input(input.size(), seed)}}));
            }
        }
    }
}

TEST_CASE("lesson 8: no element is lost or counted twice", "[lesson08][reduce]") {
    // Whole numbers sum exactly in float: any difference is a lost or doubled element.
    for (int n : {7, 1021, (1 << 20) + 5}) {
        const std::uint64_t seed = fresh_seed();
        const std::vector<float> input = random_small_integers(static_cast<std::size_t>(n), seed);
        expect_sum(input, sum_on_device(input, seed), 0.0, seed);
    }
}

TEST_CASE("lesson 8: NaN propagates, and a misaligned input is refused", "[lesson08][reduce]") {
    const std::uint64_t seed = fresh_seed();
    const std::size_t nan_at = 7777;
    std::vector<float> input = random_floats(10000, seed);
    input[nan_at] = std::numeric_limits<float>::quiet_NaN();
    if (const float sum = sum_on_device(input, seed); !std::isnan(sum)) {
        FAIL(messages::text("lesson08.nan_lost", {{"sum", number_text(sum)},
                                                  {"element", nan_at},
                                                  {"input", describe_input(input.size(), seed)}})
             << likely_cause_line(messages::text("lesson08.never_added", {{"element", nan_at}})));
    }

    DeviceBuffer<float> buffer(64);
    CHECK_THROWS_AS(device_sum(buffer.data() + 1, 60), std::invalid_argument);
}
