// cuBLAS's reductions, updates and GEMMs on the CPU backend, held to a double
// reference with a tolerance that grows with the sum's length, and to
// cuBLAS's statuses for wrong arguments. Compiled with nvcc and linked to
// cuBLAS, the same checks hold NVIDIA's library to them
// (results/cublas-h200.txt).
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "warpdrill/catch.h"
#include "warpdrill/cuda.h"
#include "warpdrill/data.h"
#include "warpdrill/host.h"
#include "warpdrill/testing.h"
#include "handles.h"

using warpdrill::check_cuda;
using warpdrill::DeviceBuffer;
using warpdrill::testing::CublasHandle;

namespace {

template <class T>
DeviceBuffer<T> on_device(const std::vector<T>& host) {
    return DeviceBuffer<T>{std::span<const T>(host)};
}

__global__ void fill(float* x, int n, float value) {
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i < n) x[i] = value;
}

// A column-major matrix in host memory, rows x columns with leading dimension ld.
struct HostMatrix {
    int rows, columns, ld;
    std::vector<float> values;
    double at(int row, int column, bool transposed) const {
        return transposed ? values[column + row * ld] : values[row + column * ld];
    }
};
HostMatrix random_matrix(int rows, int columns, int ld, std::uint64_t seed) {
    return {rows, columns, ld, warpdrill::random_floats(static_cast<std::size_t>(ld) * columns, seed)};
}

// Checks C = alpha op(A) op(B) + beta C0 element by element against a double
// reference; a float sum of k products may be off by about k roundings of
// the sum of their magnitudes.
void check_gemm_result(const std::vector<float>& c, const std::vector<float>& c0, int ldc,
                       const HostMatrix& a, bool ta, const HostMatrix& b, bool tb, int m, int n, int k,
                       float alpha, float beta) {
    for (int j = 0; j < n; ++j) {
        for (int i = 0; i < m; ++i) {
            double sum = 0, magnitude = 0;
            for (int l = 0; l < k; ++l) {
                sum += a.at(i, l, ta) * b.at(l, j, tb);
                magnitude += std::fabs(a.at(i, l, ta) * b.at(l, j, tb));
            }
            const double expected = alpha * sum + (beta != 0 ? beta * c0[i + j * ldc] : 0.0);
            const double tolerance =
                (k + 2) * FLT_EPSILON * (std::fabs(alpha) * magnitude + std::fabs(beta * c0[i + j * ldc]));
            INFO("C(" << i << ", " << j << ")");
            REQUIRE(std::fabs(c[i + j * ldc] - expected) <= tolerance);
        }
    }
}

}  // namespace

TEST_CASE(
    "cublasSgemm computes alpha op(A) op(B) + beta C for each pair of operations, padded leading dimensions",
    "[cublas]") {
    const std::uint64_t seed = warpdrill::fresh_seed();
    INFO(warpdrill::describe_seed(seed));
    CublasHandle handle;
    const int m = 37, n = 23, k = 129;
    for (const bool ta : {false, true}) {
        for (const bool tb : {false, true}) {
            const HostMatrix a = ta ? random_matrix(k, m, k + 3, seed) : random_matrix(m, k, m + 5, seed);
            const HostMatrix b =
                tb ? random_matrix(n, k, n + 1, seed + 1) : random_matrix(k, n, k + 2, seed + 1);
            const int ldc = m + 4;
            const std::vector<float> c0 =
                warpdrill::random_floats(static_cast<std::size_t>(ldc) * n, seed + 2);
            DeviceBuffer<float> da = on_device(a.values), db = on_device(b.values), dc = on_device(c0);
            for (const float beta : {0.0f, 0.5f}) {
                dc.upload(c0);
                const float alpha = 1.5f;
                INFO("op(A) " << (ta ? "T" : "N") << ", op(B) " << (tb ? "T" : "N") << ", beta " << beta);
                REQUIRE(cublasSgemm(handle, ta ? CUBLAS_OP_T : CUBLAS_OP_N, tb ? CUBLAS_OP_T : CUBLAS_OP_N, m,
                                    n, k, &alpha, da.data(), a.ld, db.data(), b.ld, &beta, dc.data(),
                                    ldc) == CUBLAS_STATUS_SUCCESS);
                const std::vector<float> c = dc.download();
                check_gemm_result(c, c0, ldc, a, ta, b, tb, m, n, k, alpha, beta);
                for (int j = 0; j < n; ++j)  // the padding below each column is left alone
                    for (int i = m; i < ldc; ++i) REQUIRE(c[i + j * ldc] == c0[i + j * ldc]);
            }
        }
    }
}

