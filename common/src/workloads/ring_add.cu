// Lesson 13: the learner's add_into as the ring runs it on each GPU in each
// reduce-scatter step, dst (the GPU's own floats) += src (those that
// arrived), here over two whole vectors on one GPU: the ring's copies
// between GPUs run no kernel. One launch on the default stream. The
// benchmark of lesson 13 is the ring itself (bench/allreduce_bench.cu).
#include <bit>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <span>
#include <string>

#include "warpdrill/course/ring.h"
#include "warpdrill/course/workload.h"
#include "warpdrill/data.h"
#include "warpdrill/host.h"

namespace warpdrill::course {
namespace {

class RingAdd final : public Workload {
  public:
    // + 1: another vector than the input even where WARPDRILL_SEED fixes every seed.
    explicit RingAdd(std::int64_t n)
        : own_(random_floats(static_cast<std::size_t>(n), fresh_seed() + 1)),
          d_own_(std::span<const float>(own_)) {
        parts_ = {{"", ""}};  // add_into chooses its grid
    }

    const char* computes() const override { return "ring_add"; }
    void reset() override { d_own_.upload(own_); }
    void launch(std::size_t, const float* d_in) override {
        add_into_on_device(d_own_.data(), d_in, static_cast<std::int64_t>(own_.size()));
    }

    // A float add is exact per element: the result must match the host's bit for bit.
    std::string wrong(std::size_t, const WorkloadInput& input) override {
        const std::vector<float> got = d_own_.download();
        for (std::size_t i = 0; i < got.size(); ++i) {
            const float want = own_[i] + input.values[i];
            if (std::bit_cast<std::uint32_t>(got[i]) == std::bit_cast<std::uint32_t>(want)) continue;
            char text[240];
            std::snprintf(
                text, sizeof text,
                "add_into over %zu floats left dst[%zu] = %.9g; dst[%zu] + src[%zu] is %.9g + %.9g = %.9g",
                got.size(), i, got[i], i, i, own_[i], input.values[i], want);
            return text;
        }
        return "";
    }

  private:
    std::vector<float> own_;
    DeviceBuffer<float> d_own_;
};

}  // namespace

std::unique_ptr<Workload> make_workload(std::int64_t n, unsigned) { return std::make_unique<RingAdd>(n); }

std::vector<std::int64_t> benchmark_sizes(bool) { return {}; }

}  // namespace warpdrill::course
