// malloc() and free() in a kernel: each GPU's heap, whose size
// cudaDeviceSetLimit(cudaLimitMallocHeapSize) sets until a kernel first
// allocates from it (device_settings.cpp). Each allocation is a buffer of
// device memory of its own, so the access checks name it and its end; the
// runtime's copies and cudaFree refuse it, as an H200 did
// (results/host-runtime-probe-h200.txt). A GPU's allocator keeps some of the
// heap for itself; here the heap holds its size's bytes, in 16-byte pieces.
#include <array>
#include <cstdlib>
#include <mutex>

#include "device.h"
#include "device_memory.h"
#include "device_settings.h"
#include "scheduler.h"

namespace warpdrill::cpu::detail {
namespace {

constexpr std::size_t kPiece = 16;  // malloc()'s alignment in a kernel

std::mutex heap_mutex;
std::array<std::size_t, kMaxDevices> heap_bytes_used{};

std::size_t pieces_of(std::size_t bytes) { return (bytes + kPiece - 1) / kPiece * kPiece; }

// nullptr when the heap of the kernel's GPU has no room left, as on a GPU.
void* heap_allocate(std::size_t bytes, int device) {
    if (bytes == 0) return nullptr;
    {
        std::lock_guard lock(heap_mutex);
        if (heap_bytes_used[device] + pieces_of(bytes) > malloc_heap_bytes(device)) return nullptr;
        heap_bytes_used[device] += pieces_of(bytes);
    }
    void* memory = allocate_device(bytes, device);
    if (!memory) return nullptr;
    DeviceAllocation* allocation = device_allocation_at(reinterpret_cast<std::uintptr_t>(memory));
    allocation->device_heap = true;
    // Whether initcheck looks at the GPU's heap was not measured: no read of
    // it is called uninitialized, rather than a report a GPU may not give.
    allocation->written.mark_all();
    return memory;
}

void heap_free(void* ptr) {
    const DeviceAllocation* allocation = device_allocation_at(reinterpret_cast<std::uintptr_t>(ptr));
    if (!allocation || !allocation->device_heap ||
        allocation->start != reinterpret_cast<std::uintptr_t>(ptr)) {
        return;  // free(nullptr), or a pointer malloc() did not give: what a GPU does is not known here
    }
    const int device = allocation->device;
    const std::size_t bytes = allocation->bytes;
    if (!free_device(ptr)) return;
    std::lock_guard lock(heap_mutex);
    heap_bytes_used[device] -= pieces_of(bytes);
}

}  // namespace

void* program_malloc(std::size_t bytes) {
    BlockRunner* block = running_block();
    return block ? heap_allocate(bytes, block->shape().device) : std::malloc(bytes);
}

void program_free(void* ptr) {
    if (running_block()) return heap_free(ptr);
    std::free(ptr);
}

}  // namespace warpdrill::cpu::detail
