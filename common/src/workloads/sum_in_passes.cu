// Lessons 1 to 7: a block-sum kernel applied to its own output until one
// value is left (sum_in_passes, warpdrill/course/lesson.h), as the classic
// reduction samples make a whole sum of it, in blocks of 256 threads.
#include <cstdint>
#include <memory>

#include "sums.h"
#include "warpdrill/course/lesson.h"

namespace warpdrill::course {
namespace {

constexpr int kBlockSize = 256;

class SumInPasses final : public SumWorkload {
  public:
    explicit SumInPasses(std::int64_t n)
        : n_(static_cast<int>(n)),
          kernel_(block_sum_kernel()),
          span_(kBlockSize * kernel_.elements_per_thread),
          scratch_{DeviceBuffer<float>(static_cast<std::size_t>(n_ / span_ + 1)),
                   DeviceBuffer<float>(static_cast<std::size_t>(n_ / span_ + 1))} {
        std::vector<unsigned> passes;
        each_pass(nullptr, [&](const float*, float*, int count) {
            passes.push_back(static_cast<unsigned>((count + span_ - 1) / span_));
        });
        parts_ = {{"", grid_text(passes, kBlockSize)}};
    }

    void launch(std::size_t, const float* d_in) override {
        each_pass(d_in, [&](const float* from, float* to, int count) {
            kernel_.launch(from, to, count, kBlockSize);
        });
    }

  private:
    // Each thread adds elements_per_thread elements, then a block's tree.
    std::size_t sequential_terms() const override {
        return static_cast<std::size_t>(kernel_.elements_per_thread);
    }

    template <class LaunchPass>
    void each_pass(const float* d_in, LaunchPass&& launch_pass) {
        float* const scratch[2] = {scratch_[0].data(), scratch_[1].data()};
        sum_in_passes(d_in, sum_.data(), n_, span_, scratch, launch_pass);
    }

    int n_;
    BlockSumKernel kernel_;
    int span_;
    DeviceBuffer<float> scratch_[2];
};

}  // namespace

std::unique_ptr<Workload> make_workload(std::int64_t n, unsigned) { return std::make_unique<SumInPasses>(n); }

std::vector<std::int64_t> benchmark_sizes(bool quick) { return sum_sizes(quick, false); }

}  // namespace warpdrill::course
