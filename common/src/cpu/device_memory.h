// Device memory on the CPU backend: every cudaMalloc'd buffer lives in one
// reserved range of address space, at the start of its own 64 KiB granule,
// with unmapped pages after it. So "is this a device address, and of which
// buffer?" is one subtraction and one table lookup, an access past a buffer
// can be named exactly, and a freed buffer's pages fault if touched again.
// Each buffer remembers the GPU that was current when it was allocated: on
// the imitated machine of several GPUs, that GPU's memory.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace warpdrill::cpu::detail {

struct ShadowCell;

struct DeviceAllocation {
    std::uintptr_t start = 0;
    std::size_t bytes = 0;
    std::uint64_t serial = 0;  // the n-th cudaMalloc of the process, from 1
    int device = 0;            // the GPU whose memory it is
    // One cell per 4-byte word, made on the first tracked access (access.cpp).
    std::unique_ptr<ShadowCell[]> shadow;
};

// nullptr on failure (out of reserved space); bytes > 0.
void* allocate_device(std::size_t bytes, int device);
// false when `ptr` is not the start of a live allocation.
bool free_device(void* ptr);

// The live allocation whose granules hold `address`, or nullptr when the
// address is not device memory. The access may still lie past its end
// (in the same granules): compare with start and bytes.
DeviceAllocation* device_allocation_at(std::uintptr_t address);
// Whether `address` lies in the device range at all (a freed buffer's too).
bool is_device_address(std::uintptr_t address);
// Set once buffers have been allocated on more than one GPU: only then can a
// kernel touch another GPU's memory, and every access is checked for it.
extern std::atomic<bool> memory_on_several_devices;

}  // namespace warpdrill::cpu::detail
