// Which bytes of a device buffer hold a value: compute-sanitizer's initcheck
// view. A cudaMalloc'd buffer starts with none; cudaMemset, cudaMemcpy into
// it and a kernel's stores write them; a read of a byte nothing wrote is a
// read of garbage (on a GPU, whatever the memory last held; on the CPU
// backend, zeros, which would hide a missing cudaMemset).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>

namespace warpdrill::cpu::detail {

// A GPU loads and stores a struct member by member and leaves its padding
// alone, where a C++ copy of the whole object (a wide access, or a copy to
// the host) reads the padding too. A member is at most 8 bytes, and a struct
// aligned to 8 or less has no 8-byte word of padding alone: so a word with no
// byte written is a member that nothing wrote, while a partly written word
// may be a member and its padding.
constexpr std::size_t kMemberWordBytes = 8;

class WrittenBytes {
  public:
    explicit WrittenBytes(std::size_t bytes) : bytes_(bytes) {}

    // Safe from any thread: blocks of a launch run on several.
    void mark(std::size_t offset, std::size_t count);
    void mark_all() { complete_.store(true, std::memory_order_release); }
    // Whether every byte of [offset, offset + count) has been written.
    bool all(std::size_t offset, std::size_t count) const;
    // The first byte of [offset, offset + count) that nothing has written (count if none).
    std::size_t first_unwritten(std::size_t offset, std::size_t count) const;
    // Whether any byte of [offset, offset + count) has been written.
    bool any(std::size_t offset, std::size_t count) const;
    // Every byte written: reads need no look at the bits.
    bool complete() const { return complete_.load(std::memory_order_acquire); }

  private:
    template <class Visit>
    void for_each_word(std::size_t offset, std::size_t count, Visit visit) const;
    std::uint64_t* bits() const;  // made on the first partial write

    std::size_t bytes_;
    std::atomic<bool> complete_{false};
    std::atomic<std::size_t> written_{0};  // bits set
    struct FreeBits {
        void operator()(std::uint64_t* bits) const;
    };
    mutable std::unique_ptr<std::uint64_t[], FreeBits> bits_;
    mutable std::once_flag bits_made_;
};

}  // namespace warpdrill::cpu::detail
