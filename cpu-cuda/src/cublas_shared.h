// What cuBLAS (cublas_*.cpp) and cuBLASLt (cublaslt.cpp) share on the CPU
// backend: scalar arguments, queueing on a stream, the element types and
// compute types of a GEMM, and the GEMM itself as queued work, with
// cuBLASLt's epilogues. Internal to the backend.
#pragma once

#include <cublas_api.h>

#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_set>

#include "dense_math.h"
#include "device_memory.h"
#include "library_access.h"
#include "program.h"

namespace warpdrill::cpu::detail {

// The handles a library has made and not destroyed: a call with any other
// handle gets CUBLAS_STATUS_NOT_INITIALIZED, where cuBLAS would read freed
// memory. Safe from any thread.
template <class Context>
class LiveHandles {
  public:
    Context* make() {
        auto* handle = new Context;
        const std::lock_guard lock(mutex_);
        handles_.insert(handle);
        return handle;
    }
    bool holds(Context* handle) const {
        const std::lock_guard lock(mutex_);
        return handles_.contains(handle);
    }
    // false where `handle` is not live.
    bool destroy(Context* handle) {
        {
            const std::lock_guard lock(mutex_);
            if (handles_.erase(handle) == 0) return false;
        }
        delete handle;
        return true;
    }

  private:
    mutable std::mutex mutex_;
    std::unordered_set<Context*> handles_;
};

// A scalar argument (alpha, beta): read at the call from host memory, or
// when the operation runs from device memory.
struct Scalar {
    const void* pointer = nullptr;
    dense::Element element = dense::Element::f32;
    bool on_device = false;
    double host_value = 0;
};
Scalar scalar_argument(const void* pointer, dense::Element element, bool on_device);
// Its value, as the operation runs (a device pointer checked as a read).
double value_of(const HostCall& call, const char* name, const Scalar& scalar);

// Queues `operation` on `stream`, as cuBLAS queues its kernels; waits for it
// where `wait`. CUBLAS_STATUS_EXECUTION_FAILED for a stream that is not live.
cublasStatus_t queue_on(cudaStream_t stream, std::function<void()> operation, bool wait = false);

// A GEMM's element type, where the backend has it (half, bfloat16, float, double).
std::optional<dense::Element> element_of(cudaDataType type);

// How a GEMM computes: its scalars' type, what it does to its inputs, what
// it adds in; nullopt for types that cuBLAS does not multiply together
// (cublasGemmEx's table), or that the backend lacks. `float_rounding` is
// what the handle's math mode lets a float GEMM do.
struct GemmMath {
    dense::Element scalar;
    dense::InputRounding rounding;
    dense::Accumulator accumulator;
};
std::optional<GemmMath> gemm_math(cublasComputeType_t compute, cudaDataType a, cudaDataType b, cudaDataType c,
                                  dense::InputRounding float_rounding);
// Warns, once per call site, when a GEMM's types are ones that cuBLAS
// computes on a GPU and the backend does not (8-bit integers, complex).
void warn_where_only_a_gpu_computes(const HostCall& call, cudaDataType a, cudaDataType b, cudaDataType c);
// Warns, once per call site, that the call asks for `what` (CUDA's own
// names: "cublasLtEpilogue_t 192"), which cuBLAS has and the backend lacks.
void warn_not_on_the_backend(const HostCall& call, const std::string& what);

// One matrix of a GEMM as the caller gave it: of a batched call, the first.
struct MatrixArg {
    const void* data = nullptr;
    dense::Element element = dense::Element::f32;
    long long ld = 0;
    long long stride = 0;  // elements from one matrix of the batch to the next
};

// cuBLASLt's epilogues: what becomes of each element of D.
struct Epilogue {
    enum class Activation { none, relu, gelu } activation = Activation::none;
    MatrixArg bias;  // a vector of D's rows, added before the activation, when its data is set
    MatrixArg aux;   // where the values before the activation go, when its data is set
};

struct Gemm {
    bool a_transposed = false, b_transposed = false;
    long long m = 0, n = 0, k = 0;
    Scalar alpha, beta;
    MatrixArg a, b, c, d;  // d is c for cuBLAS's own GEMMs
    long long batches = 1;
    dense::InputRounding rounding = dense::InputRounding::none;
    dense::Accumulator accumulator = dense::Accumulator::f32;
    Epilogue epilogue;
};
// Queues `gemm` on `stream`: where alpha is 0, A and B are not read (BLAS's
// rule); where beta is 0, C is not read.
cublasStatus_t queue_gemm(const HostCall& call, cudaStream_t stream, const Gemm& gemm);

}  // namespace warpdrill::cpu::detail
