// The handles a test makes (streams, events, a cuBLAS handle), each destroyed
// at the end of its scope. Each converts to the handle CUDA's calls take.
#pragma once

#include <cublas_v2.h>

#include "warpdrill/catch.h"
#include "warpdrill/cuda.h"
#include "warpdrill/host.h"

namespace warpdrill::testing {

template <class Handle, auto destroy>
class Scoped {
  public:
    Scoped(const Scoped&) = delete;
    Scoped& operator=(const Scoped&) = delete;
    ~Scoped() { destroy(handle_); }
    operator Handle() const { return handle_; }

  protected:
    Scoped() = default;
    Handle handle_{};
};

class Stream : public Scoped<cudaStream_t, cudaStreamDestroy> {
  public:
    explicit Stream(unsigned flags = cudaStreamDefault) {
        check_cuda(cudaStreamCreateWithFlags(&handle_, flags));
    }
};

class Event : public Scoped<cudaEvent_t, cudaEventDestroy> {
  public:
    Event() { check_cuda(cudaEventCreate(&handle_)); }
};

class CublasHandle : public Scoped<cublasHandle_t, cublasDestroy> {
  public:
    CublasHandle() { REQUIRE(cublasCreate(&handle_) == CUBLAS_STATUS_SUCCESS); }
};

}  // namespace warpdrill::testing
