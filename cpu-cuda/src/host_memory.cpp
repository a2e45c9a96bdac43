#include "host_memory.h"

#include <cstdint>
#include <cstdlib>
#include <deque>
#include <iterator>
#include <map>
#include <mutex>

namespace warpdrill::cpu::detail {
namespace {

constexpr std::size_t kPage = 4096;  // pinned memory starts on a page, as CUDA's does

struct PinnedRange {
    std::size_t bytes;
    bool registered;  // cudaHostRegister's, not the runtime's allocation
};
std::mutex pinned_mutex;
std::map<std::uintptr_t, PinnedRange> pinned_ranges;  // each live range by its start

// The live range that holds `address`, or end(); with pinned_mutex held.
std::map<std::uintptr_t, PinnedRange>::const_iterator range_holding(std::uintptr_t address) {
    const auto after = pinned_ranges.upper_bound(address);
    if (after == pinned_ranges.begin()) return pinned_ranges.end();
    const auto range = std::prev(after);
    return address - range->first < range->second.bytes ? range : pinned_ranges.end();
}

constexpr std::size_t kNotedRanges = 64;
struct HostRange {
    std::uintptr_t start;
    std::size_t bytes;
};
std::mutex ranges_mutex;
std::deque<HostRange> noted_ranges;  // the latest last

}  // namespace

void* allocate_pinned(std::size_t bytes) {
    void* memory = std::aligned_alloc(kPage, (bytes + kPage - 1) / kPage * kPage);
    if (!memory) return nullptr;
    std::lock_guard lock(pinned_mutex);
    pinned_ranges[reinterpret_cast<std::uintptr_t>(memory)] = {bytes, false};
    return memory;
}

bool free_pinned(void* ptr) {
    {
        std::lock_guard lock(pinned_mutex);
        const auto range = pinned_ranges.find(reinterpret_cast<std::uintptr_t>(ptr));
        if (range == pinned_ranges.end() || range->second.registered) return false;
        pinned_ranges.erase(range);
    }
    std::free(ptr);
    return true;
}

bool is_pinned(const void* ptr) {
    std::lock_guard lock(pinned_mutex);
    return range_holding(reinterpret_cast<std::uintptr_t>(ptr)) != pinned_ranges.end();
}

bool is_pinned_allocation(const void* ptr) {
    std::lock_guard lock(pinned_mutex);
    const auto range = range_holding(reinterpret_cast<std::uintptr_t>(ptr));
    return range != pinned_ranges.end() && !range->second.registered;
}

bool register_range(const void* ptr, std::size_t bytes) {
    const auto start = reinterpret_cast<std::uintptr_t>(ptr);
    std::lock_guard lock(pinned_mutex);
    const auto after = pinned_ranges.lower_bound(start);
    if (after != pinned_ranges.end() && after->first < start + bytes) return false;
    if (range_holding(start) != pinned_ranges.end()) return false;
    pinned_ranges[start] = {bytes, true};
    return true;
}

Unregistered unregister_range(const void* ptr) {
    const auto address = reinterpret_cast<std::uintptr_t>(ptr);
    std::lock_guard lock(pinned_mutex);
    const auto range = range_holding(address);
    if (range == pinned_ranges.end() || !range->second.registered) return Unregistered::not_registered;
    if (range->first != address) return Unregistered::inside_a_range;
    pinned_ranges.erase(range);
    return Unregistered::done;
}

void note_host_range(const void* ptr, std::size_t bytes) {
    std::lock_guard lock(ranges_mutex);
    if (noted_ranges.size() == kNotedRanges) noted_ranges.pop_front();
    noted_ranges.push_back({reinterpret_cast<std::uintptr_t>(ptr), bytes});
}

std::size_t host_bytes_from(const void* ptr) {
    const auto address = reinterpret_cast<std::uintptr_t>(ptr);
    std::lock_guard lock(ranges_mutex);
    for (auto range = noted_ranges.rbegin(); range != noted_ranges.rend(); ++range) {
        if (address - range->start < range->bytes) return range->start + range->bytes - address;
    }
    return 0;
}

}  // namespace warpdrill::cpu::detail
