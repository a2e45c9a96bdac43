// What compute-sanitizer says of cuBLAS calls whose operands are wrong, and
// what cuBLASLt's epilogues compute: the cases cpu-cuda/tests/cublas_faults.cu
// and cublaslt.cu hold the CPU backend to. One case a run, by name:
//   nvcc -arch=sm_90 -lineinfo -o cublas_probe cpu-cuda/tests/gpu/cublas_probe.cu -lcublas -lcublasLt
//   compute-sanitizer --tool initcheck ./cublas_probe unwritten_c_beta_1
// results/cublas-h200.txt keeps what an H200 printed, plainly and under
// memcheck or initcheck.
#include <cublasLt.h>
#include <cublas_v2.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

namespace {

constexpr int kN = 64;
const float kOne = 1.0f, kZero = 0.0f;

void say(const char* call, int status) {
    if (status != 0) std::printf("%s returned %d\n", call, status);
}

float* device_floats(const std::vector<float>* values) {
    float* p = nullptr;
    cudaMalloc(&p, kN * kN * sizeof(float));
    if (values) cudaMemcpy(p, values->data(), kN * kN * sizeof(float), cudaMemcpyHostToDevice);
    return p;
}

// C = alpha A B + beta C, 64 x 64, with A, B and C as given.
void sgemm(cublasHandle_t handle, float alpha, const float* a, int lda, const float* b, float beta,
           float* c) {
    say("cublasSgemm",
        cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, kN, kN, kN, &alpha, a, lda, b, kN, &beta, c, kN));
}

void gemm_case(const char* name) {
    cublasHandle_t handle;
    cublasCreate(&handle);
    const std::vector<float> ones(kN * kN, 1.0f), nans(kN * kN, NAN), threes(kN * kN, 3.0f);
    if (!std::strcmp(name, "unwritten_c_beta_1")) {  // initcheck: C is read
        sgemm(handle, 1, device_floats(&ones), kN, device_floats(&ones), 1, device_floats(nullptr));
    } else if (!std::strcmp(name, "unwritten_c_beta_0")) {  // C is not read
        sgemm(handle, 1, device_floats(&ones), kN, device_floats(&ones), 0, device_floats(nullptr));
    } else if (!std::strcmp(name, "unwritten_a")) {
        sgemm(handle, 1, device_floats(nullptr), kN, device_floats(&ones), 0, device_floats(nullptr));
    } else if (!std::strcmp(name, "alpha_0_reads_no_a")) {  // A's NaN does not reach C = 2 C
        float* c = device_floats(&threes);
        sgemm(handle, 0, device_floats(&nans), kN, device_floats(&ones), 2, c);
        float first = 0;
        cudaMemcpy(&first, c, sizeof first, cudaMemcpyDeviceToHost);
        std::printf("C[0] = %g\n", first);
    } else if (!std::strcmp(name, "lda_past_a")) {  // A's columns 2 n apart: half of them past its buffer
        sgemm(handle, 1, device_floats(&ones), 2 * kN, device_floats(&ones), 0, device_floats(nullptr));
    } else if (!std::strcmp(name, "sasum_past_x")) {
        float sum = 0;
        say("cublasSasum", cublasSasum(handle, kN * kN + 100, device_floats(&ones), 1, &sum));
        std::printf("sum %g\n", sum);
    } else if (!std::strcmp(name, "host_a")) {
        sgemm(handle, 1, ones.data(), kN, device_floats(&ones), 0, device_floats(nullptr));
    } else if (!std::strcmp(name, "freed_a")) {
        float* a = device_floats(&ones);
        cudaFree(a);
        sgemm(handle, 1, a, kN, device_floats(&ones), 0, device_floats(nullptr));
    }
    std::printf("%s: %s\n", name, cudaGetErrorString(cudaDeviceSynchronize()));
}

