// cuBLAS's gemv and GEMMs on the CPU backend: each checks its arguments as
// cuBLAS does, then queues the GEMM that cublas_shared.h runs (gemv: a GEMM
// of one column).
#include <optional>
#include <vector>

#include "cublas_handle.h"
#include "dense_math.h"
#include "library_access.h"

namespace {

using namespace warpdrill::cpu::detail;
using dense::Element;

bool is_operation(cublasOperation_t op) {
    return op == CUBLAS_OP_N || op == CUBLAS_OP_T || op == CUBLAS_OP_C;
}

// cuBLAS's checks of a GEMM's arguments, and the status of each: cublas.cu's
// test holds an H200's cuBLAS to the same for a wrong operation, size or
// leading dimension.
cublasStatus_t check_gemm(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m,
                          int n, int k, int lda, int ldb, int ldc, int batches, const void* alpha,
                          const void* beta) {
    if (!is_live(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!is_operation(transa) || !is_operation(transb) || m < 0 || n < 0 || k < 0 || batches < 0)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (lda < std::max(1, transa == CUBLAS_OP_N ? m : k) ||
        ldb < std::max(1, transb == CUBLAS_OP_N ? k : n) || ldc < std::max(1, m))
        return CUBLAS_STATUS_INVALID_VALUE;
    if (!alpha || !beta) return CUBLAS_STATUS_INVALID_VALUE;
    return CUBLAS_STATUS_SUCCESS;
}

// A GEMM of cuBLAS's: C = alpha op(A) op(B) + beta C.
Gemm gemm_of(cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, const Scalar& alpha,
             const MatrixArg& a, const MatrixArg& b, const Scalar& beta, const MatrixArg& c, int batches,
             const GemmMath& math) {
    Gemm gemm;
    gemm.a_transposed = transa != CUBLAS_OP_N;
    gemm.b_transposed = transb != CUBLAS_OP_N;
    gemm.m = m, gemm.n = n, gemm.k = k;
    gemm.alpha = alpha, gemm.beta = beta;
    gemm.a = a, gemm.b = b, gemm.c = c, gemm.d = c;
    gemm.batches = batches;
    gemm.rounding = math.rounding;
    gemm.accumulator = math.accumulator;
    return gemm;
}

template <class T>
cublasStatus_t typed_gemm(const HostCall& call, cublasHandle_t handle, cublasOperation_t transa,
                          cublasOperation_t transb, int m, int n, int k, const T* alpha, const T* A, int lda,
                          long long strideA, const T* B, int ldb, long long strideB, const T* beta, T* C,
                          int ldc, long long strideC, int batches) {
    if (const cublasStatus_t status =
            check_gemm(handle, transa, transb, m, n, k, lda, ldb, ldc, batches, alpha, beta))
        return status;
    constexpr Element element = element_for<T>();
    const bool single = element == Element::f32;
    const GemmMath math{element, single ? float_rounding(handle) : dense::InputRounding::none,
                        single ? dense::Accumulator::f32 : dense::Accumulator::f64};
    return queue_gemm(call, handle->stream,
                      gemm_of(transa, transb, m, n, k, scalar_of(handle, alpha, element),
                              {A, element, lda, strideA}, {B, element, ldb, strideB},
                              scalar_of(handle, beta, element), {C, element, ldc, strideC}, batches, math));
}

cublasStatus_t gemm_ex(const HostCall& call, cublasHandle_t handle, cublasOperation_t transa,
                       cublasOperation_t transb, int m, int n, int k, const void* alpha, const void* A,
                       cudaDataType Atype, int lda, long long strideA, const void* B, cudaDataType Btype,
                       int ldb, long long strideB, const void* beta, void* C, cudaDataType Ctype, int ldc,
                       long long strideC, int batches, cublasComputeType_t compute) {
    if (const cublasStatus_t status =
            check_gemm(handle, transa, transb, m, n, k, lda, ldb, ldc, batches, alpha, beta))
        return status;
    const std::optional<GemmMath> math = gemm_math(compute, Atype, Btype, Ctype, float_rounding(handle));
    if (!math) {
        warn_where_only_a_gpu_computes(call, Atype, Btype, Ctype);
        return CUBLAS_STATUS_NOT_SUPPORTED;
    }
    return queue_gemm(call, handle->stream,
                      gemm_of(transa, transb, m, n, k, scalar_of(handle, alpha, math->scalar),
                              {A, *element_of(Atype), lda, strideA}, {B, *element_of(Btype), ldb, strideB},
                              scalar_of(handle, beta, math->scalar), {C, *element_of(Ctype), ldc, strideC},
                              batches, *math));
}

// y = alpha op(A) x + beta y: a GEMM of one column, over x and y gathered
// into contiguous copies (they may be strided). The math mode changes
// nothing: cuBLAS's gemv keeps float's inputs whole under TF32 (an H200's).
template <class T>
cublasStatus_t gemv(const HostCall& call, cublasHandle_t handle, cublasOperation_t trans, int m, int n,
                    const T* alpha, const T* A, int lda, const T* x, int incx, const T* beta, T* y,
                    int incy) {
    if (!is_live(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!is_operation(trans) || m < 0 || n < 0 || lda < std::max(1, m) || !alpha || !beta)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (m == 0 || n == 0) return CUBLAS_STATUS_SUCCESS;
    const bool plain = trans == CUBLAS_OP_N;
    const int rows = plain ? m : n, inner = plain ? n : m;
    constexpr Element element = element_for<T>();
    const Scalar a = scalar_of(handle, alpha, element), b = scalar_of(handle, beta, element);
    return queue(handle, [=] {
        const double alpha_value = value_of(call, "alpha", a), beta_value = value_of(call, "beta", b);
        const StridedElements matrix{"A", A, sizeof(T), m, n, lda, true};
        const StridedElements xs = vector_elements("x", x, sizeof(T), inner, incx);
        const StridedElements ys = vector_elements("y", y, sizeof(T), rows, incy);
        check_library_read(call, matrix);
        check_library_read(call, xs);
        if (beta_value != 0) check_library_read(call, ys);
        check_library_write(call, ys);
        const dense::Strided<const T> x_in{x, inner, incx};
        const dense::Strided<T> y_out{y, rows, incy};
        std::vector<T> x_column(inner), y_column(rows);
        for (int i = 0; i < inner; ++i) x_column[i] = x_in[i];
        if (beta_value != 0)
            for (int i = 0; i < rows; ++i) y_column[i] = y_out[i];
        dense::gemm(rows, 1, inner, alpha_value, {A, element, lda, !plain},
                    {x_column.data(), element, inner, false}, beta_value,
                    {y_column.data(), element, rows, false}, {y_column.data(), element, rows},
                    dense::InputRounding::none,
                    element == Element::f32 ? dense::Accumulator::f32 : dense::Accumulator::f64);
        for (int i = 0; i < rows; ++i) y_out[i] = y_column[i];
        note_library_write(call, ys);
    });
}

}  // namespace

cublasStatus_t cublasSgemv(cublasHandle_t handle, cublasOperation_t trans, int m, int n, const float* alpha,
                           const float* A, int lda, const float* x, int incx, const float* beta, float* y,
                           int incy) {
    return gemv(WARPDRILL_HOST_CALL("cublasSgemv"), handle, trans, m, n, alpha, A, lda, x, incx, beta, y,
                incy);
}
cublasStatus_t cublasDgemv(cublasHandle_t handle, cublasOperation_t trans, int m, int n, const double* alpha,
                           const double* A, int lda, const double* x, int incx, const double* beta, double* y,
                           int incy) {
    return gemv(WARPDRILL_HOST_CALL("cublasDgemv"), handle, trans, m, n, alpha, A, lda, x, incx, beta, y,
                incy);
}

cublasStatus_t cublasSgemm(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m,
                           int n, int k, const float* alpha, const float* A, int lda, const float* B, int ldb,
                           const float* beta, float* C, int ldc) {
    return typed_gemm(WARPDRILL_HOST_CALL("cublasSgemm"), handle, transa, transb, m, n, k, alpha, A, lda, 0,
                      B, ldb, 0, beta, C, ldc, 0, 1);
}
cublasStatus_t cublasDgemm(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m,
                           int n, int k, const double* alpha, const double* A, int lda, const double* B,
                           int ldb, const double* beta, double* C, int ldc) {
    return typed_gemm(WARPDRILL_HOST_CALL("cublasDgemm"), handle, transa, transb, m, n, k, alpha, A, lda, 0,
                      B, ldb, 0, beta, C, ldc, 0, 1);
}
cublasStatus_t cublasSgemmStridedBatched(cublasHandle_t handle, cublasOperation_t transa,
                                         cublasOperation_t transb, int m, int n, int k, const float* alpha,
                                         const float* A, int lda, long long int strideA, const float* B,
                                         int ldb, long long int strideB, const float* beta, float* C, int ldc,
                                         long long int strideC, int batchCount) {
    return typed_gemm(WARPDRILL_HOST_CALL("cublasSgemmStridedBatched"), handle, transa, transb, m, n, k,
                      alpha, A, lda, strideA, B, ldb, strideB, beta, C, ldc, strideC, batchCount);
}
cublasStatus_t cublasDgemmStridedBatched(cublasHandle_t handle, cublasOperation_t transa,
                                         cublasOperation_t transb, int m, int n, int k, const double* alpha,
                                         const double* A, int lda, long long int strideA, const double* B,
                                         int ldb, long long int strideB, const double* beta, double* C,
                                         int ldc, long long int strideC, int batchCount) {
    return typed_gemm(WARPDRILL_HOST_CALL("cublasDgemmStridedBatched"), handle, transa, transb, m, n, k,
                      alpha, A, lda, strideA, B, ldb, strideB, beta, C, ldc, strideC, batchCount);
}
cublasStatus_t cublasGemmEx(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m,
                            int n, int k, const void* alpha, const void* A, cudaDataType Atype, int lda,
                            const void* B, cudaDataType Btype, int ldb, const void* beta, void* C,
                            cudaDataType Ctype, int ldc, cublasComputeType_t computeType, cublasGemmAlgo_t) {
    return gemm_ex(WARPDRILL_HOST_CALL("cublasGemmEx"), handle, transa, transb, m, n, k, alpha, A, Atype, lda,
                   0, B, Btype, ldb, 0, beta, C, Ctype, ldc, 0, 1, computeType);
}
cublasStatus_t cublasGemmStridedBatchedEx(cublasHandle_t handle, cublasOperation_t transa,
                                          cublasOperation_t transb, int m, int n, int k, const void* alpha,
                                          const void* A, cudaDataType Atype, int lda, long long int strideA,
                                          const void* B, cudaDataType Btype, int ldb, long long int strideB,
                                          const void* beta, void* C, cudaDataType Ctype, int ldc,
                                          long long int strideC, int batchCount,
                                          cublasComputeType_t computeType, cublasGemmAlgo_t) {
    return gemm_ex(WARPDRILL_HOST_CALL("cublasGemmStridedBatchedEx"), handle, transa, transb, m, n, k, alpha,
                   A, Atype, lda, strideA, B, Btype, ldb, strideB, beta, C, Ctype, ldc, strideC, batchCount,
                   computeType);
}
