// cuBLASLt's matmul on the CPU backend: llm.c's layout (D = A^T B, with a
// bias and GELU in the epilogue), GELU's aux output, batches and cuBLASLt's
// refusals, each held to a double reference. Compiled with nvcc and linked
// to cuBLASLt, the same checks hold NVIDIA's library to them
// (results/cublas-h200.txt).
#include <cublasLt.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <vector>

#include "warpdrill/catch.h"
#include "warpdrill/cuda.h"
#include "warpdrill/data.h"
#include "warpdrill/host.h"
#include "warpdrill/testing.h"

using warpdrill::check_cuda;
using warpdrill::DeviceBuffer;

namespace {

#define REQUIRE_OK(call) REQUIRE((call) == CUBLAS_STATUS_SUCCESS)

// GELU's tanh form, which cuBLASLt's epilogue computes: an H200's results lie
// within kGeluSlack of it, where GELU's erf form is up to 4e-4 away from it
// for the values here (results/cublas-h200.txt).
double gelu(double x) { return 0.5 * x * (1 + std::tanh(0.7978845608028654 * (x + 0.044715 * x * x * x))); }
constexpr double kGeluSlack = 2e-5;

// A cuBLASLt matmul of llm.c's shape: D (m x n) = epilogue(A^T B + bias),
// with A k x m and B k x n, all float and column-major.
struct Matmul {
    cublasLtHandle_t handle = nullptr;
    cublasLtMatmulDesc_t desc = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, d = nullptr;
    Matmul(int m, int n, int k, int batches = 1, long long stride_a = 0, long long stride_b = 0,
           long long stride_d = 0) {
        REQUIRE_OK(cublasLtCreate(&handle));
        REQUIRE_OK(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F));
        const cublasOperation_t transpose = CUBLAS_OP_T;
        REQUIRE_OK(
            cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &transpose, sizeof transpose));
        REQUIRE_OK(cublasLtMatrixLayoutCreate(&a, CUDA_R_32F, k, m, k));
        REQUIRE_OK(cublasLtMatrixLayoutCreate(&b, CUDA_R_32F, k, n, k));
        REQUIRE_OK(cublasLtMatrixLayoutCreate(&d, CUDA_R_32F, m, n, m));
        if (batches > 1) {
            for (auto [layout, stride] : {std::pair{a, stride_a}, {b, stride_b}, {d, stride_d}}) {
                REQUIRE_OK(cublasLtMatrixLayoutSetAttribute(layout, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT,
                                                            &batches, sizeof batches));
                REQUIRE_OK(cublasLtMatrixLayoutSetAttribute(
                    layout, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &stride, sizeof stride));
            }
        }
    }
    ~Matmul() {
        cublasLtMatrixLayoutDestroy(a);
        cublasLtMatrixLayoutDestroy(b);
        cublasLtMatrixLayoutDestroy(d);
        cublasLtMatmulDescDestroy(desc);
        cublasLtDestroy(handle);
    }
    // cuBLASLt refuses a bias pointer that the epilogue does not use: give it nullptr then.
    void set_epilogue(cublasLtEpilogue_t epilogue, const float* bias) {
        REQUIRE_OK(
            cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue, sizeof epilogue));
        REQUIRE_OK(
            cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof bias));
    }
    // The first algorithm of the heuristic, as llm.c takes it.
    cublasLtMatmulAlgo_t algorithm() const {
        cublasLtMatmulPreference_t preference = nullptr;
        REQUIRE_OK(cublasLtMatmulPreferenceCreate(&preference));
        const std::uint64_t workspace = 0;
        REQUIRE_OK(cublasLtMatmulPreferenceSetAttribute(preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                                        &workspace, sizeof workspace));
        cublasLtMatmulHeuristicResult_t result{};
        int found = 0;
        REQUIRE_OK(cublasLtMatmulAlgoGetHeuristic(handle, desc, a, b, d, d, preference, 1, &result, &found));
        cublasLtMatmulPreferenceDestroy(preference);
        REQUIRE(found == 1);
        REQUIRE(result.state == CUBLAS_STATUS_SUCCESS);
        return result.algo;
    }
    cublasStatus_t run(const float* da, const float* db, float* dd, float beta = 0.0f) const {
        const float alpha = 1.0f;
        const cublasLtMatmulAlgo_t algo = algorithm();
        return cublasLtMatmul(handle, desc, &alpha, da, a, db, b, &beta, dd, d, dd, d, &algo, nullptr, 0,
                              nullptr);
    }
};

