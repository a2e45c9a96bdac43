#include "init_check.h"

#include <algorithm>

#include "access.h"
#include "device_memory.h"
#include "faults.h"
#include "program.h"
#include "warnings.h"
#include "warpdrill/messages.h"

namespace warpdrill::cpu::detail {

namespace {

constexpr std::size_t kWord = 4;

// A read wider than a member word is a C++ copy of a whole object (GCC
// copies a cub::KeyValuePair<long, int> with one 16-byte access): the first
// byte of a member word of the read that nothing wrote, or `bytes` if there
// is none; `written(i)` says whether byte i of the read holds a value.
template <class Written>
std::size_t first_unwritten_member(std::size_t bytes, Written written) {
    for (std::size_t first = 0; first < bytes; first += kMemberWordBytes) {
        bool any = false;
        for (std::size_t i = first; i < std::min(first + kMemberWordBytes, bytes) && !any; ++i)
            any = written(i);
        if (!any) return first;
    }
    return bytes;
}

}  // namespace

InitCheck::InitCheck(const BlockWatch& watch, std::size_t dynamic_smem_bytes)
    : watch_(watch), dynamic_(make_zeroed<WrittenWord>((dynamic_smem_bytes + kWord - 1) / kWord)) {
    for (const TlsVariable& variable : tls_variables()) {
        // One word more: an array need not start at a word boundary.
        arrays_.push_back(make_zeroed<WrittenWord>(variable.shared ? (variable.bytes + kWord - 1) / kWord + 1 : 0));
    }
    first_stores_.resize(arrays_.size() + 1);
}

// Generations count from 1: a zeroed word is unwritten in every run.
void InitCheck::start_block(std::uint32_t /*linear_block*/) { ++generation_; }

void InitCheck::access(const ObservedAccess& access) {
    if (access.space == MemorySpace::global) {
        check_global(access);
    } else {
        check_shared(access);
    }
}

void InitCheck::check_global(const ObservedAccess& access) {
    DeviceAllocation& allocation = *access.allocation;
    const std::size_t offset = access.address - allocation.start;
    GridAccesses& grid = watch_.grid();
    if (reads_value(access.kind) && !fully_written(allocation) && !grid.holds_fault()) {
        const std::size_t unwritten =
            access.bytes > kMemberWordBytes
                ? first_unwritten_member(access.bytes,
                                         [&](std::size_t i) { return allocation.written.all(offset + i, 1); })
                : allocation.written.first_unwritten(offset, access.bytes);
        if (unwritten < access.bytes) {
            const std::uintptr_t address = access.address + unwritten;
            const std::string what = in_buffer(grid.element_name(address, allocation),
                                               address - allocation.start, buffer_description(allocation));
            grid.hold_fault(uninitialized_global_read(watch_.bad_access(access), what, watch_.block_index(),
                                                      written_elsewhere_of(allocation)));
        }
    }
    if (!is_write(access.kind)) return;
    allocation.written.mark(offset, access.bytes);
    std::uint32_t none = 0;
    allocation.first_store.compare_exchange_strong(none, access.code, std::memory_order_relaxed);
}

void InitCheck::check_shared(const ObservedAccess& access) {
    WrittenWord* words = access.array >= 0 ? arrays_[access.array].get() : dynamic_.get();
    if (!words) return;
    const std::uintptr_t first_word = access.address / kWord;
    const std::uintptr_t last_word = (access.address + access.bytes - 1) / kWord;
    const std::uintptr_t start_word = access.start / kWord;
    bool unwritten = false;
    for (std::uintptr_t word = first_word; word <= last_word; ++word) {
        WrittenWord& written = words[word - start_word];
        if (written.generation != generation_) written = {generation_, 0};
        const std::uintptr_t from = std::max(access.address, word * kWord);
        const std::uintptr_t to = std::min(access.address + access.bytes, (word + 1) * kWord);
        const auto touched = static_cast<std::uint8_t>(((1u << (to - from)) - 1) << (from % kWord));
        if (is_write(access.kind)) written.bytes |= touched;
        unwritten |= (touched & ~written.bytes) != 0;
    }
    if (unwritten && access.bytes > kMemberWordBytes) {
        const auto written = [&](std::size_t i) {
            const std::uintptr_t byte = access.address + i;
            return ((words[byte / kWord - start_word].bytes >> (byte % kWord)) & 1) != 0;
        };
        unwritten = first_unwritten_member(access.bytes, written) < access.bytes;
    }
    FirstStore& first = first_stores_[access.array >= 0 ? access.array : arrays_.size()];
    if (first.generation != generation_) first = {generation_, 0};
    if (is_write(access.kind) && first.code == 0) first.code = access.code;
    if (unwritten) unwritten_shared_read(access);
}

void InitCheck::unwritten_shared_read(const ObservedAccess& access) const {
    warn("uninitialized " + std::to_string(access.code), [&] {
        const FirstStore& first = first_stores_[access.array >= 0 ? access.array : arrays_.size()];
        const std::string array = access.array >= 0 ? short_name(tls_variables()[access.array].name)
                                                    : messages::text("backend.region.dynamic_shared_memory");
        std::optional<SourcePlace> store;
        if (first.generation == generation_ && first.code != 0) store = source_places({first.code})[0];
        return uninitialized_shared_read(watch_.accessor(access), watch_.element_name(access), watch_.block_index(),
                                         array, store);
    });
}

}  // namespace warpdrill::cpu::detail
