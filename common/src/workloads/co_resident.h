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
        : n_(n), kernel_(device_sum_kernel()), blocks_(kernel_.grid(n, max_blocks)), partials_(blocks_) {
        parts_ = {{"", grid_text({blocks_}, kernel_.block_threads)}};
    }

    void launch(std::size_t, const float* d_in) override {
        launch_device_sum(kernel_, d_in, n_, blocks_, partials_.data(), sum_.data());
    }

  private:
    std::size_t sequential_terms() const override {
        DeviceSumRun shape;
        shape.blocks = blocks_;
        shape.block_threads = kernel_.block_threads;
        shape.partials_written = blocks_ / kernel_.blocks_per_writer;
        return course::sequential_terms(n_, shape);
    }

    std::int64_t n_;
    DeviceSum kernel_;
    unsigned blocks_;
    DeviceBuffer<float> partials_;
};

}  // namespace warpdrill::course