// D (8 x 16) = epilogue(A^T B + bias) with A 4 x 8 and B 4 x 16, each x a
// product of two numbers, and the GELU forms beside what the GPU computed.
void epilogue_case(const char* name, cublasLtEpilogue_t epilogue, bool give_bias) {
    const int m = 8, n = 16, k = 4;
    std::vector<float> a(k * m, 0.0f), b(k * n, 0.0f), bias(m);
    for (int i = 0; i < m; ++i) a[i * k] = -3.0f + 0.75f * i, bias[i] = 0.125f * i;
    for (int j = 0; j < n; ++j) b[j * k] = 1.0f + 0.0625f * j;
    float *da, *db, *dd, *dbias, *daux;
    cudaMalloc(&da, a.size() * 4), cudaMalloc(&db, b.size() * 4), cudaMalloc(&dd, m * n * 4);
    cudaMalloc(&dbias, m * 4), cudaMalloc(&daux, m * n * 4);
    cudaMemcpy(da, a.data(), a.size() * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(db, b.data(), b.size() * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dbias, bias.data(), m * 4, cudaMemcpyHostToDevice);
    cudaMemset(dd, 0, m * n * 4), cudaMemset(daux, 0, m * n * 4);
    cublasLtHandle_t lt;
    cublasLtCreate(&lt);
    cublasLtMatmulDesc_t desc;
    cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F);
    const cublasOperation_t transpose = CUBLAS_OP_T;
    cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &transpose, sizeof transpose);
    cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue, sizeof epilogue);
    if (give_bias)
        cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &dbias, sizeof dbias);
    if (epilogue == CUBLASLT_EPILOGUE_GELU_AUX_BIAS) {
        const std::int64_t aux_ld = m;
        cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER, &daux, sizeof daux);
        cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD, &aux_ld, sizeof aux_ld);
    }
    cublasLtMatrixLayout_t la, lb, ld;
    cublasLtMatrixLayoutCreate(&la, CUDA_R_32F, k, m, k);
    cublasLtMatrixLayoutCreate(&lb, CUDA_R_32F, k, n, k);
    cublasLtMatrixLayoutCreate(&ld, CUDA_R_32F, m, n, m);
    say("cublasLtMatmul", cublasLtMatmul(lt, desc, &kOne, da, la, db, lb, &kZero, dd, ld, dd, ld, nullptr,
                                         nullptr, 0, nullptr));
    std::vector<float> d(m * n), aux(m * n);
    cudaMemcpy(d.data(), dd, d.size() * 4, cudaMemcpyDeviceToHost);
    cudaMemcpy(aux.data(), daux, aux.size() * 4, cudaMemcpyDeviceToHost);
    for (int j = 0; j < n; j += 5) {
        for (int i = 0; i < m; ++i) {
            const double x = double(a[i * k]) * b[j * k] + (give_bias ? bias[i] : 0);
            const double erf_form = 0.5 * x * (1 + std::erf(x / std::sqrt(2.0)));
            const double tanh_form =
                0.5 * x * (1 + std::tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)));
            std::printf("x %.9g D %.9g erf %.9g tanh %.9g aux %.9g\n", x, d[i + j * m], erf_form, tanh_form,
                        aux[i + j * m]);
        }
    }
    std::printf("%s: %s\n", name, cudaGetErrorString(cudaDeviceSynchronize()));
}

}  // namespace

int main(int argc, char** argv) {
    const char* name = argc > 1 ? argv[1] : "";
    if (!std::strcmp(name, "default_with_bias"))
        return epilogue_case(name, CUBLASLT_EPILOGUE_DEFAULT, true), 0;
    if (!std::strcmp(name, "gelu_with_bias")) return epilogue_case(name, CUBLASLT_EPILOGUE_GELU, true), 0;
    if (!std::strcmp(name, "bias")) return epilogue_case(name, CUBLASLT_EPILOGUE_BIAS, true), 0;
    if (!std::strcmp(name, "relu_bias")) return epilogue_case(name, CUBLASLT_EPILOGUE_RELU_BIAS, true), 0;
    if (!std::strcmp(name, "gelu_bias")) return epilogue_case(name, CUBLASLT_EPILOGUE_GELU_BIAS, true), 0;
    if (!std::strcmp(name, "gelu_aux_bias"))
        return epilogue_case(name, CUBLASLT_EPILOGUE_GELU_AUX_BIAS, true), 0;
    gemm_case(name);
}