TEST_CASE("where beta is 0 a GEMM does not read C, and where alpha is 0 it does not read A and B",
          "[cublas]") {
    CublasHandle handle;
    const int n = 8;
    const float nan = std::numeric_limits<float>::quiet_NaN();
    DeviceBuffer<float> a = on_device(std::vector<float>(n * n, nan)),
                        b = on_device(std::vector<float>(n * n, 1.0f));
    DeviceBuffer<float> c = on_device(std::vector<float>(n * n, nan));
    const float one = 1.0f, zero = 0.0f, two = 2.0f;
    // alpha 0: C = beta C, whatever A holds
    DeviceBuffer<float> c2 = on_device(std::vector<float>(n * n, 3.0f));
    REQUIRE(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &zero, a.data(), n, b.data(), n, &two,
                        c2.data(), n) == CUBLAS_STATUS_SUCCESS);
    for (const float value : c2.download()) REQUIRE(value == 6.0f);
    // beta 0: C = alpha A B, whatever C held
    a.upload(std::vector<float>(n * n, 0.25f));
    REQUIRE(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a.data(), n, b.data(), n, &zero,
                        c.data(), n) == CUBLAS_STATUS_SUCCESS);
    for (const float value : c.download()) REQUIRE(value == 2.0f);
}

TEST_CASE("cublasSgemmStridedBatched and cublasGemmStridedBatchedEx compute each matrix of the batch",
          "[cublas]") {
    const std::uint64_t seed = warpdrill::fresh_seed();
    INFO(warpdrill::describe_seed(seed));
    CublasHandle handle;
    const int m = 16, n = 9, k = 33, batches = 3;
    const long long stride_a = m * k + 7, stride_b = k * n + 2, stride_c = m * n + 5;
    const HostMatrix a = random_matrix(m, static_cast<int>(stride_a * batches / m + 1), m, seed);
    const HostMatrix b = random_matrix(k, static_cast<int>(stride_b * batches / k + 1), k, seed + 1);
    DeviceBuffer<float> da = on_device(a.values), db = on_device(b.values);
    const std::vector<float> c0(static_cast<std::size_t>(stride_c) * batches, 0.0f);
    const float alpha = 1.0f, beta = 0.0f;
    for (const bool ex : {false, true}) {
        DeviceBuffer<float> dc = on_device(c0);
        const cublasStatus_t status =
            ex ? cublasGemmStridedBatchedEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, da.data(),
                                            CUDA_R_32F, m, stride_a, db.data(), CUDA_R_32F, k, stride_b,
                                            &beta, dc.data(), CUDA_R_32F, m, stride_c, batches,
                                            CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT)
               : cublasSgemmStridedBatched(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, da.data(), m,
                                           stride_a, db.data(), k, stride_b, &beta, dc.data(), m, stride_c,
                                           batches);
        REQUIRE(status == CUBLAS_STATUS_SUCCESS);
        const std::vector<float> c = dc.download();
        for (int batch = 0; batch < batches; ++batch) {
            INFO("batch " << batch << (ex ? " (Ex)" : ""));
            const HostMatrix a_batch{m, k, m, {a.values.begin() + batch * stride_a, a.values.end()}};
            const HostMatrix b_batch{k, n, k, {b.values.begin() + batch * stride_b, b.values.end()}};
            const std::vector<float> c_batch(c.begin() + batch * stride_c, c.end());
            check_gemm_result(c_batch, std::vector<float>(c_batch.size(), 0.0f), m, a_batch, false, b_batch,
                              false, m, n, k, alpha, beta);
        }
    }
}