// A^T B (m x n) in double, from A k x m and B k x n.
std::vector<double> product(const std::vector<float>& a, const std::vector<float>& b, int m, int n, int k) {
    std::vector<double> out(static_cast<std::size_t>(m) * n);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i)
            for (int l = 0; l < k; ++l) out[i + j * m] += double(a[l + i * k]) * b[l + j * k];
    return out;
}

// Each of `got` within k roundings of the reference's magnitude (about 1
// here), and `slack` more.
void check_near(const std::vector<float>& got, const std::vector<double>& expected, int k, double slack = 0) {
    REQUIRE(got.size() == expected.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        INFO("element " << i << ": " << got[i] << " against " << expected[i]);
        REQUIRE(std::fabs(got[i] - expected[i]) <=
                (k + 4) * FLT_EPSILON * (1 + std::fabs(expected[i])) + slack);
    }
}

}  // namespace

TEST_CASE("cublasLtMatmul adds a bias of D's rows and applies ReLU or GELU in its epilogue", "[cublaslt]") {
    const std::uint64_t seed = warpdrill::fresh_seed();
    INFO(warpdrill::describe_seed(seed));
    const int m = 24, n = 17, k = 40;
    const std::vector<float> a = warpdrill::random_floats(k * m, seed, -0.5f, 0.5f);
    const std::vector<float> b = warpdrill::random_floats(k * n, seed + 1, -0.5f, 0.5f);
    const std::vector<float> bias = warpdrill::random_floats(m, seed + 2);
    DeviceBuffer<float> da{std::span<const float>(a)}, db{std::span<const float>(b)};
    DeviceBuffer<float> dbias{std::span<const float>(bias)}, dd(m * n);
    const std::vector<double> ab = product(a, b, m, n, k);
    Matmul matmul(m, n, k);
    for (const cublasLtEpilogue_t epilogue :
         {CUBLASLT_EPILOGUE_DEFAULT, CUBLASLT_EPILOGUE_BIAS, CUBLASLT_EPILOGUE_RELU_BIAS,
          CUBLASLT_EPILOGUE_GELU, CUBLASLT_EPILOGUE_GELU_BIAS}) {
        INFO("epilogue " << epilogue);
        matmul.set_epilogue(epilogue, (epilogue & CUBLASLT_EPILOGUE_BIAS) ? dbias.data() : nullptr);
        dd.poison();
        REQUIRE_OK(matmul.run(da.data(), db.data(), dd.data()));
        std::vector<double> expected = ab;
        for (int j = 0; j < n; ++j) {
            for (int i = 0; i < m; ++i) {
                double& x = expected[i + j * m];
                if (epilogue & CUBLASLT_EPILOGUE_BIAS) x += bias[i];
                if (epilogue & CUBLASLT_EPILOGUE_RELU) x = std::max(x, 0.0);
                if (epilogue & CUBLASLT_EPILOGUE_GELU) x = gelu(x);
            }
        }
        check_near(dd.download(), expected, k, (epilogue & CUBLASLT_EPILOGUE_GELU) ? kGeluSlack : 0.0);
    }
}

TEST_CASE("cublasLtMatmul's GELU_AUX_BIAS keeps the values before GELU in aux", "[cublaslt]") {
    const std::uint64_t seed = warpdrill::fresh_seed();
    INFO(warpdrill::describe_seed(seed));
    const int m = 16, n = 12, k = 20;
    const std::vector<float> a = warpdrill::random_floats(k * m, seed);
    const std::vector<float> b = warpdrill::random_floats(k * n, seed + 1);
    const std::vector<float> bias = warpdrill::random_floats(m, seed + 2);
    DeviceBuffer<float> da{std::span<const float>(a)}, db{std::span<const float>(b)};
    DeviceBuffer<float> dbias{std::span<const float>(bias)}, dd(m * n), aux(m * n);
    const std::vector<double> ab = product(a, b, m, n, k);
    Matmul matmul(m, n, k);

    matmul.set_epilogue(CUBLASLT_EPILOGUE_GELU_AUX_BIAS, dbias.data());
    const float* aux_pointer = aux.data();
    const std::int64_t aux_ld = m;
    REQUIRE_OK(cublasLtMatmulDescSetAttribute(matmul.desc, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER,
                                              &aux_pointer, sizeof aux_pointer));
    REQUIRE_OK(cublasLtMatmulDescSetAttribute(matmul.desc, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD, &aux_ld,
                                              sizeof aux_ld));
    REQUIRE_OK(matmul.run(da.data(), db.data(), dd.data()));
    std::vector<double> before(ab), after(ab);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i) {
            before[i + j * m] += bias[i];
            after[i + j * m] = gelu(before[i + j * m]);
        }
    check_near(aux.download(), before, k);
    check_near(dd.download(), after, k, kGeluSlack);
}

