#include "dense_math.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <vector>

#include "warpdrill/cpu/half_precision.h"

namespace warpdrill::cpu::detail::dense {

namespace hp = half_precision;

std::size_t bytes_of(Element element) {
    switch (element) {
        case Element::f16:
        case Element::bf16: return 2;
        case Element::f32: return 4;
        case Element::f64: return 8;
    }
    return 0;
}

double load(const void* data, Element element, std::int64_t index) {
    switch (element) {
        case Element::f16: return hp::to_float<hp::binary16>(static_cast<const hp::Bits*>(data)[index]);
        case Element::bf16: return hp::to_float<hp::bfloat16>(static_cast<const hp::Bits*>(data)[index]);
        case Element::f32: return static_cast<const float*>(data)[index];
        case Element::f64: return static_cast<const double*>(data)[index];
    }
    return 0;
}

void store(void* data, Element element, std::int64_t index, double value) {
    switch (element) {
        case Element::f16:
            static_cast<hp::Bits*>(data)[index] = hp::bits_from_double<hp::binary16>(value);
            break;
        case Element::bf16:
            static_cast<hp::Bits*>(data)[index] = hp::bits_from_double<hp::bfloat16>(value);
            break;
        case Element::f32: static_cast<float*>(data)[index] = static_cast<float>(value); break;
        case Element::f64: static_cast<double*>(data)[index] = value; break;
    }
}

namespace {

// Float's bits rounded to TF32's: the 13 lowest are dropped, the rest
// rounded to nearest, a tie to even.
float round_to_tf32(float value) {
    if (!std::isfinite(value)) return value;
    const std::uint32_t bits = std::bit_cast<std::uint32_t>(value);
    return std::bit_cast<float>((bits + 0x0fffu + ((bits >> 13) & 1)) & ~0x1fffu);
}

double rounded_input(double value, InputRounding rounding) {
    switch (rounding) {
        case InputRounding::none: return value;
        case InputRounding::tf32: return round_to_tf32(static_cast<float>(value));
        case InputRounding::f16: return hp::to_float<hp::binary16>(hp::bits_from_double<hp::binary16>(value));
        case InputRounding::bf16:
            return hp::to_float<hp::bfloat16>(hp::bits_from_double<hp::bfloat16>(value));
    }
    return value;
}

// op(X) as a rows x columns column-major array of Sum, its inputs rounded.
template <class Sum>
std::vector<Sum> packed(const MatrixIn& x, std::int64_t rows, std::int64_t columns, InputRounding rounding) {
    std::vector<Sum> out(static_cast<std::size_t>(rows * columns));
    for (std::int64_t column = 0; column < columns; ++column) {
        for (std::int64_t row = 0; row < rows; ++row) {
            const std::int64_t index = x.transposed ? column + row * x.ld : row + column * x.ld;
            out[row + column * rows] =
                static_cast<Sum>(rounded_input(load(x.data, x.element, index), rounding));
        }
    }
    return out;
}

// sums[i] += a[i] * b for i < m, each a fused multiply-add: the GEMM's inner
// loop, built also for the FMA instructions of machines that have them
// (without, std::fma is a library call, about ten times slower).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define WARPDRILL_WITH_FMA __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define WARPDRILL_WITH_FMA
#endif
WARPDRILL_WITH_FMA void add_products(float* __restrict sums, const float* __restrict a, float b,
                                     std::int64_t m) {
    for (std::int64_t i = 0; i < m; ++i) sums[i] = std::fma(a[i], b, sums[i]);
}
WARPDRILL_WITH_FMA void add_products(double* __restrict sums, const double* __restrict a, double b,
                                     std::int64_t m) {
    for (std::int64_t i = 0; i < m; ++i) sums[i] = std::fma(a[i], b, sums[i]);
}
#undef WARPDRILL_WITH_FMA

void round_to_half(std::vector<float>& sums) {
    for (float& sum : sums) sum = hp::to_float<hp::binary16>(hp::bits_from_double<hp::binary16>(sum));
}

template <class Sum, bool kHalfSums>
void gemm_in(std::int64_t m, std::int64_t n, std::int64_t k, double alpha, const MatrixIn& a,
             const MatrixIn& b, double beta, const MatrixIn& c, const MatrixOut& d, InputRounding rounding,
             const Finish& finish) {
    const std::vector<Sum> a_packed = packed<Sum>(a, m, k, rounding);
    const std::vector<Sum> b_packed = packed<Sum>(b, k, n, rounding);
    std::vector<Sum> sums(static_cast<std::size_t>(m));
    for (std::int64_t column = 0; column < n; ++column) {
        std::fill(sums.begin(), sums.end(), Sum{0});
        for (std::int64_t inner = 0; inner < k; ++inner) {
            add_products(sums.data(), a_packed.data() + inner * m, b_packed[inner + column * k], m);
            if constexpr (kHalfSums) round_to_half(sums);
        }
        for (std::int64_t row = 0; row < m; ++row) {
            Sum value = static_cast<Sum>(alpha) * sums[row];
            if (beta != 0) {
                const auto old = static_cast<Sum>(load(c.data, c.element, row + column * c.ld));
                value = std::fma(static_cast<Sum>(beta), old, value);
            }
            store(d.data, d.element, row + column * d.ld, finish ? finish(row, column, value) : value);
        }
    }
}

}  // namespace

void gemm(std::int64_t m, std::int64_t n, std::int64_t k, double alpha, const MatrixIn& a, const MatrixIn& b,
          double beta, const MatrixIn& c, const MatrixOut& d, InputRounding rounding, Accumulator accumulator,
          const Finish& finish) {
    switch (accumulator) {
        case Accumulator::f16:
            return gemm_in<float, true>(m, n, k, alpha, a, b, beta, c, d, rounding, finish);
        case Accumulator::f32:
            return gemm_in<float, false>(m, n, k, alpha, a, b, beta, c, d, rounding, finish);
        case Accumulator::f64:
            return gemm_in<double, false>(m, n, k, alpha, a, b, beta, c, d, rounding, finish);
    }
}

template <class T>
T asum(Strided<const T> x) {
    double sum = 0;
    for (std::int64_t i = 0; i < x.n; ++i) sum += std::fabs(static_cast<double>(x[i]));
    return static_cast<T>(sum);
}

// Scaled by the largest magnitude, so that a double's squares cannot overflow.
template <class T>
T nrm2(Strided<const T> x) {
    double scale = 0;
    for (std::int64_t i = 0; i < x.n; ++i) scale = std::max(scale, std::fabs(static_cast<double>(x[i])));
    if (scale == 0 || !std::isfinite(scale)) return static_cast<T>(scale);
    double squares = 0;
    for (std::int64_t i = 0; i < x.n; ++i) {
        const double scaled = static_cast<double>(x[i]) / scale;
        squares += scaled * scaled;
    }
    return static_cast<T>(scale * std::sqrt(squares));
}

template <class T>
T dot(Strided<const T> x, Strided<const T> y) {
    double sum = 0;
    for (std::int64_t i = 0; i < x.n; ++i) sum += static_cast<double>(x[i]) * static_cast<double>(y[i]);
    return static_cast<T>(sum);
}

namespace {

template <class T, class Better>
int first_index_by_magnitude(Strided<const T> x, Better better) {
    int best = 0;
    for (std::int64_t i = 0; i < x.n; ++i) {
        if (best == 0 || better(std::fabs(x[i]), std::fabs(x[best - 1]))) best = static_cast<int>(i + 1);
    }
    return best;
}

}  // namespace

template <class T>
int iamax(Strided<const T> x) {
    return first_index_by_magnitude(x, [](T a, T b) { return a > b; });
}

template <class T>
int iamin(Strided<const T> x) {
    return first_index_by_magnitude(x, [](T a, T b) { return a < b; });
}

#define WARPDRILL_DENSE_REDUCTIONS(T)                   \
    template T asum(Strided<const T>);                  \
    template T nrm2(Strided<const T>);                  \
    template T dot(Strided<const T>, Strided<const T>); \
    template int iamax(Strided<const T>);               \
    template int iamin(Strided<const T>);
WARPDRILL_DENSE_REDUCTIONS(float)
WARPDRILL_DENSE_REDUCTIONS(double)
#undef WARPDRILL_DENSE_REDUCTIONS

}  // namespace warpdrill::cpu::detail::dense
