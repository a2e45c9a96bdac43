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

std::mutex pinned_mutex;
std::map<std::uintptr_t, std::size_t> pinned_bytes_at;  // each live allocation's start and size

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
    pinned_bytes_at[reinterpret_cast<std::uintptr_t>(memory)] = bytes;
    return memory;
}

bool free_pinned(void* ptr) {
    {
        std::lock_guard lock(pinned_mutex);
        if (pinned_bytes_at.erase(reinterpret_cast<std::uintptr_t>(ptr)) == 0) return false;
    }
    std::free(ptr);
    return true;
}

bool is_pinned(const void* ptr) {
    const auto address = reinterpret_cast<std::uintptr_t>(ptr);
    std::lock_guard lock(pinned_mutex);
    const auto after = pinned_bytes_at.upper_bound(address);
    if (after == pinned_bytes_at.begin()) return false;
    const auto& [start, bytes] = *std::prev(after);
    return address - start < bytes;
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
