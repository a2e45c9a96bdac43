// Lessons 11 and 12: one cooperative launch (in thread-block clusters, for
// lesson 12) of blocks that are all resident at once, through the lesson's
// DeviceSum (warpdrill/course/device_sum.h).
#pragma once

#include <cstdint>

#include "sums.h"
#include "warpdrill/course/device_sum.h"

namespace warpdrill::course {

class CoResidentSum final : public SumWorkload {
  public:
    CoResidentSum(std::int64_t n, unsigned max_blocks)
        : n_(n),
          kernel_(device_sum_kernel()),
          shape_(planned_run(kernel_, n, max_blocks)),
          partials_(shape_.blocks) {
        parts_ = {{"", grid_text({shape_.blocks}, shape_.block_threads)}};
    }

    void launch(std::size_t, const float* d_in) override {
        launch_device_sum(kernel_, d_in, n_, shape_.blocks, partials_.data(), sum_.data());
    }

  private:
    std::size_t sequential_terms() const override { return course::sequential_terms(n_, shape_); }

    std::int64_t n_;
    DeviceSum kernel_;
    DeviceSumRun shape_;  // the grid and the partial sums it writes
    DeviceBuffer<float> partials_;
};

}  // namespace warpdrill::course
