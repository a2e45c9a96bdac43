// Lesson 8's checks. Run them with `warpdrill check 8`.
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "warpdrill/catch.h"
#include "warpdrill/course/lesson.h"
#include "warpdrill/data.h"
#include "warpdrill/host.h"
#include "warpdrill/reference.h"

using namespace warpdrill;
using namespace warpdrill::course;

namespace {

std::string describe_input(std::size_t n, std::uint64_t seed) {
    if (n == 0) return "n = 0";
    return "n = " + std::to_string(n) + " (n % 4 = " + std::to_string(n % 4) + "), " + describe_seed(seed);
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
        std::ostringstream text;
        text << "device_sum = " << number_text(got) << ", but the reference is " << number_text(want)
             << " (off by " << number_text(std::fabs(got - want)) << ", tolerance " << number_text(tolerance)
             << "); " << describe_input(input.size(), seed) << ".";
        if (got == 0.0f) text << "\nLikely cause: the sum is exactly 0, as if no element was added.";
        FAIL(text.str());
    }
}

}  // namespace

TEST_CASE("lesson 8: reduce_grid_stride sums random floats of every size", "[lesson08][reduce]") {
    if (const float empty = sum_on_device({}, 0); empty != 0.0f)
        FAIL("device_sum of no elements = " << number_text(empty) << ", but it must be 0.");
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
                    return ascending == descending ? std::string()
                                                   : "the sum was " + number_text(ascending) + " and then " +
                                                         number_text(descending);
                });
            if (dependence) FAIL(*dependence << "; " << describe_input(input.size(), seed) << ".");
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
    std::vector<float> input = random_floats(10000, seed);
    input[7777] = std::numeric_limits<float>::quiet_NaN();
    if (const float sum = sum_on_device(input, seed); !std::isnan(sum)) {
        FAIL("device_sum = " << number_text(sum) << ", but input[7777] is NaN, so the sum must be NaN; "
                             << describe_input(input.size(), seed) << ".\nLikely cause: element 7777 was "
                             << "never added.");
    }

    DeviceBuffer<float> buffer(64);
    CHECK_THROWS_AS(device_sum(buffer.data() + 1, 60), std::invalid_argument);
}
