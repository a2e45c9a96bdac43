// cuBLAS on the CPU backend (include/cublas_api.h says what is here). Each
// call checks its arguments as cuBLAS does, then queues its operation on the
// handle's stream; the operation holds its operands to their buffers as it
// runs (library_access.h) and computes with dense_math.h.
#include <cublas_v2.h>

#include <cstdlib>
#include <functional>
#include <vector>

#include "cublas_shared.h"
#include "dense_math.h"
#include "library_access.h"
#include "program.h"
#include "streams.h"

struct cublasContext {
    cudaStream_t stream = nullptr;
    cublasMath_t math = CUBLAS_DEFAULT_MATH;
    cublasPointerMode_t pointer_mode = CUBLAS_POINTER_MODE_HOST;
    cublasAtomicsMode_t atomics = CUBLAS_ATOMICS_NOT_ALLOWED;
};

namespace {

using namespace warpdrill::cpu::detail;
using dense::Element;

LiveHandles<cublasContext> handles;
bool is_live(cublasHandle_t handle) { return handles.holds(handle); }

template <class T>
constexpr Element element_for() {
    return sizeof(T) == 8 ? Element::f64 : Element::f32;
}

// A vector argument as the checks see it: n runs of one element, |inc| apart.
StridedElements vector_elements(const char* name, const void* data, std::size_t bytes, std::int64_t n,
                                int inc) {
    return {name, data, bytes, 1, n, std::abs(inc)};
}

Scalar scalar_of(cublasHandle_t handle, const void* pointer, Element element) {
    return scalar_argument(pointer, element, handle->pointer_mode == CUBLAS_POINTER_MODE_DEVICE);
}

cublasStatus_t queue(cublasHandle_t handle, std::function<void()> operation, bool wait = false) {
    return queue_on(handle->stream, std::move(operation), wait);
}

// ---- level 1 ------------------------------------------------------------------------------

// A reduction of one or two vectors to `result`: in host pointer mode the
// call waits for it, as cuBLAS's does. With no elements the result is 0.
template <class Result, class Reduce>
cublasStatus_t reduce_to(const HostCall& call, cublasHandle_t handle, Result* result,
                         std::vector<StridedElements> inputs, Reduce reduce) {
    if (!is_live(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!result) return CUBLAS_STATUS_INVALID_VALUE;
    const bool on_device = handle->pointer_mode == CUBLAS_POINTER_MODE_DEVICE;
    const StridedElements output{"result", result, sizeof(Result)};
    return queue(
        handle,
        [=] {
            for (const StridedElements& input : inputs) check_library_read(call, input);
            if (on_device) check_library_write(call, output);
            *result = reduce();
            if (on_device) note_library_write(call, output);
        },
        !on_device);
}

template <class T, class Reduce>
cublasStatus_t reduce_vector(const HostCall& call, cublasHandle_t handle, int n, const T* x, int incx,
                             auto* result, Reduce reduce) {
    const bool empty = n <= 0 || incx <= 0;  // cuBLAS's result is 0 then
    const dense::Strided<const T> vector{x, empty ? 0 : n, incx};
    return reduce_to(call, handle, result, {vector_elements("x", x, sizeof(T), vector.n, incx)},
                     [=] { return reduce(vector); });
}

template <class T>
cublasStatus_t dot(const HostCall& call, cublasHandle_t handle, int n, const T* x, int incx, const T* y,
                   int incy, T* result) {
    const std::int64_t count = std::max(n, 0);
    const dense::Strided<const T> xs{x, count, incx}, ys{y, count, incy};
    return reduce_to(
        call, handle, result,
        {vector_elements("x", x, sizeof(T), count, incx), vector_elements("y", y, sizeof(T), count, incy)},
        [=] { return dense::dot(xs, ys); });
}

// y (n elements, incy apart) = update(i, old y[i]) for each i, where
// update = make_update() as the operation runs; `reads` are the other
// vectors the update reads, `reads_y` whether it reads y.
template <class T, class MakeUpdate>
cublasStatus_t update_vector(const HostCall& call, cublasHandle_t handle, int n, T* y, int incy, bool reads_y,
                             std::vector<StridedElements> reads, MakeUpdate make_update) {
    if (!is_live(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (n <= 0) return CUBLAS_STATUS_SUCCESS;
    const StridedElements output = vector_elements(reads_y ? "x" : "y", y, sizeof(T), n, incy);
    return queue(handle, [=] {
        for (const StridedElements& input : reads) check_library_read(call, input);
        if (reads_y) check_library_read(call, output);
        check_library_write(call, output);
        const auto update = make_update();
        const dense::Strided<T> ys{y, n, incy};
        for (std::int64_t i = 0; i < n; ++i) ys[i] = update(i, ys[i]);
        note_library_write(call, output);
    });
}

template <class T>
cublasStatus_t axpy(const HostCall& call, cublasHandle_t handle, int n, const T* alpha, const T* x, int incx,
                    T* y, int incy) {
    if (is_live(handle) && !alpha) return CUBLAS_STATUS_INVALID_VALUE;
    const Scalar a = is_live(handle) ? scalar_of(handle, alpha, element_for<T>()) : Scalar{};
    const dense::Strided<const T> xs{x, std::max(n, 0), incx};
    std::vector<StridedElements> reads{vector_elements("x", x, sizeof(T), std::max(n, 0), incx)};
    return update_vector(call, handle, n, y, incy, false, reads, [=] {
        const T scale = static_cast<T>(value_of(call, "alpha", a));
        return [=](std::int64_t i, T old) { return std::fma(scale, xs[i], old); };
    });
}

template <class T>
cublasStatus_t scal(const HostCall& call, cublasHandle_t handle, int n, const T* alpha, T* x, int incx) {
    if (is_live(handle) && !alpha) return CUBLAS_STATUS_INVALID_VALUE;
    if (incx <= 0) return is_live(handle) ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_NOT_INITIALIZED;
    const Scalar a = is_live(handle) ? scalar_of(handle, alpha, element_for<T>()) : Scalar{};
    return update_vector(call, handle, n, x, incx, true, {}, [=] {
        const T scale = static_cast<T>(value_of(call, "alpha", a));
        return [=](std::int64_t, T old) { return scale * old; };
    });
}

template <class T>
cublasStatus_t copy(const HostCall& call, cublasHandle_t handle, int n, const T* x, int incx, T* y,
                    int incy) {
    const dense::Strided<const T> xs{x, std::max(n, 0), incx};
    return update_vector(call, handle, n, y, incy, false,
                         {vector_elements("x", x, sizeof(T), std::max(n, 0), incx)},
                         [=] { return [=](std::int64_t i, T) { return xs[i]; }; });
}

}  // namespace

// ---- the handle ----------------------------------------------------------------------------

cublasStatus_t cublasCreate(cublasHandle_t* handle) {
    if (!handle) return CUBLAS_STATUS_INVALID_VALUE;
    *handle = handles.make();
    return CUBLAS_STATUS_SUCCESS;
}

// cuBLAS waits for the handle's work before it lets it go.
cublasStatus_t cublasDestroy(cublasHandle_t handle) {
    if (!is_live(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
    finish_all();
    return handles.destroy(handle) ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_NOT_INITIALIZED;
}

cublasStatus_t cublasGetVersion(cublasHandle_t handle, int* version) {
    if (!is_live(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!version) return CUBLAS_STATUS_INVALID_VALUE;
    *version = CUBLAS_VERSION;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetProperty(libraryPropertyType type, int* value) {
    if (!value) return CUBLAS_STATUS_INVALID_VALUE;
    switch (type) {
        case MAJOR_VERSION: *value = CUBLAS_VER_MAJOR; return CUBLAS_STATUS_SUCCESS;
        case MINOR_VERSION: *value = CUBLAS_VER_MINOR; return CUBLAS_STATUS_SUCCESS;
        case PATCH_LEVEL: *value = CUBLAS_VER_PATCH; return CUBLAS_STATUS_SUCCESS;
    }
    return CUBLAS_STATUS_INVALID_VALUE;
}

const char* cublasGetStatusName(cublasStatus_t status) {
    switch (status) {
        case CUBLAS_STATUS_SUCCESS: return "CUBLAS_STATUS_SUCCESS";
        case CUBLAS_STATUS_NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
        case CUBLAS_STATUS_ALLOC_FAILED: return "CUBLAS_STATUS_ALLOC_FAILED";
        case CUBLAS_STATUS_INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
        case CUBLAS_STATUS_ARCH_MISMATCH: return "CUBLAS_STATUS_ARCH_MISMATCH";
        case CUBLAS_STATUS_MAPPING_ERROR: return "CUBLAS_STATUS_MAPPING_ERROR";
        case CUBLAS_STATUS_EXECUTION_FAILED: return "CUBLAS_STATUS_EXECUTION_FAILED";
        case CUBLAS_STATUS_INTERNAL_ERROR: return "CUBLAS_STATUS_INTERNAL_ERROR";
        case CUBLAS_STATUS_NOT_SUPPORTED: return "CUBLAS_STATUS_NOT_SUPPORTED";
        case CUBLAS_STATUS_LICENSE_ERROR: return "CUBLAS_STATUS_LICENSE_ERROR";
    }
    return "CUBLAS_STATUS_UNKNOWN";
}

const char* cublasGetStatusString(cublasStatus_t status) {
    switch (status) {
        case CUBLAS_STATUS_SUCCESS: return "success";
        case CUBLAS_STATUS_NOT_INITIALIZED: return "the library was not initialized";
        case CUBLAS_STATUS_ALLOC_FAILED: return "the resource allocation failed";
        case CUBLAS_STATUS_INVALID_VALUE: return "an invalid numeric value was used as an argument";
        case CUBLAS_STATUS_ARCH_MISMATCH: return "an absent device architectural feature is required";
        case CUBLAS_STATUS_MAPPING_ERROR: return "an access to GPU memory space failed";
        case CUBLAS_STATUS_EXECUTION_FAILED: return "the GPU program failed to execute";
        case CUBLAS_STATUS_INTERNAL_ERROR: return "an internal operation failed";
        case CUBLAS_STATUS_NOT_SUPPORTED: return "the functionality requested is not supported";
        case CUBLAS_STATUS_LICENSE_ERROR: return "an error was detected when checking the current licensing";
    }
    return "unknown error";
}

cublasStatus_t cublasSetStream(cublasHandle_t handle, cudaStream_t stream) {
    if (!is_live(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
    handle->stream = stream;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetStream(cublasHandle_t handle, cudaStream_t* stream) {
    if (!is_live(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!stream) return CUBLAS_STATUS_INVALID_VALUE;
    *stream = handle->stream;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetMathMode(cublasHandle_t handle, cublasMath_t mode) {
    if (!is_live(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
    handle->math = mode;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetMathMode(cublasHandle_t handle, cublasMath_t* mode) {
    if (!is_live(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!mode) return CUBLAS_STATUS_INVALID_VALUE;
    *mode = handle->math;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetPointerMode(cublasHandle_t handle, cublasPointerMode_t mode) {
    if (!is_live(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (mode != CUBLAS_POINTER_MODE_HOST && mode != CUBLAS_POINTER_MODE_DEVICE)
        return CUBLAS_STATUS_INVALID_VALUE;
    handle->pointer_mode = mode;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetPointerMode(cublasHandle_t handle, cublasPointerMode_t* mode) {
    if (!is_live(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!mode) return CUBLAS_STATUS_INVALID_VALUE;
    *mode = handle->pointer_mode;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetAtomicsMode(cublasHandle_t handle, cublasAtomicsMode_t mode) {
    if (!is_live(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
    handle->atomics = mode;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetAtomicsMode(cublasHandle_t handle, cublasAtomicsMode_t* mode) {
    if (!is_live(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!mode) return CUBLAS_STATUS_INVALID_VALUE;
    *mode = handle->atomics;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetWorkspace(cublasHandle_t handle, void*, std::size_t) {
    return is_live(handle) ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_NOT_INITIALIZED;
}

// ---- level 1 -------------------------------------------------------------------------------

#define WARPDRILL_REDUCTION(Name, T, Result, reduce)                                          \
    cublasStatus_t Name(cublasHandle_t handle, int n, const T* x, int incx, Result* result) { \
        return reduce_vector(WARPDRILL_LIBRARY_CALL(#Name), handle, n, x, incx, result,       \
                             [](dense::Strided<const T> v) { return dense::reduce(v); });     \
    }
WARPDRILL_REDUCTION(cublasSasum, float, float, asum)
WARPDRILL_REDUCTION(cublasDasum, double, double, asum)
WARPDRILL_REDUCTION(cublasSnrm2, float, float, nrm2)
WARPDRILL_REDUCTION(cublasDnrm2, double, double, nrm2)
WARPDRILL_REDUCTION(cublasIsamax, float, int, iamax)
WARPDRILL_REDUCTION(cublasIdamax, double, int, iamax)
WARPDRILL_REDUCTION(cublasIsamin, float, int, iamin)
WARPDRILL_REDUCTION(cublasIdamin, double, int, iamin)
#undef WARPDRILL_REDUCTION

cublasStatus_t cublasSdot(cublasHandle_t handle, int n, const float* x, int incx, const float* y, int incy,
                          float* result) {
    return dot(WARPDRILL_LIBRARY_CALL("cublasSdot"), handle, n, x, incx, y, incy, result);
}
cublasStatus_t cublasDdot(cublasHandle_t handle, int n, const double* x, int incx, const double* y, int incy,
                          double* result) {
    return dot(WARPDRILL_LIBRARY_CALL("cublasDdot"), handle, n, x, incx, y, incy, result);
}
cublasStatus_t cublasSaxpy(cublasHandle_t handle, int n, const float* alpha, const float* x, int incx,
                           float* y, int incy) {
    return axpy(WARPDRILL_LIBRARY_CALL("cublasSaxpy"), handle, n, alpha, x, incx, y, incy);
}
cublasStatus_t cublasDaxpy(cublasHandle_t handle, int n, const double* alpha, const double* x, int incx,
                           double* y, int incy) {
    return axpy(WARPDRILL_LIBRARY_CALL("cublasDaxpy"), handle, n, alpha, x, incx, y, incy);
}
cublasStatus_t cublasSscal(cublasHandle_t handle, int n, const float* alpha, float* x, int incx) {
    return scal(WARPDRILL_LIBRARY_CALL("cublasSscal"), handle, n, alpha, x, incx);
}
cublasStatus_t cublasDscal(cublasHandle_t handle, int n, const double* alpha, double* x, int incx) {
    return scal(WARPDRILL_LIBRARY_CALL("cublasDscal"), handle, n, alpha, x, incx);
}
cublasStatus_t cublasScopy(cublasHandle_t handle, int n, const float* x, int incx, float* y, int incy) {
    return copy(WARPDRILL_LIBRARY_CALL("cublasScopy"), handle, n, x, incx, y, incy);
}
cublasStatus_t cublasDcopy(cublasHandle_t handle, int n, const double* x, int incx, double* y, int incy) {
    return copy(WARPDRILL_LIBRARY_CALL("cublasDcopy"), handle, n, x, incx, y, incy);
}

// ---- level 2 and 3 -------------------------------------------------------------------------

namespace {

bool is_operation(cublasOperation_t op) {
    return op == CUBLAS_OP_N || op == CUBLAS_OP_T || op == CUBLAS_OP_C;
}

// cuBLAS's checks of a GEMM's arguments, in its order.
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

// What the handle's math mode lets a float GEMM do to its inputs.
dense::InputRounding float_rounding(cublasHandle_t handle) {
    switch (handle->math & 0xf) {
        case CUBLAS_TF32_TENSOR_OP_MATH: return dense::InputRounding::tf32;
        case CUBLAS_TENSOR_OP_MATH: return dense::InputRounding::f16;
        default: return dense::InputRounding::none;
    }
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
    return gemv(WARPDRILL_LIBRARY_CALL("cublasSgemv"), handle, trans, m, n, alpha, A, lda, x, incx, beta, y,
                incy);
}
cublasStatus_t cublasDgemv(cublasHandle_t handle, cublasOperation_t trans, int m, int n, const double* alpha,
                           const double* A, int lda, const double* x, int incx, const double* beta, double* y,
                           int incy) {
    return gemv(WARPDRILL_LIBRARY_CALL("cublasDgemv"), handle, trans, m, n, alpha, A, lda, x, incx, beta, y,
                incy);
}

cublasStatus_t cublasSgemm(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m,
                           int n, int k, const float* alpha, const float* A, int lda, const float* B, int ldb,
                           const float* beta, float* C, int ldc) {
    return typed_gemm(WARPDRILL_LIBRARY_CALL("cublasSgemm"), handle, transa, transb, m, n, k, alpha, A, lda,
                      0, B, ldb, 0, beta, C, ldc, 0, 1);
}
cublasStatus_t cublasDgemm(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m,
                           int n, int k, const double* alpha, const double* A, int lda, const double* B,
                           int ldb, const double* beta, double* C, int ldc) {
    return typed_gemm(WARPDRILL_LIBRARY_CALL("cublasDgemm"), handle, transa, transb, m, n, k, alpha, A, lda,
                      0, B, ldb, 0, beta, C, ldc, 0, 1);
}
cublasStatus_t cublasSgemmStridedBatched(cublasHandle_t handle, cublasOperation_t transa,
                                         cublasOperation_t transb, int m, int n, int k, const float* alpha,
                                         const float* A, int lda, long long int strideA, const float* B,
                                         int ldb, long long int strideB, const float* beta, float* C, int ldc,
                                         long long int strideC, int batchCount) {
    return typed_gemm(WARPDRILL_LIBRARY_CALL("cublasSgemmStridedBatched"), handle, transa, transb, m, n, k,
                      alpha, A, lda, strideA, B, ldb, strideB, beta, C, ldc, strideC, batchCount);
}
cublasStatus_t cublasDgemmStridedBatched(cublasHandle_t handle, cublasOperation_t transa,
                                         cublasOperation_t transb, int m, int n, int k, const double* alpha,
                                         const double* A, int lda, long long int strideA, const double* B,
                                         int ldb, long long int strideB, const double* beta, double* C,
                                         int ldc, long long int strideC, int batchCount) {
    return typed_gemm(WARPDRILL_LIBRARY_CALL("cublasDgemmStridedBatched"), handle, transa, transb, m, n, k,
                      alpha, A, lda, strideA, B, ldb, strideB, beta, C, ldc, strideC, batchCount);
}
cublasStatus_t cublasGemmEx(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m,
                            int n, int k, const void* alpha, const void* A, cudaDataType Atype, int lda,
                            const void* B, cudaDataType Btype, int ldb, const void* beta, void* C,
                            cudaDataType Ctype, int ldc, cublasComputeType_t computeType, cublasGemmAlgo_t) {
    return gemm_ex(WARPDRILL_LIBRARY_CALL("cublasGemmEx"), handle, transa, transb, m, n, k, alpha, A, Atype,
                   lda, 0, B, Btype, ldb, 0, beta, C, Ctype, ldc, 0, 1, computeType);
}
cublasStatus_t cublasGemmStridedBatchedEx(cublasHandle_t handle, cublasOperation_t transa,
                                          cublasOperation_t transb, int m, int n, int k, const void* alpha,
                                          const void* A, cudaDataType Atype, int lda, long long int strideA,
                                          const void* B, cudaDataType Btype, int ldb, long long int strideB,
                                          const void* beta, void* C, cudaDataType Ctype, int ldc,
                                          long long int strideC, int batchCount,
                                          cublasComputeType_t computeType, cublasGemmAlgo_t) {
    return gemm_ex(WARPDRILL_LIBRARY_CALL("cublasGemmStridedBatchedEx"), handle, transa, transb, m, n, k,
                   alpha, A, Atype, lda, strideA, B, Btype, ldb, strideB, beta, C, Ctype, ldc, strideC,
                   batchCount, computeType);
}