TEST_CASE("cublasGemmEx multiplies half and bfloat16 into float or their own type, and double", "[cublas]") {
    // Small whole numbers: every product and sum is exact in each type, in any order.
    const std::uint64_t seed = warpdrill::fresh_seed();
    INFO(warpdrill::describe_seed(seed));
    CublasHandle handle;
    const int m = 12, n = 10, k = 16;
    const std::vector<int> a_ints = warpdrill::random_ints(m * k, seed, -3, 3);
    const std::vector<int> b_ints = warpdrill::random_ints(k * n, seed + 1, -3, 3);
    std::vector<double> expected(m * n);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i)
            for (int l = 0; l < k; ++l) expected[i + j * m] += a_ints[i + l * m] * b_ints[l + j * k];

    auto convert = [](const std::vector<int>& ints, auto zero) {
        std::vector<decltype(zero)> out;
        for (const int value : ints) out.push_back(static_cast<decltype(zero)>(static_cast<float>(value)));
        return out;
    };
    const float alpha = 1.0f, beta = 0.0f;
    SECTION("half inputs, float output, float sums") {
        DeviceBuffer<__half> a = on_device(convert(a_ints, __half{})),
                             b = on_device(convert(b_ints, __half{}));
        DeviceBuffer<float> c(m * n);
        REQUIRE(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, a.data(), CUDA_R_16F, m,
                             b.data(), CUDA_R_16F, k, &beta, c.data(), CUDA_R_32F, m, CUBLAS_COMPUTE_32F,
                             CUBLAS_GEMM_DEFAULT) == CUBLAS_STATUS_SUCCESS);
        const std::vector<float> got = c.download();
        for (int i = 0; i < m * n; ++i) REQUIRE(got[i] == expected[i]);
    }
    SECTION("bfloat16 throughout, float sums") {
        DeviceBuffer<__nv_bfloat16> a = on_device(convert(a_ints, __nv_bfloat16{})),
                                    b = on_device(convert(b_ints, __nv_bfloat16{}));
        DeviceBuffer<__nv_bfloat16> c(m * n);
        REQUIRE(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, a.data(), CUDA_R_16BF, m,
                             b.data(), CUDA_R_16BF, k, &beta, c.data(), CUDA_R_16BF, m, CUBLAS_COMPUTE_32F,
                             CUBLAS_GEMM_DEFAULT) == CUBLAS_STATUS_SUCCESS);
        const std::vector<__nv_bfloat16> got = c.download();
        for (int i = 0; i < m * n; ++i) REQUIRE(static_cast<float>(got[i]) == expected[i]);
    }
    SECTION("half throughout, half sums and half scalars") {
        DeviceBuffer<__half> a = on_device(convert(a_ints, __half{})),
                             b = on_device(convert(b_ints, __half{}));
        DeviceBuffer<__half> c(m * n);
        const __half half_one = __float2half(1.0f), half_zero = __float2half(0.0f);
        REQUIRE(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &half_one, a.data(), CUDA_R_16F, m,
                             b.data(), CUDA_R_16F, k, &half_zero, c.data(), CUDA_R_16F, m, CUBLAS_COMPUTE_16F,
                             CUBLAS_GEMM_DEFAULT) == CUBLAS_STATUS_SUCCESS);
        const std::vector<__half> got = c.download();
        for (int i = 0; i < m * n; ++i) REQUIRE(__half2float(got[i]) == expected[i]);
    }
    SECTION("double, with cublasDgemm and cublasGemmEx") {
        DeviceBuffer<double> a = on_device(convert(a_ints, 0.0)), b = on_device(convert(b_ints, 0.0));
        DeviceBuffer<double> c(m * n), c_ex(m * n);
        const double one = 1.0, zero = 0.0;
        REQUIRE(cublasDgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, a.data(), m, b.data(), k, &zero,
                            c.data(), m) == CUBLAS_STATUS_SUCCESS);
        REQUIRE(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, a.data(), CUDA_R_64F, m,
                             b.data(), CUDA_R_64F, k, &zero, c_ex.data(), CUDA_R_64F, m, CUBLAS_COMPUTE_64F,
                             CUBLAS_GEMM_DEFAULT) == CUBLAS_STATUS_SUCCESS);
        REQUIRE(c.download() == expected);
        REQUIRE(c_ex.download() == expected);
    }
}

