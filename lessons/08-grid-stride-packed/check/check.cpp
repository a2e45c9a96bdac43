// Lesson 8's checks. Run them with `warpdrill check 8`.
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>

#include "warpdrill/catch.h"
#include "warpdrill/course/lesson.h"
#include "warpdrill/data.h"
#include "warpdrill/host.h"
#include "warpdrill/reference.h"

using namespace warpdrill;
using namespace warpdrill::course;

namespace {

const char* kHint =
    "a grid-stride loop over n / 4 packs (start at this thread's global index, step by gridDim.x * "
    "blockDim.x), "
    "then the last n % 4 elements one by one";

float sum_on_device(const std::vector<float>& input) {
    DeviceBuffer<float> d_in{std::span<const float>(input)};
    return device_sum(d_in.data(), static_cast<int>(input.size()));
}

void expect_sum(const std::vector<float>& input, float got, double tolerance, std::uint64_t seed) {
    const double want = reference_sum(input);
    if (std::isnan(want) && std::isnan(got)) return;
    if (!(std::fabs(got - want) <= tolerance)) {
        std::ostringstream text;
        text << "device_sum = " << got << ", but the reference is " << want << " (off by "
             << std::fabs(got - want) << ", tolerance " << tolerance << "); n = " << input.size()
             << " (n % 4 = " << input.size() % 4 << "), input seed " << seed << " (WARPDRILL_SEED=" << seed
             << " replays it).\nHint: " << kHint;
        if (got == 0.0f) text << ".\nA result of exactly 0: did the loops add anything?";
        FAIL(text.str());
    }
}

}  // namespace

TEST_CASE("lesson 8: reduce_grid_stride sums random floats of every size", "[lesson08][reduce]") {
    INFO("backend: " << backend_name());
    CHECK(sum_on_device({}) == 0.0f);
    for (int n : {1, 3, 4, 5, 31, 32, 33, 255, 256, 257, 1000, 4099, (1 << 20) + 3, 1 << 22}) {
        const std::uint64_t seed = fresh_seed();
        const std::vector<float> input = random_floats(static_cast<std::size_t>(n), seed);
        const double tolerance =
            sum_tolerance(input.size(), reference_sum_abs(input), max_elements_per_thread(n));
        const float sum = sum_on_device(input);
        expect_sum(input, sum, tolerance, seed);
        if (cpu_backend && n < (1 << 20)) {
            const auto dependence = order_dependence<float>(
                sum, [&] { return sum_on_device(input); },
                +[](const float& a, const float& b) {
                    return a == b ? std::string()
                                  : "the sum was " + std::to_string(a) + " and then " + std::to_string(b);
                });
            if (dependence) FAIL(*dependence);
        }
    }
}

TEST_CASE("lesson 8: no element is lost or counted twice", "[lesson08][reduce]") {
    // Whole numbers sum exactly in float: any difference is a lost or doubled element.
    for (int n : {7, 1021, (1 << 20) + 5}) {
        const std::uint64_t seed = fresh_seed();
        const std::vector<float> input = random_small_integers(static_cast<std::size_t>(n), seed);
        expect_sum(input, sum_on_device(input), 0.0, seed);
    }
}

TEST_CASE("lesson 8: NaN propagates, and a misaligned input is refused", "[lesson08][reduce]") {
    const std::uint64_t seed = fresh_seed();
    std::vector<float> input = random_floats(10000, seed);
    input[7777] = std::numeric_limits<float>::quiet_NaN();
    CHECK(std::isnan(sum_on_device(input)));

    DeviceBuffer<float> buffer(64);
    CHECK_THROWS_AS(device_sum(buffer.data() + 1, 60), std::invalid_argument);
}
