// cuBLAS's handle on the CPU backend, as its calls (cublas_handle.cpp,
// cublas_level1.cpp, cublas_gemm.cpp) share it. Internal to the backend.
#pragma once

#include <cublas_v2.h>

#include <functional>

#include "cublas_shared.h"

struct cublasContext {
    cudaStream_t stream = nullptr;
    cublasMath_t math = CUBLAS_DEFAULT_MATH;
    cublasPointerMode_t pointer_mode = CUBLAS_POINTER_MODE_HOST;
    cublasAtomicsMode_t atomics = CUBLAS_ATOMICS_NOT_ALLOWED;
};

namespace warpdrill::cpu::detail {

// Whether cublasCreate made `handle` and cublasDestroy has not ended it.
bool is_live(cublasHandle_t handle);

// A scalar argument as the handle's pointer mode says where it lives.
Scalar scalar_of(cublasHandle_t handle, const void* pointer, dense::Element element);

// Queues `operation` on the handle's stream; waits for it where `wait`.
cublasStatus_t queue(cublasHandle_t handle, std::function<void()> operation, bool wait = false);

// What the handle's math mode lets a float GEMM do to its inputs.
dense::InputRounding float_rounding(cublasHandle_t handle);

// The element type of a float or double routine (the S and D of cublasSgemm, cublasDgemm).
template <class T>
constexpr dense::Element element_for() {
    return sizeof(T) == 8 ? dense::Element::f64 : dense::Element::f32;
}

}  // namespace warpdrill::cpu::detail