TEST_CASE(
    "a GEMM allowed TF32 rounds its float inputs to TF32's 10 fraction bits; one that is not keeps them",
    "[cublas]") {
    // A's every element lies between two TF32 values; B is the identity, so C
    // is A as the GEMM read it. 1 + 3 2^-12 is nearer 1 + 2^-10; 1 + 2^-11 is
    // halfway between 1 and 1 + 2^-10, a tie that an H200's kernels rounded
    // now to even, now away from zero, for the same call in other runs
    // (results/cublas-h200.txt): either is taken. cublasSgemv keeps its inputs.
    CublasHandle handle;
    const int n = 64;
    const float one = 1.0f, zero = 0.0f;
    for (const float element : {1.0f + 0x1p-11f, 1.0f + 0x3p-12f}) {
        const bool tie = element == 1.0f + 0x1p-11f;
        auto is_tf32_of_element = [&](float got) { return got == 1.0f + 0x1p-10f || (tie && got == 1.0f); };
        std::vector<float> identity(n * n, 0.0f);
        for (int i = 0; i < n; ++i) identity[i + i * n] = 1.0f;
        DeviceBuffer<float> a = on_device(std::vector<float>(n * n, element)), b = on_device(identity),
                            c(n * n);
        auto c_with = [&](cublasMath_t math, cublasComputeType_t compute) {
            REQUIRE(cublasSetMathMode(handle, math) == CUBLAS_STATUS_SUCCESS);
            REQUIRE(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a.data(), CUDA_R_32F, n,
                                 b.data(), CUDA_R_32F, n, &zero, c.data(), CUDA_R_32F, n, compute,
                                 CUBLAS_GEMM_DEFAULT) == CUBLAS_STATUS_SUCCESS);
            return c.download()[n + 1];
        };
        auto sgemm_with = [&](cublasMath_t math) {
            REQUIRE(cublasSetMathMode(handle, math) == CUBLAS_STATUS_SUCCESS);
            REQUIRE(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a.data(), n, b.data(), n,
                                &zero, c.data(), n) == CUBLAS_STATUS_SUCCESS);
            return c.download()[n + 1];
        };
        auto sgemv_with = [&](cublasMath_t math) {
            REQUIRE(cublasSetMathMode(handle, math) == CUBLAS_STATUS_SUCCESS);
            REQUIRE(cublasSgemv(handle, CUBLAS_OP_N, n, n, &one, a.data(), n, b.data(), 1, &zero, c.data(),
                                1) == CUBLAS_STATUS_SUCCESS);  // A times the identity's first column
            return c.download()[1];
        };
        INFO("element 1 + " << (element - 1.0f));
        CHECK(sgemm_with(CUBLAS_DEFAULT_MATH) == element);
        CHECK(c_with(CUBLAS_DEFAULT_MATH, CUBLAS_COMPUTE_32F) == element);
        CHECK(c_with(CUBLAS_DEFAULT_MATH, CUBLAS_COMPUTE_32F_PEDANTIC) == element);
        CHECK(c_with(CUBLAS_TF32_TENSOR_OP_MATH, CUBLAS_COMPUTE_32F_PEDANTIC) == element);
        CHECK(is_tf32_of_element(sgemm_with(CUBLAS_TF32_TENSOR_OP_MATH)));
        CHECK(is_tf32_of_element(c_with(CUBLAS_DEFAULT_MATH, CUBLAS_COMPUTE_32F_FAST_TF32)));
        CHECK(is_tf32_of_element(c_with(CUBLAS_TF32_TENSOR_OP_MATH, CUBLAS_COMPUTE_32F)));
        CHECK(sgemv_with(CUBLAS_TF32_TENSOR_OP_MATH) == element);
    }
}

