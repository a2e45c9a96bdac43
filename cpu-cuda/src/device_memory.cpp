#include "device_memory.h"

#include "race_check.h"  // ShadowCell, which an allocation owns
#include "faults.h"
#include "warnings.h"
#include "program.h"
#include "warpdrill/messages.h"

#include <sys/mman.h>

#include <algorithm>
#include <bit>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <mutex>
#include <string>
#include <vector>

namespace warpdrill::cpu::detail {
namespace {

constexpr std::size_t kGranuleBits = DeviceRange::kGranuleBits;
constexpr std::size_t kGranule = std::size_t{1} << kGranuleBits;
constexpr std::size_t kReservedBytes = std::size_t{1} << 38;  // 256 GiB of address space, no memory
constexpr std::size_t kGranules = kReservedBytes / kGranule;
constexpr std::size_t kPage = 4096;

std::size_t round_up(std::size_t bytes, std::size_t to) { return (bytes + to - 1) / to * to; }

class DeviceArena {
    using Owner = std::atomic<DeviceAllocation*>;

  public:
    DeviceArena() {
        void* range = mmap(nullptr, kReservedBytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (range != MAP_FAILED) base_ = reinterpret_cast<std::uintptr_t>(range);
        // The owner table is mapped too, so that its untouched pages cost nothing.
        void* table = mmap(nullptr, kGranules * sizeof(Owner), PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (table == MAP_FAILED) base_ = 0;
        owner_ = static_cast<Owner*>(table);
        if (base_ != 0) device_range = {base_, kReservedBytes, owner_};
    }

    void* allocate(std::size_t bytes, int device) {
        if (base_ == 0) return nullptr;
        const std::size_t granules = round_up(bytes, kGranule) / kGranule;
        std::lock_guard lock(mutex_);
        const std::size_t first = find_free_run(granules);
        if (first == kGranules) return nullptr;
        const std::uintptr_t start = base_ + first * kGranule;
        if (mprotect(reinterpret_cast<void*>(start), round_up(bytes, kPage), PROT_READ | PROT_WRITE) != 0) {
            return nullptr;
        }
        auto* allocation = new DeviceAllocation{.start = start, .bytes = bytes, .serial = ++serial_, .device = device,
                                                .shadow = nullptr, .shadow_made = {}};
        for (std::size_t g = first; g < first + granules; ++g) owner_[g] = allocation;
        live_.insert(allocation);
        forget_freed(start, granules * kGranule);
        next_ = first + granules;
        devices_used_ |= 1u << device;
        if (std::popcount(devices_used_) > 1) memory_on_several_devices = true;
        return reinterpret_cast<void*>(start);
    }

    bool free(void* ptr) {
        const auto address = reinterpret_cast<std::uintptr_t>(ptr);
        if (!contains(address)) return false;
        std::lock_guard lock(mutex_);
        const std::size_t first = (address - base_) >> kGranuleBits;
        DeviceAllocation* allocation = owner_[first];
        if (!allocation || allocation->start != address) return false;
        const std::size_t granules = round_up(allocation->bytes, kGranule) / kGranule;
        for (std::size_t g = first; g < first + granules; ++g) owner_[g] = nullptr;
        freed_[address] = allocation->bytes;
        live_.erase(allocation);
        // Give the memory back; the pages stay reserved and fault if touched.
        mmap(ptr, round_up(allocation->bytes, kPage), PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED,
             -1, 0);
        delete allocation;
        return true;
    }

    std::uint64_t serial() {
        std::lock_guard lock(mutex_);
        return serial_;
    }

    bool contains(std::uintptr_t address) const { return address - base_ < kReservedBytes; }

    std::optional<FreedBuffer> freed_at(std::uintptr_t address) {
        std::lock_guard lock(mutex_);
        auto after = freed_.upper_bound(address);
        if (after == freed_.begin()) return std::nullopt;
        const auto [start, bytes] = *std::prev(after);
        if (address >= start + round_up(bytes, kGranule)) return std::nullopt;
        return FreedBuffer{start, bytes};
    }

    std::size_t bytes_in_use(int device) {
        std::lock_guard lock(mutex_);
        std::size_t bytes = 0;
        for (const DeviceAllocation* allocation : live_) {
            if (allocation->device == device) bytes += allocation->bytes;
        }
        return bytes;
    }

    // The cudaMalloc'd buffers not yet freed (not the __device__ variables), oldest first.
    std::vector<const DeviceAllocation*> live_buffers() {
        std::lock_guard lock(mutex_);
        std::vector<const DeviceAllocation*> buffers;
        for (const DeviceAllocation* allocation : live_) {
            if (!allocation->variable) buffers.push_back(allocation);
        }
        std::ranges::sort(buffers, {}, &DeviceAllocation::serial);
        return buffers;
    }

  private:
    // A buffer allocated over granules that freed ones held: they are no
    // longer anyone's freed memory.
    void forget_freed(std::uintptr_t start, std::size_t bytes) {
        auto first = freed_.lower_bound(start);
        if (first != freed_.begin() && std::prev(first)->first + std::prev(first)->second > start) --first;
        freed_.erase(first, freed_.lower_bound(start + bytes));
    }

    // Next fit: freed granules are reused only after the rest of the range,
    // so a stale pointer keeps faulting for a long while.
    std::size_t find_free_run(std::size_t granules) {
        for (int pass = 0; pass < 2; ++pass) {
            std::size_t run = 0;
            for (std::size_t g = pass == 0 ? next_ : 0; g < kGranules; ++g) {
                run = owner_[g] ? 0 : run + 1;
                if (run == granules) return g + 1 - granules;
            }
        }
        return kGranules;
    }

    std::uintptr_t base_ = 0;
    Owner* owner_ = nullptr;  // one entry per granule; zero pages are null pointers
    std::mutex mutex_;
    std::size_t next_ = 0;
    std::uint64_t serial_ = 0;
    unsigned devices_used_ = 0;  // one bit per GPU that ever had a buffer
    std::map<std::uintptr_t, std::size_t> freed_;  // start -> bytes of each freed buffer not yet reused
    std::set<DeviceAllocation*> live_;
};

// Never destroyed: the leak check reads it after every static object's destructor has run.
DeviceArena& arena() {
    static DeviceArena& instance = *new DeviceArena;
    return instance;
}

// Runs after the program's static destructors (a CachingDeviceAllocator's
// among them), as the GPU's context is torn down after them.
[[gnu::destructor]] void report_leaks() {
    if (!leak_check()) return;
    std::fflush(stdout);  // the program's own output first
    // A GPU's heap goes with its context: what malloc() in a kernel kept is no leak of the program's.
    std::vector<const DeviceAllocation*> buffers = arena().live_buffers();
    std::erase_if(buffers, [](const DeviceAllocation* buffer) { return buffer->device_heap; });
    if (buffers.empty()) return;
    std::size_t bytes = 0;
    for (const DeviceAllocation* buffer : buffers) bytes += buffer->bytes;
    std::string note =
        messages::text(buffers.size() == 1 ? "backend.leak.one_buffer" : "backend.leak.buffers",
                       {{"buffers", buffers.size()}, {"bytes", bytes}});
    for (const DeviceAllocation* buffer : buffers) {
        note += "\n" + messages::text("backend.leak.line",
                                      {{"bytes", buffer->bytes},
                                       {"call", buffer->managed ? "cudaMallocManaged" : "cudaMalloc"},
                                       {"where", to_string(place_on_stack(buffer->allocated_at))}});
    }
    std::fprintf(stderr, "%s\n", note.c_str());
}

// Buffers allocated up to this serial may have been written by a launch that was not checked.
std::atomic<std::uint64_t> last_serial_before_unchecked_launch{0};

// The allocation holding [address, address + bytes), or nullptr.
DeviceAllocation* allocation_of(const void* ptr, std::size_t bytes) {
    const auto address = reinterpret_cast<std::uintptr_t>(ptr);
    DeviceAllocation* allocation = device_allocation_at(address);
    return allocation && allocation->fits(address, bytes) ? allocation : nullptr;
}

}  // namespace

DeviceRange device_range;
std::atomic<bool> memory_on_several_devices{false};

bool leak_check() {
    static const bool on = [] {
        const char* env = std::getenv("WARPDRILL_LEAK_CHECK");
        return env && std::string(env) == "1";
    }();
    return on;
}

void* allocate_device(std::size_t bytes, int device) { return arena().allocate(bytes, device); }
bool free_device(void* ptr) { return arena().free(ptr); }
std::size_t device_bytes_in_use(int device) { return arena().bytes_in_use(device); }
std::optional<FreedBuffer> freed_buffer_at(std::uintptr_t address) { return arena().freed_at(address); }

// "a buffer of 64 bytes (cudaMalloc'd)", "the __device__ variable table of 64 bytes".
std::string buffer_description(const DeviceAllocation& allocation) {
    if (allocation.variable) {
        return messages::text(
            "backend.buffer.variable",
            {{"space", allocation.space}, {"variable", allocation.variable}, {"bytes", allocation.bytes}});
    }
    return messages::text(allocation.device_heap ? "backend.buffer.device_heap" : "backend.buffer.allocated",
                          {{"bytes", allocation.bytes}});
}

bool fully_written(const DeviceAllocation& allocation) {
    return allocation.written.complete() ||
           allocation.serial <= last_serial_before_unchecked_launch.load(std::memory_order_relaxed);
}

void unchecked_launch_began() { last_serial_before_unchecked_launch = arena().serial(); }

void note_copy(const void* dst, const void* src, std::size_t bytes, HostCall call) {
    DeviceAllocation* target = allocation_of(dst, bytes);
    if (!target) return;
    const std::size_t offset = reinterpret_cast<std::uintptr_t>(dst) - target->start;
    target->last_host_write = HostWrite{call, offset, bytes};
    const DeviceAllocation* source = src ? allocation_of(src, bytes) : nullptr;
    if (!source || fully_written(*source)) return target->written.mark(offset, bytes);
    // Device to device from a buffer partly written: the unwritten bytes stay so.
    const std::size_t from = reinterpret_cast<std::uintptr_t>(src) - source->start;
    for (std::size_t done = 0; done < bytes;) {
        const std::size_t written = source->written.first_unwritten(from + done, bytes - done);
        target->written.mark(offset + done, written);
        done += written + 1;
        while (done < bytes && !source->written.all(from + done, 1)) ++done;
    }
}

namespace {

// The bytes of [from, from + bytes) of `written` that count as unwritten for
// a copy to the host, and the first of them (bytes if none): those of each
// member word of the buffer of which the copy reads no written byte. So a
// struct's padding is no warning (initcheck does report it), and a float
// left unwritten beside a written one goes unnamed.
struct UnwrittenWords {
    std::size_t first;
    std::size_t count;
};
UnwrittenWords unwritten_words(const WrittenBytes& written, std::size_t from, std::size_t bytes) {
    UnwrittenWords found{bytes, 0};
    const std::size_t end = from + bytes;
    const std::size_t start = from + written.first_unwritten(from, bytes);
    for (std::size_t word = start - start % kMemberWordBytes; word < end; word += kMemberWordBytes) {
        const std::size_t first = std::max(word, from), last = std::min(word + kMemberWordBytes, end);
        if (written.any(first, last - first)) continue;
        if (found.count == 0) found.first = first - from;
        found.count += last - first;
    }
    return found;
}

}  // namespace

void check_copy_source(const void* dst, const void* src, std::size_t bytes, const HostCall& call) {
    const DeviceAllocation* source = allocation_of(src, bytes);
    if (!source || fully_written(*source) || allocation_of(dst, bytes)) return;
    const std::size_t from = reinterpret_cast<std::uintptr_t>(src) - source->start;
    const UnwrittenWords unwritten = unwritten_words(source->written, from, bytes);
    if (unwritten.count == 0) return;
    warn("uninitialized copy " + std::to_string(call.code), [&] {
        return uninitialized_copy_source(call, bytes, unwritten.count,
                                         in_buffer("", from + unwritten.first, buffer_description(*source)),
                                         written_elsewhere_of(*source));
    });
}

}  // namespace warpdrill::cpu::detail
