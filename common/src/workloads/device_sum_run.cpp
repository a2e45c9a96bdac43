// Lessons 11 and 12's sums launched through their DeviceSum: for the checks
// (run_device_sum), the profile and the benchmark (launch_device_sum).
#include <cstdint>
#include <stdexcept>

#include "warpdrill/course/device_sum.h"
#include "warpdrill/course/lesson.h"
#include "warpdrill/host.h"

namespace warpdrill::course {

void launch_device_sum(const DeviceSum& kernel, const float* d_in, std::int64_t n, unsigned blocks,
                       float* d_partials, float* d_sum) {
    if (reinterpret_cast<std::uintptr_t>(d_in) % (kPackFloats * sizeof(float)) != 0) {
        throw std::invalid_argument(kernel.name +
                                    ": the input must be 16-byte aligned for 4-float loads; cudaMalloc's "
                                    "pointers are, a pointer into the middle of a buffer may not be");
    }
    kernel.launch(d_in, n, blocks, d_partials, d_sum);
}

DeviceSumRun planned_run(const DeviceSum& kernel, std::int64_t n, unsigned max_blocks) {
    DeviceSumRun run;
    run.blocks = kernel.grid(n, max_blocks);
    run.block_threads = kernel.block_threads;
    run.partials_written = run.blocks / kernel.blocks_per_writer;
    return run;
}

DeviceSumRun run_device_sum(const DeviceSum& kernel, const float* d_in, std::int64_t n, unsigned max_blocks) {
    DeviceSumRun run = planned_run(kernel, n, max_blocks);
    // One slot per block, so that a kernel that writes more than one value
    // per writer is seen doing so.
    DeviceBuffer<float> partials(run.blocks), sum(1);
    partials.poison();
    sum.poison();
    launch_device_sum(kernel, d_in, n, run.blocks, partials.data(), sum.data());
    check_launch();
    run.sum = sum.download()[0];
    run.partials = partials.download();
    run.stats = last_launch_stats().value_or(LaunchStats{});
    return run;
}

// The trees are counted by the tolerance's log2 n.
std::size_t sequential_terms(std::int64_t n, const DeviceSumRun& run) {
    const std::int64_t threads = std::int64_t{run.blocks} * run.block_threads;
    const std::int64_t packs_per_thread = (n / kPackFloats + threads - 1) / threads;
    const std::int64_t partials_per_thread =
        (run.partials_written + run.block_threads - 1) / run.block_threads;
    return static_cast<std::size_t>(kPackFloats * packs_per_thread + 1 + partials_per_thread);
}

std::size_t one_launch_sequential_terms(std::int64_t n, int blocks) {
    DeviceSumRun run;
    run.blocks = static_cast<unsigned>(blocks);
    run.block_threads = kOneLaunchBlockSize;
    run.partials_written = run.blocks;
    return sequential_terms(n, run);
}

}  // namespace warpdrill::course