TEST_CASE("cuBLAS's level-1 reductions of strided vectors: asum, nrm2, dot, amax and amin", "[cublas]") {
    const std::uint64_t seed = warpdrill::fresh_seed();
    INFO(warpdrill::describe_seed(seed));
    CublasHandle handle;
    const int n = 1000, inc = 3;
    std::vector<float> x = warpdrill::random_floats(static_cast<std::size_t>(n) * inc, seed);
    const std::vector<float> y = warpdrill::random_floats(n, seed + 1);
    x[(n / 2) * inc] = 5.0f;  // the largest magnitude, twice: amax names the first
    x[(n - 1) * inc] = -5.0f;
    x[7 * inc] = 0.0f;  // the smallest
    DeviceBuffer<float> dx = on_device(x), dy = on_device(y);
    double asum = 0, squares = 0, dot = 0, dot_reversed = 0;
    for (int i = 0; i < n; ++i) {
        asum += std::fabs(x[i * inc]);
        squares += double(x[i * inc]) * x[i * inc];
        dot += double(x[i * inc]) * y[i];
        dot_reversed += double(x[i * inc]) * y[n - 1 - i];  // y's increment -1 runs it from its end
    }
    const double tolerance = n * FLT_EPSILON;
    float result = 0;
    REQUIRE(cublasSasum(handle, n, dx.data(), inc, &result) == CUBLAS_STATUS_SUCCESS);
    CHECK(std::fabs(result - asum) <= tolerance * asum);
    REQUIRE(cublasSnrm2(handle, n, dx.data(), inc, &result) == CUBLAS_STATUS_SUCCESS);
    CHECK(std::fabs(result - std::sqrt(squares)) <= tolerance * std::sqrt(squares));
    REQUIRE(cublasSdot(handle, n, dx.data(), inc, dy.data(), 1, &result) == CUBLAS_STATUS_SUCCESS);
    CHECK(std::fabs(result - dot) <= tolerance * asum);
    REQUIRE(cublasSdot(handle, n, dx.data(), inc, dy.data(), -1, &result) == CUBLAS_STATUS_SUCCESS);
    CHECK(std::fabs(result - dot_reversed) <= tolerance * asum);
    int index = -1;
    REQUIRE(cublasIsamax(handle, n, dx.data(), inc, &index) == CUBLAS_STATUS_SUCCESS);
    CHECK(index == n / 2 + 1);
    REQUIRE(cublasIsamin(handle, n, dx.data(), inc, &index) == CUBLAS_STATUS_SUCCESS);
    CHECK(index == 8);
    // No elements, or a non-positive increment: the result is 0.
    REQUIRE(cublasSasum(handle, 0, dx.data(), 1, &result) == CUBLAS_STATUS_SUCCESS);
    CHECK(result == 0.0f);
    REQUIRE(cublasIsamax(handle, n, dx.data(), 0, &index) == CUBLAS_STATUS_SUCCESS);
    CHECK(index == 0);

    std::vector<double> xd(x.begin(), x.end());
    DeviceBuffer<double> dxd = on_device(xd);
    double result_d = 0;
    REQUIRE(cublasDasum(handle, n, dxd.data(), inc, &result_d) == CUBLAS_STATUS_SUCCESS);
    CHECK(std::fabs(result_d - asum) <= 1e-12 * asum);
    REQUIRE(cublasDnrm2(handle, n, dxd.data(), inc, &result_d) == CUBLAS_STATUS_SUCCESS);
    CHECK(std::fabs(result_d - std::sqrt(squares)) <= 1e-12 * std::sqrt(squares));
}

