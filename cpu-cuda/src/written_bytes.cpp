#include "written_bytes.h"

#include <atomic>
#include <bit>
#include <cstdlib>
#include <new>

namespace warpdrill::cpu::detail {
namespace {
constexpr std::size_t kBitsPerWord = 64;

// The bits first to first + span - 1 of a word.
std::uint64_t bit_range(std::size_t first, std::size_t span) {
    return (span == kBitsPerWord ? ~std::uint64_t{0} : ((std::uint64_t{1} << span) - 1)) << first;
}
}  // namespace

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
        const std::uint64_t mask = bit_range(first, span);
        const std::uint64_t before = std::atomic_ref(words[word]).fetch_or(mask, std::memory_order_relaxed);
        newly_set += static_cast<std::size_t>(std::popcount(mask & ~before));
        byte += span;
    }
    if (newly_set && written_.fetch_add(newly_set, std::memory_order_relaxed) + newly_set == bytes_)
        mark_all();
}

// The bits of [offset, offset + count) one 64-bit word of them at a time:
// `visit(bits, mask, byte)` for each, the mask selecting the range's bits of
// the word whose first bit is `byte`'s; a visit that returns true stops.
template <class Visit>
void WrittenBytes::for_each_word(std::size_t offset, std::size_t count, Visit visit) const {
    const std::uint64_t* words = bits();
    for (std::size_t byte = offset; byte < offset + count;) {
        const std::size_t first = byte % kBitsPerWord;
        const std::size_t span = std::min(kBitsPerWord - first, offset + count - byte);
        const std::uint64_t mask = bit_range(first, span);
        const std::uint64_t word =
            std::atomic_ref(words[byte / kBitsPerWord]).load(std::memory_order_relaxed);
        if (visit(word, mask, byte - first)) return;
        byte += span;
    }
}

std::size_t WrittenBytes::first_unwritten(std::size_t offset, std::size_t count) const {
    if (complete()) return count;
    std::size_t found = count;
    for_each_word(offset, count, [&](std::uint64_t word, std::uint64_t mask, std::size_t word_start) {
        if ((~word & mask) == 0) return false;
        found = word_start + static_cast<std::size_t>(std::countr_zero(~word & mask)) - offset;
        return true;
    });
    return found;
}

bool WrittenBytes::any(std::size_t offset, std::size_t count) const {
    if (complete()) return count > 0;
    bool found = false;
    for_each_word(offset, count, [&](std::uint64_t word, std::uint64_t mask, std::size_t) {
        return found = (word & mask) != 0;
    });
    return found;
}

bool WrittenBytes::all(std::size_t offset, std::size_t count) const {
    return first_unwritten(offset, count) == count;
}

}  // namespace warpdrill::cpu::detail
