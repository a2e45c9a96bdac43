// Lesson 9: ReduceScale, y = x / max|x| per row, of the input as a matrix of
// kReduceScaleCols columns: the given block-per-row baseline, then the learner's warp
// per row, each into its own output.
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

#include "warpdrill/course/lesson.h"
#include "warpdrill/course/workload.h"
#include "warpdrill/host.h"
#include "warpdrill/testing.h"

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

    std::string wrong(std::size_t part, const WorkloadInput& input) override {
        const std::vector<float> y = outputs_[part].download();
        const auto mismatch = reduce_scale_mismatch(input.values, y, rows_, kReduceScaleCols);
        if (!mismatch) return "";
        char text[200];
        std::snprintf(text, sizeof text, "y[%zu][%zu] is %.9g; x / max|x| of the row is %.9g",
                      mismatch->index / kReduceScaleCols, mismatch->index % kReduceScaleCols, mismatch->got,
                      mismatch->want);
        return text;
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
