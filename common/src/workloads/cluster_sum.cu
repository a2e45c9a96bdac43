// Lesson 12: one cooperative launch in thread-block clusters, which need
// compute capability 9.0.
#include <memory>
#include <string>

#include "co_resident.h"

namespace warpdrill::course {

std::unique_ptr<Workload> make_workload(std::int64_t n, unsigned max_blocks) {
    cudaDeviceProp prop{};
    check_cuda(cudaGetDeviceProperties(&prop, 0));
    if (prop.major < 9) {
        throw NotOnThisGpu("lesson " + std::to_string(lesson_number()) +
                           " needs thread-block clusters (compute capability 9.0); " + prop.name + " has " +
                           std::to_string(prop.major) + "." + std::to_string(prop.minor));
    }
    return std::make_unique<CoResidentSum>(n, max_blocks);
}

std::vector<std::int64_t> benchmark_sizes(bool quick) { return sum_sizes(quick, false); }

}  // namespace warpdrill::course
