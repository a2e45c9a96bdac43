// malloc() and free() in a kernel: each GPU's heap, whose size
// cudaDeviceSetLimit(cudaLimitMallocHeapSize) sets until a kernel first
// allocates from it (device_settings.cpp). Each piece is a buffer of device
// memory of its own, so the access checks name it and its end; the runtime's
// copies and cudaFree refuse it, as an H200 did
// (results/host-runtime-probe-h200.txt); compute-sanitizer's memcheck and
// initcheck look at it as at cudaMalloc's buffers, and so do the backend's
// checks (results/device-heap-probe-h200.txt). A GPU's allocator keeps some
// of the heap for itself; here the heap holds its size's bytes, in 16-byte
// pieces.
#include <array>
#include <cstdlib>
#include <mutex>
#include <optional>

#include "device.h"
#include "device_memory.h"
#include "device_settings.h"
#include "launch_faults.h"
#include "scheduler.h"

namespace warpdrill::cpu::detail {
namespace {

constexpr std::size_t kPiece = 16;  // malloc()'s alignment in a kernel

std::mutex heap_mutex;
std::array<std::size_t, kMaxDevices> heap_bytes_used{};

std::size_t pieces_of(std::size_t bytes) { return (bytes + kPiece - 1) / kPiece * kPiece; }

// Takes or gives back `bytes` of GPU `device`'s heap; false when it has no room.
bool take_from_heap(int device, std::size_t bytes) {
    std::lock_guard lock(heap_mutex);
    if (heap_bytes_used[device] + pieces_of(bytes) > malloc_heap_bytes(device)) return false;
    heap_bytes_used[device] += pieces_of(bytes);
    return true;
}
void give_back_to_heap(int device, std::size_t bytes) {
    std::lock_guard lock(heap_mutex);
    heap_bytes_used[device] -= pieces_of(bytes);
}

// nullptr when the heap of the kernel's GPU has no room left, as on a GPU.
void* heap_allocate(std::size_t bytes, int device) {
    if (bytes == 0 || !take_from_heap(device, bytes)) return nullptr;
    void* memory = allocate_device(bytes, device);
    if (!memory) {
        give_back_to_heap(device, bytes);
        return nullptr;
    }
    device_allocation_at(reinterpret_cast<std::uintptr_t>(memory))->device_heap = true;
    return memory;
}

// A pointer that malloc() in a kernel did not give, or gave and free() took
// back, ends the kernel, as on a GPU (results/device-heap-probe-h200.txt).
void heap_free(const BlockRunner& block, void* ptr) {
    if (!ptr) return;
    const auto address = reinterpret_cast<std::uintptr_t>(ptr);
    const DeviceAllocation* piece = device_allocation_at(address);
    if (!piece || !piece->device_heap || piece->start != address) {
        const std::optional<FreedBuffer> freed = freed_buffer_at(address);
        block.fault_here(freed && freed->start == address ? device_double_free()
                                                          : device_free_of_other_memory());
    }
    const int device = piece->device;
    const std::size_t bytes = piece->bytes;
    if (free_device(ptr)) give_back_to_heap(device, bytes);
}

}  // namespace

void* program_malloc(std::size_t bytes) {
    const BlockRunner* block = running_block();
    return block ? heap_allocate(bytes, block->shape().device) : std::malloc(bytes);
}

void program_free(void* ptr) {
    if (const BlockRunner* block = running_block()) return heap_free(*block, ptr);
    std::free(ptr);
}

}  // namespace warpdrill::cpu::detail
