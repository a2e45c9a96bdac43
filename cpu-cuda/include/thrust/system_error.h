// <thrust/system_error.h> on the CPU backend (device_vector.h lists the
// Thrust subset): thrust::system_error, which a Thrust algorithm throws when
// a CUDA call fails, with the CUDA error as its code() in cuda_category().
// It is a std::system_error here; what() holds the words it was made with.
#pragma once

#include <cuda_runtime.h>

#include <string>
#include <system_error>

namespace thrust {
namespace system {

// CUDA's errors as error codes: message() is "cudaErrorInvalidValue: invalid argument".
inline const std::error_category& cuda_category() {
    struct cuda_error_category : std::error_category {
        const char* name() const noexcept override { return "cuda"; }
        std::string message(int error) const override {
            const auto cuda_error = static_cast<cudaError_t>(error);
            return std::string(cudaGetErrorName(cuda_error)) + ": " + cudaGetErrorString(cuda_error);
        }
    };
    static const cuda_error_category category;
    return category;
}

class system_error : public std::system_error {
  public:
    using std::system_error::system_error;
};

}  // namespace system

using system::cuda_category;
using system::system_error;

}  // namespace thrust
