// Where each block's dynamic shared memory lives. A window is as large as a
// block's dynamic shared memory may ever be (kMaxDynamicSharedBytes), so that
// an index past the launch's bytes lands in it and is named as such. Every
// window is cut from one range of reserved address space, a slot each, and
// the slots are taken in turn: a slot comes round again only after thousands
// of others. So a pointer kept from an earlier launch's shared memory (in a
// __device__ variable, or a buffer) lands in a slot that is not the running
// block's, and the address check names it: on a GPU such a load stops the
// kernel with cudaErrorInvalidAddressSpace.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "device.h"

namespace warpdrill::cpu::detail {

// The most dynamic shared memory a block of an H100 may have (227 KB, with
// cudaFuncAttributeMaxDynamicSharedMemorySize set): every address up to this
// far past the start of a block's dynamic shared memory is in it.
constexpr std::size_t kMaxDynamicSharedBytes = kSharedMemoryPerBlockOptin;

// One block runner's dynamic shared memory during one launch.
class DynamicSharedWindow {
  public:
    explicit DynamicSharedWindow(std::uint64_t launch);
    ~DynamicSharedWindow();
    DynamicSharedWindow(const DynamicSharedWindow&) = delete;
    DynamicSharedWindow& operator=(const DynamicSharedWindow&) = delete;
    std::byte* data() const { return data_; }  // page-aligned

  private:
    std::size_t slot_;
    std::byte* data_;
};

// An address inside some block's window: the launch whose block had it last,
// and the byte it is.
struct SharedWindowPlace {
    std::uint64_t launch;
    std::size_t byte;
};
std::optional<SharedWindowPlace> shared_window_at(std::uintptr_t address);

}  // namespace warpdrill::cpu::detail
