// Device memory on the CPU backend: every cudaMalloc'd buffer lives in one
// reserved range of address space, at the start of its own 64 KiB granule,
// with unmapped pages after it. So "is this a device address, and of which
// buffer?" is one subtraction and one table lookup, an access past a buffer
// can be named exactly, and a freed buffer's pages fault if touched again.
// Each buffer remembers the GPU that was current when it was allocated: on
// the imitated machine of several GPUs, that GPU's memory.
#pragma once

#include <atomic>
#include <optional>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "program.h"
#include "written_bytes.h"
#include "zeroed_array.h"

namespace warpdrill::cpu::detail {

struct ShadowCell;  // race_check.h
using ShadowCells = ZeroedArray<ShadowCell>;

// A runtime call of the host's: its name and where it was called (the code
// offset of its return address, program.h).
struct HostCall {
    const char* name = nullptr;
    std::uint32_t code = 0;
};
// The program's call of `name`: the return address of the API function that
// uses it (program.h's code_offset).
#define WARPDRILL_HOST_CALL(name)                                                \
    ::warpdrill::cpu::detail::HostCall {                                         \
        name, ::warpdrill::cpu::detail::code_offset(__builtin_return_address(0)) \
    }
// Bytes a cudaMemcpy or cudaMemset wrote into a buffer.
struct HostWrite {
    HostCall call;
    std::size_t offset = 0;
    std::size_t bytes = 0;
};

struct DeviceAllocation {
    std::uintptr_t start = 0;
    std::size_t bytes = 0;
    std::uint64_t serial = 0;  // the n-th cudaMalloc of the process, from 1
    int device = 0;            // the GPU whose memory it is
    bool managed = false;      // cudaMallocManaged: every GPU may touch it
    bool device_heap = false;  // malloc() in a kernel: not for the runtime's copies, nor cudaFree

    // Whether `count` bytes from `address`, an address in the buffer, end in it.
    bool fits(std::uintptr_t address, std::size_t count) const { return address + count <= start + bytes; }
    // One cell per 4-byte word, made on the first tracked access (race_check.cpp),
    // once: blocks on other OS threads may touch the buffer at the same time.
    ShadowCells shadow;
    std::once_flag shadow_made;
    // A __device__ or __constant__ variable's memory: its name ("tickets"),
    // its memory space ("__device__") and the bytes of one of its elements;
    // a cudaMalloc'd buffer has no name.
    const char* variable = nullptr;
    const char* space = nullptr;
    std::size_t element_bytes = 0;
    WrittenBytes written{bytes};
    // Where it was written, for a message about bytes nothing wrote: the last
    // cudaMemcpy or cudaMemset into it, the first kernel store to it.
    std::optional<HostWrite> last_host_write{};
    std::atomic<std::uint32_t> first_store{0};
    // The host's stack at cudaMalloc (program.h: call_stack), kept under a leak check.
    std::vector<std::uint32_t> allocated_at{};
};

// "a buffer of 64 bytes (cudaMalloc'd)", "the __device__ variable table of 64 bytes".
std::string buffer_description(const DeviceAllocation& allocation);

// nullptr on failure (out of reserved space); bytes > 0.
void* allocate_device(std::size_t bytes, int device);
// Under WARPDRILL_LEAK_CHECK=1 (`warpdrill run` sets it), the cudaMalloc'd
// buffers never freed are listed when the program ends, as compute-sanitizer's
// --leak-check full lists them: where each was allocated.
bool leak_check();
// false when `ptr` is not the start of a live allocation.
bool free_device(void* ptr);
// The bytes of GPU `device`'s memory that live buffers and variables hold.
std::size_t device_bytes_in_use(int device);
// The freed buffer whose memory holds `address`, while no new buffer has
// taken it: what a stale pointer points into.
struct FreedBuffer {
    std::uintptr_t start;
    std::size_t bytes;
};
std::optional<FreedBuffer> freed_buffer_at(std::uintptr_t address);

// Whether a kernel may read any byte of `allocation` without initcheck's
// complaint: every byte has been written, or a launch too large to be checked
// (access.h: tracks_launch) ran since it was allocated, and may have written it.
bool fully_written(const DeviceAllocation& allocation);
// A launch that is not checked has begun: what it writes is not seen.
void unchecked_launch_began();
// A copy of `bytes` into `dst` (cudaMemcpy's kinds, cudaMemset when `src` is
// null): the bytes of device memory it writes now hold what the source held.
void note_copy(const void* dst, const void* src, std::size_t bytes, HostCall call);
// A copy from device memory to the host, as it runs: warns once per call
// site where the bytes it reads hold nothing any cudaMemset, cudaMemcpy or
// kernel wrote (initcheck's uninitialized access by a cudaMemcpy source).
void check_copy_source(const void* dst, const void* src, std::size_t bytes, const HostCall& call);

// Where the reserved range lies, and the owner of each of its granules: set
// once, when the first buffer is allocated. Until then the range is empty.
struct DeviceRange {
    static constexpr unsigned kGranuleBits = 16;  // 64 KiB
    std::uintptr_t base = 0;
    std::size_t bytes = 0;
    std::atomic<DeviceAllocation*>* owners = nullptr;  // one a granule
};
extern DeviceRange device_range;

// Whether `address` lies in the device range at all (a freed buffer's too).
// Inline: tracked kernels ask this on every memory access.
inline bool is_device_address(std::uintptr_t address) { return address - device_range.base < device_range.bytes; }

// The live allocation whose granules hold `address`, or nullptr when the
// address is not device memory. The access may still lie past its end
// (in the same granules): compare with start and bytes.
inline DeviceAllocation* device_allocation_at(std::uintptr_t address) {
    if (!is_device_address(address)) return nullptr;
    return device_range.owners[(address - device_range.base) >> DeviceRange::kGranuleBits].load(std::memory_order_acquire);
}
// Set once buffers have been allocated on more than one GPU: only then can a
// kernel touch another GPU's memory, and every access is checked for it.
extern std::atomic<bool> memory_on_several_devices;

}  // namespace warpdrill::cpu::detail
