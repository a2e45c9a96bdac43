// Device memory for the Thrust subset (device_vector.h lists it): how it
// is allocated, owned and checked, always through the CUDA runtime, so that
// the backend checks every access to it as it checks a program's own
// cudaMalloc'd buffers. Internal.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <utility>

#include "thrust/system/detail/bad_alloc.h"
#include "thrust/system_error.h"

namespace thrust::detail {

// Throws a failed CUDA call's error as Thrust does, with what was being done.
inline void check(cudaError_t error, const char* doing) {
    if (error != cudaSuccess) throw system_error(error, cuda_category(), doing);
}

// `count` items of device memory, not initialised; nullptr for none.
template <class T>
T* allocate_device(std::size_t count) {
    void* items = nullptr;
    if (const cudaError_t error = cudaMalloc(&items, count * sizeof(T)); error != cudaSuccess) {
        cudaGetLastError();  // a failed allocation is over: the next call must not see its error again
        throw system::detail::bad_alloc(std::string("cudaMalloc: failed to allocate: ") +
                                        cudaGetErrorName(error) + ": " + cudaGetErrorString(error));
    }
    return static_cast<T*>(items);
}

// `count` items of device memory that this object owns: freed when it is
// destroyed, as when an algorithm throws.
template <class T>
class device_buffer {
  public:
    device_buffer() = default;
    explicit device_buffer(std::size_t count) : items_(allocate_device<T>(count)), count_(count) {}
    device_buffer(device_buffer&& other) noexcept
        : items_(std::exchange(other.items_, nullptr)), count_(std::exchange(other.count_, 0)) {}
    device_buffer& operator=(device_buffer&& other) noexcept {
        std::swap(items_, other.items_);
        std::swap(count_, other.count_);
        return *this;
    }
    ~device_buffer() { cudaFree(items_); }

    T* get() const { return items_; }
    std::size_t size() const { return count_; }

  private:
    T* items_ = nullptr;
    std::size_t count_ = 0;
};

// One value from device memory, and one to it.
template <class T>
T read_from_device(const T* item) {
    T value;
    check(cudaMemcpy(&value, item, sizeof(T), cudaMemcpyDeviceToHost), "reading an element from the device");
    return value;
}
template <class T>
void write_to_device(T* item, const T& value) {
    check(cudaMemcpy(item, &value, sizeof(T), cudaMemcpyHostToDevice), "writing an element to the device");
}

}  // namespace thrust::detail
