// Runs many shuffles in one launch, one block of one warp per case: lane k
// shuffles its own lane id, so what it receives names the lane it read.
#include "truth_kernels.h"

#include "warpdrill/cuda.h"
#include "warpdrill/host.h"

namespace {

__global__ void read_source_lanes(const ShuffleCase* cases, int* source_lane) {
    const ShuffleCase c = cases[blockIdx.x];
    const int lane = static_cast<int>(threadIdx.x);
    const unsigned full = 0xffffffffu;
    int got = -1;
    switch (c.op) {
        case ShuffleOp::idx: got = __shfl_sync(full, lane, c.param, c.width); break;
        case ShuffleOp::up: got = __shfl_up_sync(full, lane, static_cast<unsigned>(c.param), c.width); break;
        case ShuffleOp::down:
            got = __shfl_down_sync(full, lane, static_cast<unsigned>(c.param), c.width);
            break;
        case ShuffleOp::xor_: got = __shfl_xor_sync(full, lane, c.param, c.width); break;
    }
    source_lane[blockIdx.x * 32 + lane] = got;
}

}  // namespace

std::vector<int> run_shuffle_cases(const std::vector<ShuffleCase>& cases) {
    warpdrill::DeviceBuffer<ShuffleCase> d_cases{std::span<const ShuffleCase>(cases)};
    warpdrill::DeviceBuffer<int> d_source_lane(cases.size() * 32);
    d_source_lane.poison();
    warpdrill::launch(read_source_lanes, {static_cast<unsigned>(cases.size()), 32}, d_cases.data(),
                      d_source_lane.data());
    warpdrill::check_launch();
    return d_source_lane.download();
}
