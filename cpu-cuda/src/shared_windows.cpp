#include "shared_windows.h"

#include <sys/mman.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <new>
#include <stdexcept>

#include "warpdrill/messages.h"

namespace warpdrill::cpu::detail {
namespace {

constexpr std::size_t kPage = 4096;
// More than a launch can hold at once (132 SMs x 32 resident blocks, for a
// cooperative launch), and enough that a slot comes round again only after
// many launches.
constexpr std::size_t kSlots = 8192;
// A slot is a window and a gap of never-mapped pages after it, so that an
// access far past one window faults rather than landing in the next.
constexpr std::size_t kWindowBytes = (kMaxDynamicSharedBytes + kPage - 1) / kPage * kPage;
constexpr std::size_t kSlotBytes = kWindowBytes + 16 * kPage;

// The reserved range (address space only: no memory until a page is touched).
class WindowArena {
  public:
    WindowArena()
        : base_(static_cast<std::byte*>(
              mmap(nullptr, kSlots * kSlotBytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0))) {
        if (base_ == MAP_FAILED) throw std::bad_alloc();
    }

    std::size_t take(std::uint64_t launch) {
        std::lock_guard lock(mutex_);
        for (std::size_t tried = 0; tried < kSlots; ++tried) {
            const std::size_t slot = next_++ % kSlots;
            if (in_use_[slot]) continue;
            if (mprotect(window(slot), kWindowBytes, PROT_READ | PROT_WRITE) != 0) throw std::bad_alloc();
            in_use_[slot] = true;
            launch_[slot].store(launch, std::memory_order_relaxed);
            return slot;
        }
        throw std::runtime_error(
            messages::text("backend.launch.too_many_shared_windows", {{"blocks", kSlots}}));
    }

    // The slot's pages go back to the system; its launch stays, to name a stale pointer.
    void give_back(std::size_t slot) {
        madvise(window(slot), kWindowBytes, MADV_DONTNEED);
        mprotect(window(slot), kWindowBytes, PROT_NONE);
        std::lock_guard lock(mutex_);
        in_use_[slot] = false;
    }

    std::byte* window(std::size_t slot) const { return base_ + slot * kSlotBytes; }

    std::optional<SharedWindowPlace> place_of(std::uintptr_t address) const {
        const std::uintptr_t offset = address - reinterpret_cast<std::uintptr_t>(base_);
        if (offset >= kSlots * kSlotBytes || offset % kSlotBytes >= kWindowBytes) return std::nullopt;
        const std::uint64_t launch = launch_[offset / kSlotBytes].load(std::memory_order_relaxed);
        if (launch == 0) return std::nullopt;  // never used
        return SharedWindowPlace{launch, offset % kSlotBytes};
    }

  private:
    std::byte* base_;
    std::mutex mutex_;
    std::size_t next_ = 0;
    std::unique_ptr<bool[]> in_use_ = std::make_unique<bool[]>(kSlots);
    std::unique_ptr<std::atomic<std::uint64_t>[]> launch_ = std::make_unique<std::atomic<std::uint64_t>[]>(kSlots);
};

WindowArena& arena() {
    static WindowArena windows;
    return windows;
}

}  // namespace

DynamicSharedWindow::DynamicSharedWindow(std::uint64_t launch)
    : slot_(arena().take(launch)), data_(arena().window(slot_)) {}

DynamicSharedWindow::~DynamicSharedWindow() { arena().give_back(slot_); }

std::optional<SharedWindowPlace> shared_window_at(std::uintptr_t address) { return arena().place_of(address); }

}  // namespace warpdrill::cpu::detail
