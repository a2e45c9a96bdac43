// cuBLAS's level-1 routines on the CPU backend: the reductions of a strided
// vector (asum, nrm2, dot, amax, amin) and its updates (axpy, scal, copy).
// Each checks its arguments as cuBLAS does, then queues its operation on the
// handle's stream; the operation holds its vectors to their buffers as it
// runs (library_access.h) and computes with dense_math.h.
#include <vector>

#include "cublas_handle.h"
#include "dense_math.h"
#include "library_access.h"

namespace {

using namespace warpdrill::cpu::detail;

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

#define WARPDRILL_REDUCTION(Name, T, Result, reduce)                                          \
    cublasStatus_t Name(cublasHandle_t handle, int n, const T* x, int incx, Result* result) { \
        return reduce_vector(WARPDRILL_HOST_CALL(#Name), handle, n, x, incx, result,          \
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
    return dot(WARPDRILL_HOST_CALL("cublasSdot"), handle, n, x, incx, y, incy, result);
}
cublasStatus_t cublasDdot(cublasHandle_t handle, int n, const double* x, int incx, const double* y, int incy,
                          double* result) {
    return dot(WARPDRILL_HOST_CALL("cublasDdot"), handle, n, x, incx, y, incy, result);
}
cublasStatus_t cublasSaxpy(cublasHandle_t handle, int n, const float* alpha, const float* x, int incx,
                           float* y, int incy) {
    return axpy(WARPDRILL_HOST_CALL("cublasSaxpy"), handle, n, alpha, x, incx, y, incy);
}
cublasStatus_t cublasDaxpy(cublasHandle_t handle, int n, const double* alpha, const double* x, int incx,
                           double* y, int incy) {
    return axpy(WARPDRILL_HOST_CALL("cublasDaxpy"), handle, n, alpha, x, incx, y, incy);
}
cublasStatus_t cublasSscal(cublasHandle_t handle, int n, const float* alpha, float* x, int incx) {
    return scal(WARPDRILL_HOST_CALL("cublasSscal"), handle, n, alpha, x, incx);
}
cublasStatus_t cublasDscal(cublasHandle_t handle, int n, const double* alpha, double* x, int incx) {
    return scal(WARPDRILL_HOST_CALL("cublasDscal"), handle, n, alpha, x, incx);
}
cublasStatus_t cublasScopy(cublasHandle_t handle, int n, const float* x, int incx, float* y, int incy) {
    return copy(WARPDRILL_HOST_CALL("cublasScopy"), handle, n, x, incx, y, incy);
}
cublasStatus_t cublasDcopy(cublasHandle_t handle, int n, const double* x, int incx, double* y, int incy) {
    return copy(WARPDRILL_HOST_CALL("cublasDcopy"), handle, n, x, incx, y, incy);
}
