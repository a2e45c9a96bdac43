// The CPU backend's profiler (backend.h says what it counts): one
// BlockProfile per worker thread gathers the loads and stores of the block it
// runs, lane by lane, into warp instructions, and prices each warp
// instruction by the GPU's rules when the warp is known to be converged.
// Internal to the backend.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <shared_mutex>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "observer.h"
#include "warpdrill/cpu/backend.h"

namespace warpdrill::cpu::detail {

// One warp-level memory instruction: what each of its active lanes touched.
struct WarpAccess {
    std::array<std::uintptr_t, 32> address{};
    unsigned mask = 0;  // the active lanes
    std::uint32_t bytes = 0;
    MemorySpace space = MemorySpace::global;
    bool write = false;
};

// The GPU's rules for one warp instruction (backend.h): the distinct sectors
// it touches (valid until the thread's next call).
const std::vector<std::uintptr_t>& sectors_of(const WarpAccess& access);
struct SharedCost {
    std::uint64_t wavefronts = 0;
    std::uint64_t bank_conflicts = 0;
};
SharedCost shared_cost_of(const WarpAccess& access);

// Global-memory sectors, up to more than any GPU's L2 holds (128 MiB of
// them at least): beyond that a later launch finds none of them there
// anyway. Added in any order, 8 bytes each; sorted before they are looked up.
class SectorList {
  public:
    void add(std::uintptr_t sector);
    void add(const SectorList& other);           // and sorts
    bool contains(std::uintptr_t sector) const;  // once sorted
    void clear() {
        sectors_.clear();
        full_ = false;
    }

  private:
    void sort();

    std::vector<std::uintptr_t> sectors_;
    bool full_ = false;
};

// The global-memory sectors that the launches profiled since the outermost
// ProfileScope opened have stored, which a later launch may find in L2. A
// profiled launch holds this view while its blocks run; record_profile adds
// the launch's own stores once the view is let go.
class EarlierStores {
  public:
    EarlierStores();
    const SectorList& sectors() const;
    void release() { lock_.unlock(); }

  private:
    std::shared_lock<std::shared_mutex> lock_;
};

class BlockProfile : public BlockObserver {
  public:
    BlockProfile(int threads, const SectorList& earlier_stores);

    // Atomics are counted apart (LaunchStats).
    void access(const ObservedAccess& access) override;
    void warp_sync(SyncKind kind, int base, unsigned mask, unsigned live) override;
    void block_barrier(const std::vector<unsigned>& live) override;
    void branch(int thread, const char* statement, const Where& where, bool taken) override;
    void end_block() override;

    // The counts of every block run so far (the shape fields are left empty),
    // and the memory counts by instruction (code offset).
    const LaunchProfile& counts() const { return counts_; }
    const std::unordered_map<std::uint32_t, MemoryCounts>& by_code() const { return by_code_; }
    const std::vector<std::size_t>& shared_arrays() const { return shared_arrays_; }
    // The global sectors this worker's blocks stored.
    const SectorList& stored_sectors() const { return stored_sectors_; }

  private:
    // The executions of one instruction by one warp since the warp last converged.
    struct Site {
        std::array<std::uint32_t, 32> executions{};  // per lane
        std::vector<WarpAccess> instructions;        // the k-th is the lanes' k-th execution
        std::size_t used = 0;                        // instructions[0, used) hold this round's
    };
    // One condition's evaluations by one warp: those since the warp last
    // converged, lane by lane, and the tally of those before.
    struct WarpBranch {
        const char* file = nullptr;
        unsigned line = 0, column = 0;
        const char* statement = nullptr;
        std::array<std::uint32_t, 32> evaluations{};  // per lane
        // The k-th: the lanes whose k-th evaluation held, and those whose did not.
        std::vector<std::pair<unsigned, unsigned>> outcomes;
        BranchTally settled;
    };
    struct Warp {
        std::unordered_map<std::uint32_t, Site> sites;
        bool pending = false;
        std::vector<WarpBranch> branches;  // a kernel has few
    };
    // At a point where the warp is converged: its pending accesses priced,
    // its branches' evaluations tallied, each lane's counts restarted.
    void flush(Warp& warp);
    void settle_branches(Warp& warp);
    void price(std::uint32_t code, const WarpAccess& access);

    std::vector<Warp> warps_;
    LaunchProfile counts_;
    std::unordered_map<std::uint32_t, MemoryCounts> by_code_;
    std::vector<std::size_t> shared_arrays_;  // bytes of each touched static __shared__ array, by variable
    std::unordered_set<std::uintptr_t> loaded_sectors_;  // by the block this worker runs
    const SectorList& earlier_stores_;
    SectorList stored_sectors_;
};

// Adds a branch's counts to those of the same branch in `branches` (sorted
// by file, line and column), or inserts them in order.
void add_branch(std::vector<BranchProfile>& branches, const BranchProfile& branch);

// The memory counts by instruction as counts by source line (LaunchProfile::lines).
std::vector<SourceLineProfile> by_source_line(const std::unordered_map<std::uint32_t, MemoryCounts>& by_code);

// Whether a ProfileScope is open, and so launches are profiled.
bool profiling();
// Hands a finished launch's profile to the innermost scope, and its stored
// sectors to the launches that follow (EarlierStores).
void record_profile(LaunchProfile profile, const SectorList& stored);

}  // namespace warpdrill::cpu::detail