TEST_CASE("cublasLtMatmul computes each matrix of a strided batch, and adds beta C", "[cublaslt]") {
    const std::uint64_t seed = warpdrill::fresh_seed();
    INFO(warpdrill::describe_seed(seed));
    const int m = 8, n = 6, k = 10, batches = 3;
    const std::vector<float> a = warpdrill::random_floats(k * m * batches, seed);
    const std::vector<float> b = warpdrill::random_floats(k * n * batches, seed + 1);
    const std::vector<float> d0 = warpdrill::random_floats(m * n * batches, seed + 2);
    DeviceBuffer<float> da{std::span<const float>(a)}, db{std::span<const float>(b)},
        dd{std::span<const float>(d0)};
    Matmul matmul(m, n, k, batches, k * m, k * n, m * n);
    REQUIRE_OK(matmul.run(da.data(), db.data(), dd.data(), 0.5f));
    const std::vector<float> d = dd.download();
    for (int batch = 0; batch < batches; ++batch) {
        INFO("batch " << batch);
        std::vector<double> expected =
            product({a.begin() + batch * k * m, a.begin() + (batch + 1) * k * m},
                    {b.begin() + batch * k * n, b.begin() + (batch + 1) * k * n}, m, n, k);
        for (int i = 0; i < m * n; ++i) expected[i] += 0.5 * d0[batch * m * n + i];
        check_near({d.begin() + batch * m * n, d.begin() + (batch + 1) * m * n}, expected, k);
    }
}

TEST_CASE(
    "cuBLASLt refuses layouts that do not fit the matmul and a bias no epilogue adds, and says how large an "
    "attribute is",
    "[cublaslt]") {
    const int m = 8, n = 6, k = 10;
    DeviceBuffer<float> da(k * m), db(k * n), dd(m * n);
    Matmul matmul(m, n, k);
    cublasLtMatrixLayout_t wrong = nullptr;
    REQUIRE_OK(cublasLtMatrixLayoutCreate(&wrong, CUDA_R_32F, k + 1, n, k + 1));  // B's k is not A's
    const float alpha = 1.0f, beta = 0.0f;
    CHECK(cublasLtMatmul(matmul.handle, matmul.desc, &alpha, da.data(), matmul.a, db.data(), wrong, &beta,
                         dd.data(), matmul.d, dd.data(), matmul.d, nullptr, nullptr, 0,
                         nullptr) == CUBLAS_STATUS_INVALID_VALUE);
    cublasLtMatrixLayoutDestroy(wrong);
    DeviceBuffer<float> bias(m);
    matmul.set_epilogue(CUBLASLT_EPILOGUE_DEFAULT, bias.data());  // a bias the epilogue does not add
    CHECK(matmul.run(da.data(), db.data(), dd.data()) == CUBLAS_STATUS_INVALID_VALUE);
    std::size_t size = 0;
    REQUIRE_OK(cublasLtMatmulDescGetAttribute(matmul.desc, CUBLASLT_MATMUL_DESC_TRANSA, nullptr, 0, &size));
    CHECK(size == sizeof(std::int32_t));
    cublasOperation_t transa = CUBLAS_OP_N;
    REQUIRE_OK(cublasLtMatmulDescGetAttribute(matmul.desc, CUBLASLT_MATMUL_DESC_TRANSA, &transa,
                                              sizeof transa, &size));
    CHECK(transa == CUBLAS_OP_T);
    const std::int64_t too_small = 0;
    CHECK(cublasLtMatmulDescSetAttribute(matmul.desc, CUBLASLT_MATMUL_DESC_TRANSA, &too_small,
                                         sizeof too_small) ==
          CUBLAS_STATUS_INVALID_VALUE);  // 8 bytes for a 4-byte attribute
}
