// Lesson 9's checks. Run them with `warpdrill check 9`.
#include <limits>
#include <stdexcept>

#include "warpdrill/catch.h"
#include "warpdrill/course/lesson.h"
#include "warpdrill/data.h"
#include "warpdrill/host.h"
#include "warpdrill/messages.h"

using namespace warpdrill;
using namespace warpdrill::course;

namespace {

using ReduceScale = void (*)(const float*, float*, int, int);

std::string describe_shape(int rows, int cols, std::uint64_t seed) {
    return messages::text("lesson09.shape",
                          {{"rows", rows}, {"columns", cols}, {"seed", describe_seed(seed)}});
}

// y = reduce_scale(x) through device buffers; `offset` floats into each, to
// move the rows off 16-byte alignment.
std::vector<float> run_reduce_scale(const char* name, ReduceScale reduce_scale, const std::vector<float>& x,
                                    int rows, int cols, std::uint64_t seed, std::size_t offset = 0) {
    std::vector<float> padded(offset, 0.0f);
    padded.insert(padded.end(), x.begin(), x.end());
    DeviceBuffer<float> d_x{std::span<const float>(padded)};
    DeviceBuffer<float> d_y(padded.size());
    d_y.poison();
    launch_or_fail(name, describe_shape(rows, cols, seed), [&] {
        reduce_scale(d_x.data() + offset, d_y.data() + offset, rows, cols);
        check_launch();
    });
    const std::vector<float> y = d_y.download();
    return {y.begin() + static_cast<std::ptrdiff_t>(offset), y.end()};
}

void check_reduce_scale(const char* name, ReduceScale reduce_scale, const std::vector<float>& x, int rows,
                        int cols, std::uint64_t seed, std::size_t offset = 0) {
    const std::vector<float> y = run_reduce_scale(name, reduce_scale, x, rows, cols, seed, offset);
    if (const auto mismatch = reduce_scale_mismatch(x, y, rows, cols)) {
        FAIL(messages::text(offset ? "lesson09.wrong_unaligned" : "lesson09.wrong",
                            {{"kernel", name},
                             {"mismatch", describe(*mismatch, "y")},
                             {"row", mismatch->index / static_cast<std::size_t>(cols)},
                             {"column", mismatch->index % static_cast<std::size_t>(cols)},
                             {"shape", describe_shape(rows, cols, seed)}})
             << likely_cause_line(likely_cause(*mismatch)));
    }
}

void check_shapes(const char* name, ReduceScale reduce_scale) {
    const int shapes[][2] = {{1, 1},     {3, 5},    {7, 32},   {33, 128},
                             {100, 130}, {9, 1023}, {5, 1024}, {1000, 256}};
    for (const auto& [rows, cols] : shapes) {
        const std::uint64_t seed = fresh_seed();
        check_reduce_scale(name, reduce_scale,
                           random_floats(static_cast<std::size_t>(rows) * cols, seed, -3.0f, 3.0f), rows,
                           cols, seed);
    }
}

}  // namespace

TEST_CASE("lesson 9: the block-per-row baseline (given)", "[lesson09][reduce_scale]") {
    check_shapes("reduce_scale_block_per_row", reduce_scale_block_per_row);
}

TEST_CASE("lesson 9: reduce_scale_warp_per_row, one warp per row", "[lesson09][reduce_scale]") {
    check_shapes("reduce_scale_warp_per_row", reduce_scale_warp_per_row);
    if (const auto stats = last_launch_stats();
        stats && (stats->block_barriers > 0 || stats->shuffles == 0)) {
        FAIL(messages::text("lesson09.warp_per_row_counts",
                            {{"barriers", stats->block_barriers}, {"shuffles", stats->shuffles}}));
    }
}

TEST_CASE("lesson 9: zero rows, NaN, infinity, and shapes it refuses", "[lesson09][reduce_scale]") {
    const int rows = 4, cols = 96;
    const std::uint64_t seed = fresh_seed();
    std::vector<float> x = random_floats(rows * cols, seed);
    std::fill(x.begin(), x.begin() + cols, 0.0f);                // row 0: zeros stay zeros
    x[1 * cols + 17] = std::numeric_limits<float>::quiet_NaN();  // row 1: NaN stays NaN, the rest scale
    x[2 * cols + 50] = std::numeric_limits<float>::infinity();   // row 2: finite values become 0
    check_reduce_scale("reduce_scale_warp_per_row", reduce_scale_warp_per_row, x, rows, cols, seed);

    DeviceBuffer<float> big(2 * 2048);
    CHECK_THROWS_AS(reduce_scale_warp_per_row(big.data(), big.data(), 2, 2048), std::invalid_argument);
    CHECK_NOTHROW(reduce_scale_warp_per_row(big.data(), big.data(), 0, 128));
}

TEST_CASE("lesson 9: rows that are not 16-byte aligned take the scalar path", "[lesson09][reduce_scale]") {
    const int rows = 6, cols = 64;
    const std::uint64_t seed = fresh_seed();
    check_reduce_scale("reduce_scale_warp_per_row", reduce_scale_warp_per_row,
                       random_floats(rows * cols, seed), rows, cols, seed, 1);
}
