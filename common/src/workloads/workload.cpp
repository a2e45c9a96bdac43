#include "warpdrill/course/workload.h"

#include <cmath>
#include <string>

#include "warpdrill/reference.h"

namespace warpdrill::course {

std::string sum_error(double got, const WorkloadInput& input, std::size_t sequential_terms) {
    const double tolerance = sum_tolerance(input.values.size(), input.sum_abs, sequential_terms);
    if (std::abs(got - input.sum) <= tolerance) return "";
    char text[200];
    std::snprintf(text, sizeof text, "the sum of %zu floats is %.9g; it should be %.9g (within %.3g)",
                  input.values.size(), got, input.sum, tolerance);
    return text;
}

std::string grid_text(const std::vector<unsigned>& launch_blocks, unsigned threads) {
    std::string text;
    for (unsigned blocks : launch_blocks) text += (text.empty() ? "" : "+") + std::to_string(blocks);
    return text + " x " + std::to_string(threads);
}

}  // namespace warpdrill::course
