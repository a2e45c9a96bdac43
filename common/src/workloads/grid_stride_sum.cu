// Lesson 8: a grid-stride pass over the input, then one block over the
// partial sums, as its checks launch them.
#include <cstdint>
#include <memory>

#include "sums.h"
#include "warpdrill/course/lesson.h"

namespace warpdrill::course {
namespace {

class GridStrideSum final : public SumWorkload {
  public:
    explicit GridStrideSum(std::int64_t n)
        : n_(static_cast<int>(n)),
          blocks_(grid_stride_blocks(n_)),
          partials_(static_cast<std::size_t>(blocks_)) {
        parts_ = {{"", grid_text({static_cast<unsigned>(blocks_), 1}, kGridStrideBlockSize)}};
    }

    void launch(std::size_t, const float* d_in) override {
        grid_stride_sum(d_in, n_, blocks_, partials_.data(), sum_.data());
    }

  private:
    std::size_t sequential_terms() const override {
        return static_cast<std::size_t>(max_elements_per_thread(n_));
    }

    int n_;
    int blocks_;
    DeviceBuffer<float> partials_;
};

}  // namespace

std::unique_ptr<Workload> make_workload(std::int64_t n, unsigned) {
    return std::make_unique<GridStrideSum>(n);
}

std::vector<std::int64_t> benchmark_sizes(bool quick) { return sum_sizes(quick, false); }

}  // namespace warpdrill::course
