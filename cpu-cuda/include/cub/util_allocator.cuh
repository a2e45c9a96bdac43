// <cub/util_allocator.cuh> on the CPU backend: cub::CachingDeviceAllocator,
// part of the subset of CUB that warpdrill's CPU backend provides, written
// for the backend from CUB's documented API (not CUB's code). It allocates
// with cudaMalloc, so the backend knows the memory as device memory, and
// keeps freed allocations for reuse instead of calling cudaFree.
//
// As CUB's: a request is rounded up to a bin, a power of bin_growth between
// bin_growth^min_bin and bin_growth^max_bin bytes; a larger one is allocated
// exactly and never cached. A freed block is cached while the device's cache
// stays within max_cached_bytes. Unlike CUB's, which also reuses a block freed
// on another stream once an event says that stream's work on it is done, a
// cached block is reused only on the stream it was freed on, whose order
// keeps its earlier work first.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdio>
#include <map>
#include <mutex>

#include "cub/util_debug.cuh"  // CubDebug and CubDebugExit, which CUB's allocator header brings too

namespace cub {

class CachingDeviceAllocator {
  public:
    static constexpr unsigned int INVALID_BIN = static_cast<unsigned int>(-1);
    static constexpr std::size_t INVALID_SIZE = static_cast<std::size_t>(-1);
    static constexpr int INVALID_DEVICE_ORDINAL = -1;

    // skip_cleanup: do not free the cache when destroyed (for an allocator
    // that lives until the program ends, when CUDA may be gone). debug: say
    // what it does on stdout.
    CachingDeviceAllocator(unsigned int bin_growth, unsigned int min_bin = 1,
                           unsigned int max_bin = INVALID_BIN, std::size_t max_cached_bytes = INVALID_SIZE,
                           bool skip_cleanup = false, bool debug = false)
        : bin_growth_(bin_growth),
          min_bin_(min_bin),
          max_bin_(max_bin),
          max_cached_bytes_(max_cached_bytes),
          skip_cleanup_(skip_cleanup),
          debug_(debug) {}
    // CUB's defaults: bins of 512 B, 4 KiB, 32 KiB, 256 KiB and 2 MiB; at most
    // three of the largest bin's size, less one byte, cached per device.
    CachingDeviceAllocator(bool skip_cleanup = false, bool debug = false)
        : CachingDeviceAllocator(8, 3, 7, 3 * power(8, 7) - 1, skip_cleanup, debug) {}

    CachingDeviceAllocator(const CachingDeviceAllocator&) = delete;
    CachingDeviceAllocator& operator=(const CachingDeviceAllocator&) = delete;

    virtual ~CachingDeviceAllocator() {
        if (!skip_cleanup_) FreeAllCached();
    }

    cudaError_t SetMaxCachedBytes(std::size_t max_cached_bytes) {
        const std::lock_guard lock(mutex_);
        max_cached_bytes_ = max_cached_bytes;
        return cudaSuccess;
    }

    // *d_ptr = at least `bytes` bytes of device memory on `device`, to be used on active_stream.
    cudaError_t DeviceAllocate(int device, void** d_ptr, std::size_t bytes, cudaStream_t active_stream = 0) {
        *d_ptr = nullptr;
        const std::lock_guard lock(mutex_);
        const Size size = size_of(bytes);
        const auto cached = find_cached(device, size.bytes, active_stream);
        if (cached != cached_.end()) {
            *d_ptr = cached->second.ptr;
            cached_bytes_[device] -= size.bytes;
            cached_.erase(cached);
            log("reused", device, *d_ptr, size.bytes);
        } else {
            const DeviceScope scope(device);
            if (const cudaError_t error = cudaMalloc(d_ptr, size.bytes); error != cudaSuccess) return error;
            log("allocated", device, *d_ptr, size.bytes);
        }
        live_[*d_ptr] = {device, size, active_stream};
        return cudaSuccess;
    }
    // On the current device.
    cudaError_t DeviceAllocate(void** d_ptr, std::size_t bytes, cudaStream_t active_stream = 0) {
        return DeviceAllocate(current_device(), d_ptr, bytes, active_stream);
    }

