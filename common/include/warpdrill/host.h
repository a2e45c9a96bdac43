// Host-side helpers shared by every lesson and tool: CUDA error checks that
// throw with the file and line, the size of a grid that fills the GPU, and an
// owning device buffer.
#pragma once

#include <cstddef>
#include <source_location>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "warpdrill/cuda.h"

namespace warpdrill {

class CudaError : public std::runtime_error {
  public:
    CudaError(cudaError_t code, const std::string& what) : std::runtime_error(what), code_(code) {}
    cudaError_t code() const { return code_; }

  private:
    cudaError_t code_;
};

// Throws CudaError naming the call's file and line when `result` is an error.
void check_cuda(cudaError_t result, const std::source_location& where = std::source_location::current());

// After a launch: reports a bad launch configuration, then waits for the
// kernel and reports what went wrong while it ran.
void check_launch(const std::source_location& where = std::source_location::current());

// The current device's multiprocessors (SMs).
int multiprocessor_count();

// The most blocks of `block_size` threads of `kernel` that the GPU holds at
// once, on all its multiprocessors: a grid that fills the GPU exactly once.
template <class Kernel>
int resident_blocks(Kernel kernel, int block_size, std::size_t dynamic_smem_bytes = 0) {
    int per_multiprocessor = 0;
    check_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_multiprocessor, kernel, block_size,
                                                             dynamic_smem_bytes));
    return per_multiprocessor * multiprocessor_count();
}

template <class T>
class DeviceBuffer {
  public:
    explicit DeviceBuffer(std::size_t count) : count_(count) {
        check_cuda(cudaMalloc(&data_, count * sizeof(T)));
    }
    explicit DeviceBuffer(std::span<const T> host) : DeviceBuffer(host.size()) { upload(host); }
    ~DeviceBuffer() { cudaFree(data_); }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;

    void upload(std::span<const T> host) {
        if (host.size() > count_)
            throw std::length_error("DeviceBuffer::upload: more elements than the buffer holds");
        check_cuda(cudaMemcpy(data_, host.data(), host.size_bytes(), cudaMemcpyHostToDevice));
    }
    std::vector<T> download() const {
        std::vector<T> host(count_);
        check_cuda(cudaMemcpy(host.data(), data_, count_ * sizeof(T), cudaMemcpyDeviceToHost));
        return host;
    }
    // Fills every byte with 0xff (NaN for floats, -1 for integers), so that an
    // element the kernel never writes cannot pass for a result.
    void poison() { check_cuda(cudaMemset(data_, 0xff, count_ * sizeof(T))); }

    T* data() { return data_; }
    const T* data() const { return data_; }
    std::size_t size() const { return count_; }

  private:
    T* data_ = nullptr;
    std::size_t count_ = 0;
};

// Poisons each of `buffers` (DeviceBuffer::poison): a run's outputs, before it.
template <class... Buffers>
void poison(Buffers&... buffers) {
    (buffers.poison(), ...);
}

}  // namespace warpdrill
