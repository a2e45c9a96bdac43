// Lesson 10: one launch, whose last block adds the blocks' partial sums,
// with the lesson's grid for this GPU. Its ticket counter is set to 0 once,
// here: every launch leaves it at 0.
#include <cstdint>
#include <memory>

#include "sums.h"
#include "warpdrill/course/device_sum.h"
#include "warpdrill/course/lesson.h"

namespace warpdrill::course {
namespace {

class OneLaunchSum final : public SumWorkload {
  public:
    explicit OneLaunchSum(std::int64_t n)
        : n_(n), blocks_(one_launch_blocks(n)), partials_(static_cast<std::size_t>(blocks_)), tickets_(1) {
        check_cuda(cudaMemset(tickets_.data(), 0, sizeof(unsigned)));
        parts_ = {{"", grid_text({static_cast<unsigned>(blocks_)}, kOneLaunchBlockSize)}};
    }

    void launch(std::size_t, const float* d_in) override {
        one_launch_sum(d_in, n_, partials_.data(), tickets_.data(), sum_.data(), blocks_);
    }

  private:
    // A thread's packs, then the trees, then the last block's threads over the partials.
    std::size_t sequential_terms() const override { return one_launch_sequential_terms(n_, blocks_); }

    std::int64_t n_;
    int blocks_;
    DeviceBuffer<float> partials_;
    DeviceBuffer<unsigned> tickets_;
};

}  // namespace

std::unique_ptr<Workload> make_workload(std::int64_t n, unsigned) {
    return std::make_unique<OneLaunchSum>(n);
}

// Its count is 64-bit: 2^32 floats too.
std::vector<std::int64_t> benchmark_sizes(bool quick) { return sum_sizes(quick, true); }

}  // namespace warpdrill::course