    // Gives back a block that DeviceAllocate gave: cached if its bin has
    // room, else freed. As in CUB, a pointer it did not give goes to cudaFree.
    cudaError_t DeviceFree(int device, void* d_ptr) {
        const std::lock_guard lock(mutex_);
        const auto live = live_.find(d_ptr);
        if (live == live_.end() || live->second.device != device) {
            const DeviceScope scope(device);
            return cudaFree(d_ptr);
        }
        const Block block = live->second;
        live_.erase(live);
        const bool cacheable = block.size.bin != INVALID_BIN;
        if (cacheable && cached_bytes_[device] + block.size.bytes <= max_cached_bytes_) {
            cached_.insert({{device, block.size.bytes}, {d_ptr, block.stream}});
            cached_bytes_[device] += block.size.bytes;
            log("cached", device, d_ptr, block.size.bytes);
            return cudaSuccess;
        }
        log("freed", device, d_ptr, block.size.bytes);
        const DeviceScope scope(device);
        return cudaFree(d_ptr);
    }
    // A block of the current device.
    cudaError_t DeviceFree(void* d_ptr) { return DeviceFree(current_device(), d_ptr); }

    // Frees every cached block; blocks in use stay.
    cudaError_t FreeAllCached() {
        const std::lock_guard lock(mutex_);
        cudaError_t first_error = cudaSuccess;
        for (const auto& [key, cached] : cached_) {
            const DeviceScope scope(key.device);
            const cudaError_t error = cudaFree(cached.ptr);
            if (first_error == cudaSuccess) first_error = error;
        }
        cached_.clear();
        cached_bytes_.clear();
        return first_error;
    }

  private:
    // A request's bin and the bytes it takes: the bin's size, or the request itself past the largest bin.
    struct Size {
        unsigned int bin;
        std::size_t bytes;
    };
    struct Block {
        int device;
        Size size;
        cudaStream_t stream;
    };
    struct CacheKey {
        int device;
        std::size_t bytes;
        auto operator<=>(const CacheKey&) const = default;
    };
    struct CachedBlock {
        void* ptr;
        cudaStream_t stream;
    };
    using Cache = std::multimap<CacheKey, CachedBlock>;

    // Makes `device` current for its lifetime, as the calls that allocate or free on it need.
    class DeviceScope {
      public:
        explicit DeviceScope(int device) : previous_(current_device()) {
            if (device != previous_) cudaSetDevice(device);
        }
        ~DeviceScope() { cudaSetDevice(previous_); }

      private:
        int previous_;
    };

    static constexpr std::size_t power(std::size_t base, unsigned int exponent) {
        std::size_t result = 1;
        for (unsigned int i = 0; i < exponent; ++i) result *= base;
        return result;
    }
    static int current_device() {
        int device = INVALID_DEVICE_ORDINAL;
        cudaGetDevice(&device);
        return device;
    }

    Size size_of(std::size_t bytes) const {
        unsigned int bin = min_bin_;
        std::size_t bin_bytes = power(bin_growth_, min_bin_);
        // Up to the largest bin, and no further than size_t can count.
        while (bin_bytes < bytes && bin < max_bin_ && bin_bytes <= INVALID_SIZE / bin_growth_) {
            ++bin;
            bin_bytes *= bin_growth_;
        }
        if (bin_bytes < bytes) return {INVALID_BIN, bytes};
        return {bin, bin_bytes};
    }

    Cache::iterator find_cached(int device, std::size_t bytes, cudaStream_t stream) {
        const auto [first, last] = cached_.equal_range({device, bytes});
        for (auto it = first; it != last; ++it) {
            if (it->second.stream == stream) return it;
        }
        return cached_.end();
    }

    void log(const char* what, int device, void* ptr, std::size_t bytes) const {
        if (debug_)
            std::printf("CachingDeviceAllocator: device %d %s block %p (%zu bytes)\n", device, what, ptr,
                        bytes);
    }

    const unsigned int bin_growth_;
    const unsigned int min_bin_;
    const unsigned int max_bin_;
    std::size_t max_cached_bytes_;
    const bool skip_cleanup_;
    const bool debug_;

    std::mutex mutex_;
    Cache cached_;
    std::map<int, std::size_t> cached_bytes_;  // per device
    std::map<void*, Block> live_;              // the blocks in use
};

}  // namespace cub