TEST_CASE("in CUBLAS_POINTER_MODE_DEVICE, alpha, beta and the result live in device memory", "[cublas]") {
    CublasHandle handle;
    REQUIRE(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_DEVICE) == CUBLAS_STATUS_SUCCESS);
    const int n = 256;
    DeviceBuffer<float> x = on_device(std::vector<float>(n, 2.0f)),
                        y = on_device(std::vector<float>(n, 1.0f));
    DeviceBuffer<float> alpha = on_device(std::vector<float>{3.0f}), result(1);
    REQUIRE(cublasSaxpy(handle, n, alpha.data(), x.data(), 1, y.data(), 1) ==
            CUBLAS_STATUS_SUCCESS);  // y = 7
    REQUIRE(cublasSdot(handle, n, x.data(), 1, y.data(), 1, result.data()) == CUBLAS_STATUS_SUCCESS);
    check_cuda(cudaDeviceSynchronize());
    CHECK(result.download()[0] == 2.0f * 7.0f * n);
}

TEST_CASE("cublasSaxpy, cublasSscal and cublasScopy update strided vectors", "[cublas]") {
    CublasHandle handle;
    const int n = 5;
    DeviceBuffer<float> x = on_device(std::vector<float>{1, 2, 3, 4, 5}),
                        y = on_device(std::vector<float>(2 * n, 1.0f));
    const float two = 2.0f, half = 0.5f;
    REQUIRE(cublasSaxpy(handle, n, &two, x.data(), 1, y.data(), 2) == CUBLAS_STATUS_SUCCESS);
    CHECK(y.download() == std::vector<float>{3, 1, 5, 1, 7, 1, 9, 1, 11, 1});
    REQUIRE(cublasSscal(handle, n, &half, y.data(), 2) == CUBLAS_STATUS_SUCCESS);
    CHECK(y.download() == std::vector<float>{1.5, 1, 2.5, 1, 3.5, 1, 4.5, 1, 5.5, 1});
    REQUIRE(cublasScopy(handle, n, x.data(), 1, y.data(), -2) == CUBLAS_STATUS_SUCCESS);  // reversed
    CHECK(y.download() == std::vector<float>{5, 1, 4, 1, 3, 1, 2, 1, 1, 1});
}

TEST_CASE("cublasSgemv computes alpha op(A) x + beta y, either way round", "[cublas]") {
    CublasHandle handle;
    const int m = 3, n = 2, lda = 4;
    // A = [1 4; 2 5; 3 6], column-major with a padded column
    DeviceBuffer<float> a = on_device(std::vector<float>{1, 2, 3, -1, 4, 5, 6, -1});
    DeviceBuffer<float> x = on_device(std::vector<float>{1, 0, 1, 0, 1, 0});
    DeviceBuffer<float> y = on_device(std::vector<float>{10, 10, 10});
    const float one = 1.0f, beta = 0.5f;
    REQUIRE(cublasSgemv(handle, CUBLAS_OP_N, m, n, &one, a.data(), lda, x.data(), 2, &beta, y.data(), 1) ==
            CUBLAS_STATUS_SUCCESS);
    CHECK(y.download() == std::vector<float>{10, 12, 14});  // A (1, 1) + y / 2
    REQUIRE(cublasSgemv(handle, CUBLAS_OP_T, m, n, &one, a.data(), lda, x.data(), 2, &beta, y.data(), 1) ==
            CUBLAS_STATUS_SUCCESS);
    CHECK(y.download() == std::vector<float>{11, 21, 14});  // A^T (1, 1, 1) + y / 2; y[2] untouched
}

