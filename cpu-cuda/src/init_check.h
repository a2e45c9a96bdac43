// The initialisation check, as compute-sanitizer's initcheck and beyond it:
//   - global memory: every byte of a cudaMalloc'd buffer is written or not
//     (written_bytes.h); a kernel's read of a byte nothing wrote is a fault,
//     held until the launch ends (GridAccesses::hold_fault) so that a race,
//     a better name for a block reading what another has not yet written,
//     comes first;
//   - shared memory, which initcheck does not look at: a read of a byte no
//     thread of the block has written is a warning (the value is garbage, but
//     a kernel may read it and never use it: a tree's unused half).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "observer.h"
#include "zeroed_array.h"

namespace warpdrill::cpu::detail {

class BlockWatch;

class InitCheck : public BlockObserver {
  public:
    InitCheck(const BlockWatch& watch, std::size_t dynamic_smem_bytes);

    void start_block(std::uint32_t linear_block) override;
    void access(const ObservedAccess& access) override;

  private:
    // The bytes of one word of shared memory written in the block's run `generation`.
    struct WrittenWord {
        std::uint32_t generation;
        std::uint8_t bytes;  // bit i: byte i
    };
    // The first store to a shared array in the block's run `generation`.
    struct FirstStore {
        std::uint32_t generation = 0;
        std::uint32_t code = 0;
    };
    void check_global(const ObservedAccess& access);
    void check_shared(const ObservedAccess& access);
    void unwritten_shared_read(const ObservedAccess& access) const;

    const BlockWatch& watch_;
    std::uint32_t generation_ = 0;
    std::vector<ZeroedArray<WrittenWord>> arrays_;  // by static __shared__ variable (tls_variables())
    ZeroedArray<WrittenWord> dynamic_;
    std::vector<FirstStore> first_stores_;  // by static __shared__ variable, then the dynamic shared memory
};

}  // namespace warpdrill::cpu::detail
