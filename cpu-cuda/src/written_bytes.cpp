#include "written_bytes.h"

#include <atomic>
#include <bit>
#include <cstdlib>
#include <new>

namespace warpdrill::cpu::detail {
namespace {
constexpr std::size_t kBitsPerWord = 64;
}

void WrittenBytes::FreeBits::operator()(std::uint64_t* bits) const { std::free(bits); }

// One bit a byte, from calloc: the pages of a large buffer's bits cost
// something only once a write reaches them.
std::uint64_t* WrittenBytes::bits() const {
    std::call_once(bits_made_, [this] {
        void* bits = std::calloc((bytes_ + kBitsPerWord - 1) / kBitsPerWord, sizeof(std::uint64_t));
        if (!bits) throw std::bad_alloc();
        bits_.reset(static_cast<std::uint64_t*>(bits));
    });
    return bits_.get();
}

void WrittenBytes::mark(std::size_t offset, std::size_t count) {
    if (complete() || count == 0) return;
    if (offset == 0 && count >= bytes_) return mark_all();
    std::uint64_t* words = bits();
    std::size_t newly_set = 0;
    for (std::size_t byte = offset; byte < offset + count;) {
        const std::size_t word = byte / kBitsPerWord, first = byte % kBitsPerWord;
        const std::size_t span = std::min(kBitsPerWord - first, offset + count - byte);
        const std::uint64_t mask = (span == kBitsPerWord ? ~std::uint64_t{0} : ((std::uint64_t{1} << span) - 1)) << first;
        const std::uint64_t before = std::atomic_ref(words[word]).fetch_or(mask, std::memory_order_relaxed);
        newly_set += static_cast<std::size_t>(std::popcount(mask & ~before));
        byte += span;
    }
    if (newly_set && written_.fetch_add(newly_set, std::memory_order_relaxed) + newly_set == bytes_) mark_all();
}

bool WrittenBytes::bit(std::size_t byte) const {
    return (std::atomic_ref(bits()[byte / kBitsPerWord]).load(std::memory_order_relaxed) >> (byte % kBitsPerWord)) & 1;
}

std::size_t WrittenBytes::first_unwritten(std::size_t offset, std::size_t count) const {
    if (complete()) return count;
    for (std::size_t i = 0; i < count; ++i) {
        if (!bit(offset + i)) return i;
    }
    return count;
}

bool WrittenBytes::all(std::size_t offset, std::size_t count) const { return first_unwritten(offset, count) == count; }

}  // namespace warpdrill::cpu::detail
