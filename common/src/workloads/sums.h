// What the workloads that sum share: the sum's one float on the device,
// poisoned before a checked run and compared with the reference after it,
// and the sizes the benchmark sums at.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "warpdrill/course/workload.h"
#include "warpdrill/host.h"

namespace warpdrill::course {

class SumWorkload : public Workload {
  public:
    const char* computes() const override { return "sum"; }
    void reset() override { sum_.poison(); }
    std::string wrong(std::size_t, const WorkloadInput& input) override {
        return sum_error(sum_.download()[0], input, sequential_terms());
    }

  protected:
    // The longest chain of dependent additions in the sum, for its tolerance.
    virtual std::size_t sequential_terms() const = 0;

    DeviceBuffer<float> sum_{1};
};

// 2^16 to 2^28 floats (2^20 when quick), and 2^32 for a sum whose count is
// 64-bit: twice what an int can count or index.
inline std::vector<std::int64_t> sum_sizes(bool quick, bool past_int) {
    std::vector<std::int64_t> sizes;
    for (int p = 16; p <= (quick ? 20 : 28); p += 2) sizes.push_back(std::int64_t{1} << p);
    if (past_int && !quick) sizes.push_back(std::int64_t{1} << 32);
    return sizes;
}

}  // namespace warpdrill::course