TEST_CASE("cuBLAS refuses a wrong argument with its status, and a handle it did not make", "[cublas]") {
    CublasHandle handle;
    DeviceBuffer<float> a = on_device(std::vector<float>(64, 1.0f)),
                        b = on_device(std::vector<float>(64, 1.0f));
    DeviceBuffer<float> c = on_device(std::vector<float>(64, 0.0f));
    const float one = 1.0f;
    auto sgemm = [&](cublasHandle_t h, cublasOperation_t op, int m, int lda) {
        return cublasSgemm(h, op, CUBLAS_OP_N, m, 4, 4, &one, a.data(), lda, b.data(), 4, &one, c.data(), 8);
    };
    CHECK(sgemm(nullptr, CUBLAS_OP_N, 4, 4) == CUBLAS_STATUS_NOT_INITIALIZED);
    CHECK(sgemm(handle, CUBLAS_OP_N, 4, 3) == CUBLAS_STATUS_INVALID_VALUE);  // lda < m
    CHECK(sgemm(handle, CUBLAS_OP_N, -1, 4) == CUBLAS_STATUS_INVALID_VALUE);
    CHECK(sgemm(handle, static_cast<cublasOperation_t>(7), 4, 4) == CUBLAS_STATUS_INVALID_VALUE);
    CHECK(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &one, a.data(), 4, b.data(), 4, &one,
                      c.data(), 3) == CUBLAS_STATUS_INVALID_VALUE);  // ldc < m
    // A half A with a float B: no GEMM of cuBLAS's multiplies those.
    CHECK(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &one, a.data(), CUDA_R_16F, 4, b.data(),
                       CUDA_R_32F, 4, &one, c.data(), CUDA_R_32F, 4, CUBLAS_COMPUTE_32F,
                       CUBLAS_GEMM_DEFAULT) == CUBLAS_STATUS_NOT_SUPPORTED);
    CHECK(cublasSgemv(handle, CUBLAS_OP_N, 4, 4, &one, a.data(), 3, b.data(), 1, &one, c.data(), 1) ==
          CUBLAS_STATUS_INVALID_VALUE);  // lda < m
    // An increment of 0 is no mistake to cuBLAS: x is one element, used n times.
    CHECK(cublasSgemv(handle, CUBLAS_OP_N, 4, 4, &one, a.data(), 4, b.data(), 0, &one, c.data(), 1) ==
          CUBLAS_STATUS_SUCCESS);
    CHECK(c.download()[0] == 4.0f);
    CHECK(std::string(cublasGetStatusName(CUBLAS_STATUS_INVALID_VALUE)) == "CUBLAS_STATUS_INVALID_VALUE");
}

TEST_CASE("cuBLAS's work is ordered on the handle's stream after the kernels before it", "[cublas]") {
    CublasHandle handle;
    cudaStream_t stream = nullptr;
    check_cuda(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    REQUIRE(cublasSetStream(handle, stream) == CUBLAS_STATUS_SUCCESS);
    cudaStream_t got = nullptr;
    REQUIRE(cublasGetStream(handle, &got) == CUBLAS_STATUS_SUCCESS);
    CHECK(got == stream);
    const int n = 1 << 12;
    DeviceBuffer<float> x(n), result(1);
    fill<<<n / 256, 256, 0, stream>>>(x.data(), n, 2.0f);
    check_cuda(cudaGetLastError());
    REQUIRE(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_DEVICE) == CUBLAS_STATUS_SUCCESS);
    REQUIRE(cublasSasum(handle, n, x.data(), 1, result.data()) == CUBLAS_STATUS_SUCCESS);
    check_cuda(cudaStreamSynchronize(stream));
    CHECK(result.download()[0] == 2.0f * n);
    check_cuda(cudaStreamDestroy(stream));
}
