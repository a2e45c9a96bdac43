// The arithmetic of the CPU backend's cuBLAS (cublas_*.cpp) on arrays it may
// touch: no checks and no streams here. Internal to the backend.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

namespace warpdrill::cpu::detail::dense {

enum class Element { f16, bf16, f32, f64 };
std::size_t bytes_of(Element element);

// Element `index` of an array of `element`s, as a double; storing rounds to
// nearest, ties to even, as a GPU's conversions do.
double load(const void* data, Element element, std::int64_t index);
void store(void* data, Element element, std::int64_t index, double value);

// What a GEMM does to its inputs before it multiplies: cuBLAS's fast compute
// types and math modes let its tensor cores read them at a lower precision.
// TF32 keeps 10 of float's 23 fraction bits, rounded to nearest, a tie to
// even (an H200's cuBLAS kernels rounded a tie now to even, now away from
// zero, for the same call: results/cublas-h200.txt).
enum class InputRounding { none, tf32, f16, bf16 };
// What it adds the products in; each sum is rounded to it.
enum class Accumulator { f16, f32, f64 };

// A column-major matrix as a GEMM reads it: op(X) is X, or X transposed.
struct MatrixIn {
    const void* data;
    Element element;
    std::int64_t ld;
    bool transposed;
};
struct MatrixOut {
    void* data;
    Element element;
    std::int64_t ld;
};

// What becomes of each element of D before it is stored: finish(row,
// column, value) is stored.
using Finish = std::function<double(std::int64_t row, std::int64_t column, double value)>;

// D = finish(alpha op(A) op(B) + beta C), with op(A) m x k, op(B) k x n and
// C, D m x n (C and D may be one matrix); C is not read where beta is 0.
// Each element's products are added in k's order with a fused multiply-add.
void gemm(std::int64_t m, std::int64_t n, std::int64_t k, double alpha, const MatrixIn& a, const MatrixIn& b,
          double beta, const MatrixIn& c, const MatrixOut& d, InputRounding rounding, Accumulator accumulator,
          const Finish& finish = {});

// A strided vector: n elements, inc apart (from the last element where inc
// is negative, as BLAS has it).
template <class T>
struct Strided {
    T* data;
    std::int64_t n;
    std::int64_t inc;
    T& operator[](std::int64_t i) const { return data[inc >= 0 ? i * inc : (n - 1 - i) * -inc]; }
};

// The reductions add in double; a float result is rounded once, at the end.
template <class T>
T asum(Strided<const T> x);
template <class T>
T nrm2(Strided<const T> x);
template <class T>
T dot(Strided<const T> x, Strided<const T> y);
// The 1-based index of the first element of largest (smallest) magnitude; 0 if none.
template <class T>
int iamax(Strided<const T> x);
template <class T>
int iamin(Strided<const T> x);

}  // namespace warpdrill::cpu::detail::dense
