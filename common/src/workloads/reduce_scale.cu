// Lesson 9: ReduceScale, y = x / max|x| per row, of the input as a matrix of
// kReduceScaleCols columns: the given block-per-row baseline, then the learner's warp
// per row, each into its own output.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

#include "warpdrill/course/lesson.h"
#include "warpdrill/course/workload.h"
#include "warpdrill/host.h"

namespace warpdrill::course {
namespace {

unsigned blocks_for(int rows, int rows_per_block) {
    return static_cast<unsigned>((rows + rows_per_block - 1) / rows_per_block);
}

class ReduceScale final : public Workload {
  public:
    explicit ReduceScale(std::int64_t n)
        : rows_(static_cast<int>(n / kReduceScaleCols)),
          outputs_{DeviceBuffer<float>(static_cast<std::size_t>(n)),
                   DeviceBuffer<float>(static_cast<std::size_t>(n))} {
        parts_ = {
            {" baseline, block per row", grid_text({blocks_for(rows_, 1)}, kBlockPerRowThreads)},
            {", warp per row, float4", grid_text({blocks_for(rows_, kRowsPerBlock)}, kRowsPerBlock * 32)}};
    }

    const char* computes() const override { return "reduce_scale"; }

    void reset() override {
        for (DeviceBuffer<float>& y : outputs_) y.poison();
    }

    void launch(std::size_t part, const float* d_in) override {
        if (part == 0) reduce_scale_block_per_row(d_in, outputs_[0].data(), rows_, kReduceScaleCols);
        if (part == 1) reduce_scale_warp_per_row(d_in, outputs_[1].data(), rows_, kReduceScaleCols);
    }

    // Every element against x / max|x| of its row in double precision.
    std::string wrong(std::size_t part, const WorkloadInput& input) override {
        const std::vector<float> y = outputs_[part].download();
        for (int r = 0; r < rows_; ++r) {
            const std::span<const float> x =
                input.values.subspan(static_cast<std::size_t>(r) * kReduceScaleCols, kReduceScaleCols);
            double abs_max = 0;
            for (float value : x) abs_max = std::max(abs_max, std::fabs(double{value}));
            for (int c = 0; c < kReduceScaleCols; ++c) {
                const double want = abs_max > 0 ? x[c] / abs_max : 0.0;
                const float got = y[static_cast<std::size_t>(r) * kReduceScaleCols + c];
                // 1/max|x| rounded, then the product: within two roundings of a float.
                if (std::fabs(got - want) <= 2.4e-7 * std::fabs(want)) continue;
                char text[200];
                std::snprintf(text, sizeof text, "y[%d][%d] is %.9g; x / max|x| of the row is %.9g", r, c,
                              got, want);
                return text;
            }
        }
        return "";
    }

  private:
    int rows_;
    DeviceBuffer<float> outputs_[2];
};

}  // namespace

std::unique_ptr<Workload> make_workload(std::int64_t n, unsigned) { return std::make_unique<ReduceScale>(n); }

// The one shape the benchmark measures: (442368, 128), a model's
// activations of that many tokens and 128 columns.
std::vector<std::int64_t> benchmark_sizes(bool) { return {std::int64_t{442368} * kReduceScaleCols}; }

}  // namespace warpdrill::course
