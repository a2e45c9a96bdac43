// Lesson 11: one cooperative launch, every block resident at once.
#include <memory>

#include "co_resident.h"

namespace warpdrill::course {

std::unique_ptr<Workload> make_workload(std::int64_t n, unsigned max_blocks) {
    return std::make_unique<CoResidentSum>(n, max_blocks);
}

std::vector<std::int64_t> benchmark_sizes(bool quick) { return sum_sizes(quick, false); }

}  // namespace warpdrill::course
