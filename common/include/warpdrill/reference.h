// Reference results in double precision, and the tolerances a float kernel
// must meet against them.
#pragma once

#include <cmath>
#include <cstddef>
#include <span>

namespace warpdrill {

double reference_sum(std::span<const float> values);
double reference_sum_abs(std::span<const float> values);

// A float summation of n terms whose longest chain of dependent additions is
// `depth` is off by at most depth * FLT_EPSILON * sum|x| (Higham, Accuracy and
// Stability of Numerical Algorithms, 4.2). A tree over n terms has depth
// ceil(log2 n); a thread that first adds k terms in a loop adds k to it.
double sum_tolerance(std::size_t n, double sum_abs, std::size_t sequential_terms = 1);

}  // namespace warpdrill
