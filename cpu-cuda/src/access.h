// The CPU backend's view of every load and store a kernel makes. Kernel
// sources are compiled with GCC's -fsanitize=thread instrumentation, which
// calls __tsan_read4(address) and its kin before each access, and with
// -fsanitize=bounds, which calls __ubsan_handle_out_of_bounds for an index past
// a fixed-size array; this backend supplies those functions itself (no
// sanitizer runtime is linked). While a tracked launch runs, each access is
// checked as compute-sanitizer's memcheck and racecheck would check it:
//   - bounds: cudaMalloc'd buffers, static __shared__ arrays, the dynamic
//     shared memory the launch asked for;
//   - races: two threads touch one element, at least one writes, and nothing
//     orders them: no __syncthreads() between them (a block), no __syncwarp()
//     (lanes of one warp), no __threadfence() + atomic handshake (two blocks).
// A thread that reads one address over and over (a spin on a flag another
// thread sets) is made to yield, so that the other thread can run.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <type_traits>
#include <vector>

#include "device.h"
#include "device_memory.h"
#include "profile.h"
#include "program.h"
#include "warpdrill/cpu/cuda_runtime.h"

namespace warpdrill::cpu::detail {

class BlockRunner;

// How far past the end of shared memory (a __shared__ array, or the dynamic
// shared memory) an access still counts as an access past that end, rather
// than someone else's. The dynamic shared memory's allocation covers it.
constexpr std::uintptr_t kSharedMargin = 64;
// The most dynamic shared memory a block of an H100 may have (227 KB, with
// cudaFuncAttributeMaxDynamicSharedMemorySize set): every address up to this
// far past the start of a block's dynamic shared memory is in it.
constexpr std::size_t kMaxDynamicSharedBytes = kSharedMemoryPerBlockOptin;

// atomic_write: an atomic read-modify-write (atomicAdd, atomicCAS);
// atomic_store: an atomic or volatile store, which reads nothing.
enum class AccessKind : std::uint8_t { read, write, atomic_read, atomic_write, atomic_store };

// One access, as a shadow cell remembers it.
struct Access {
    std::uint32_t code = 0;    // code offset of the instruction (program.h)
    std::uint32_t block = 0;   // linear block index in the grid
    std::uint32_t epoch = 0;   // the block's completed __syncthreads() before it
    std::uint32_t clock = 0;   // the lane's __syncwarp() clock before it
    std::uint32_t tile_clock = 0;  // its warp's clock of tile barriers (a multi-warp tile's sync) before it
    std::uint32_t fences = 0;  // the block's __threadfence() count before it
    std::uint32_t grid_syncs = 0;     // the this_grid().sync() its block had passed
    std::uint32_t cluster_syncs = 0;  // the this_cluster().sync() its block had passed
    std::uint16_t thread = 0;  // rank in the block
    AccessKind kind = AccessKind::read;
    // The bytes of its word it touched (bit i: byte i; 0xf for a whole word or
    // more): a __half or a char is an element of its own, and two threads may
    // write neighbouring ones of one word. 0: no access.
    std::uint8_t bytes = 0;
    bool valid() const { return bytes != 0; }
    bool overlaps(const Access& other) const { return (bytes & other.bytes) != 0; }
};

// The state of one 4-byte word: the last write, and an earlier one to other
// bytes of it (a neighbouring __half) that nothing orders before it; two reads
// since: the latest, and an earlier one that nothing orders before it (the
// reads of several threads are not ordered among themselves, and a later
// write must be ordered after all of them).
struct ShadowCell {
    std::uint64_t generation = 0;  // a launch (global memory) or a block's run (shared memory)
    std::uint8_t written = 0;      // the bytes of the word any write of this generation touched
    Access write;
    Access other_write;
    Access read;
    Access other_read;
};
// All-zero cells are unused ones (generations count from 1), so a shadow can
// come from calloc: its large blocks are fresh zero pages, and a page of
// cells costs something only once an access touches it. A checked launch of
// a kernel that reads a few words of a large buffer stays cheap.
static_assert(std::is_trivially_copyable_v<ShadowCell> && std::is_trivially_destructible_v<ShadowCell>);
ShadowCells make_shadow(std::size_t words);

// Launch-wide: global memory's ordering between blocks.
class GridAccesses {
  public:
    GridAccesses(std::uint64_t launch, dim3 grid, const void* kernel, std::vector<KernelArgument> arguments);

    std::uint64_t launch() const { return launch_; }
    dim3 grid() const { return grid_; }
    std::uint32_t fences(std::uint32_t block) const { return fences_[block].load(std::memory_order_relaxed); }
    void fence(std::uint32_t block) { fences_[block].fetch_add(1, std::memory_order_relaxed); }
    // An atomic on `address` by `block`: releases what the block fenced, and
    // acquires what earlier atomics on the same address released.
    void atomic(std::uintptr_t address, std::uint32_t block);
    // Whether `block` has acquired the writer's fence count `fences` of `writer`.
    bool acquired(std::uint32_t block, std::uint32_t writer, std::uint32_t fences) const;
    bool took_atomic(std::uint32_t block) const;
    std::mutex& cell_lock(std::uintptr_t address) { return stripes_[(address >> 2) % kStripes]; }
    // "partials[3]" for an address in a pointer argument's buffer, "tickets"
    // or "table[3]" in a __device__ variable, or "".
    std::string element_name(std::uintptr_t address, const DeviceAllocation& allocation) const;
    // A pointer argument that points to pageable host memory, which a GPU's
    // threads cannot reach: the element it points at, and as much more of its
    // array as a cudaMemcpy to or from it showed.
    struct HostArgument {
        std::uintptr_t start;
        std::size_t bytes;
        std::size_t element_size;
        int index;
    };
    bool has_host_arguments() const { return !host_arguments_.empty(); }
    const HostArgument* host_argument_at(std::uintptr_t address) const;
    // "in" for the kernel's parameter `index`, or "argument 2".
    std::string parameter_name(int index) const;
    // A read of device memory nothing wrote is reported when the launch ends
    // unless another fault stops it first: a block that reads what another
    // block has not yet written is a race, a better name for the same mistake.
    bool holds_fault() const { return has_held_fault_.load(std::memory_order_relaxed); }
    void hold_fault(std::string message);
    const std::string& held_fault() const { return held_fault_; }

  private:
    static constexpr std::size_t kStripes = 1024;
    std::uint64_t launch_;
    dim3 grid_;
    const void* kernel_;
    std::vector<KernelArgument> arguments_;
    std::vector<HostArgument> host_arguments_;
    std::unique_ptr<std::atomic<std::uint32_t>[]> fences_;
    mutable std::mutex sync_mutex_;
    std::unordered_map<std::uintptr_t, std::vector<std::uint32_t>> released_;  // per address, per block
    std::unordered_map<std::uint32_t, std::vector<std::uint32_t>> acquired_;   // per block, per block
    mutable std::vector<std::string> parameter_names_;
    mutable std::once_flag names_once_;
    std::unique_ptr<std::mutex[]> stripes_;
    std::atomic<bool> has_held_fault_{false};
    std::string held_fault_;  // written once, under sync_mutex_
};

// Per worker thread: the running block's shared memory and clocks.
class BlockAccesses {
  public:
    BlockAccesses(BlockRunner& runner, GridAccesses& grid, int threads, std::size_t dynamic_smem_bytes);

    void start_block(std::uint32_t linear_block, std::uintptr_t dynamic_smem);
    void block_barrier() { ++epoch_; }
    // A grid or cluster barrier completed: every block it spans has done
    // everything before it.
    void group_barrier(SyncKind kind);
    void warp_barrier(int base, unsigned mask);
    // The warps first_warp to first_warp + warps - 1 met at a barrier of a
    // tile of several warps (cooperative groups): each has seen what the others did.
    void tile_barrier(int first_warp, int warps);
    void fence(bool device_scope);
    // A volatile access to global memory counts as an atomic one (a flag between
    // blocks); to shared memory, as a plain one (the pre-Volta warp unroll).
    void access(std::uintptr_t address, std::size_t bytes, AccessKind kind, const void* code, bool is_volatile) {
        if (bytes == 16) count_wide_access();  // LaunchStats::wide_accesses
        // Most accesses of a grid-stride kernel read its input: a buffer too
        // large for race checks (classify), inside the bounds checked before.
        // A profile counts them all.
        if (!profile_ && address - unchecked_start_ < unchecked_bytes_ &&
            address + bytes <= unchecked_start_ + unchecked_bytes_) {
            return;
        }
        // Others touch a thread's own stack (a value whose address a helper took).
        const bool shared = (dynamic_start_ && address - dynamic_start_ < kMaxDynamicSharedBytes) ||
                            address - arrays_low_ < arrays_high_ - arrays_low_;
        if (shared || is_device_address(address)) {
            check_access(address, bytes, kind, code, is_volatile);
        } else {
            if (!remote_windows_.empty()) check_remote_bounds(address, bytes, kind, code);
            if (grid_.has_host_arguments()) check_host_memory(address, bytes, kind, code);
        }
    }
    void array_index_out_of_bounds(const std::string& array_type, long long index, const char* file, unsigned line);
    // A load or store of `bytes` at an address that is not a multiple of them.
    [[noreturn]] void misaligned(std::uintptr_t address, std::size_t bytes, AccessKind kind, const void* instruction);
    // Decides a write that waited for its value (PendingWrite): called before
    // each access the block's checks see, at each sync point and at each
    // thread's end, when the waiting write is done.
    void settle_pending_write() {
        if (pending_write_) settle(*std::exchange(pending_write_, std::nullopt));
    }
    // This block mapped `bytes` of another block's shared memory at `start`
    // (this_cluster().map_shared_rank()); `what` names them. Accesses there
    // have their bounds checked from now until the block ends.
    void map_remote_shared(std::uintptr_t start, std::size_t bytes, std::string what);
    // Hands every load and store of global and shared memory to `profile` too.
    void profile_into(BlockProfile* profile) { profile_ = profile; }

  private:
    struct SharedArray {
        const TlsVariable* variable;  // a __shared__ one, or the backend's own (not checked)
        std::uintptr_t start;
        ShadowCells shadow;
    };
    // Where an access falls: its shadow cell, and what names it in a message.
    struct Element {
        ShadowCell* cell = nullptr;
        std::uintptr_t address = 0;
        const SharedArray* array = nullptr;               // a static __shared__ array, or
        const DeviceAllocation* allocation = nullptr;     // a cudaMalloc'd buffer, or dynamic shared memory
        std::mutex* lock = nullptr;
        bool global = false;
        std::size_t size = 0;  // of the access: a __half array's elements are named by 2-byte index
    };
    std::string name_of(const Element& element) const;  // "sdata[5]", "partials[3]"
    // Another block's shared memory, mapped by this one.
    struct RemoteWindow {
        std::uintptr_t start;
        std::size_t bytes;
        std::string what;  // "the __shared__ array partial of block rank 1"
    };
    void check_remote_bounds(std::uintptr_t address, std::size_t bytes, AccessKind kind, const void* instruction);
    void check_host_memory(std::uintptr_t address, std::size_t bytes, AccessKind kind, const void* instruction);
    // A write to a word that another lane of the same warp wrote, with nothing
    // ordering the two: a race, unless it writes the value already there (the
    // GPU keeps either, and racecheck reports no hazard), which is known once
    // the write is done.
    struct PendingWrite {
        Element element;
        Access before, now;
        std::uintptr_t address = 0;
        std::size_t bytes = 0;
        std::array<std::byte, 16> earlier{};  // what the earlier write left there
    };
    static bool may_write_same_value(const Access& before, const Access& now, std::size_t bytes);
    void settle(const PendingWrite& write);

    void count_wide_access();
    void check_access(std::uintptr_t address, std::size_t bytes, AccessKind kind, const void* code, bool is_volatile);
    Element classify(std::uintptr_t address, std::size_t bytes, AccessKind kind, std::uint32_t code);
    void profile(const Element& element, std::uintptr_t address, std::size_t bytes, AccessKind kind,
                 std::uint32_t code);
    // The earlier access `now` conflicts with, if any; updates the cell otherwise.
    std::optional<Access> check(Element& element, const Access& now);
    bool ordered(const Access& before, const Access& now) const;
    bool same_cluster(std::uint32_t a, std::uint32_t b) const;
    // This thread's access now, of `bytes` at `address` (its byte mask in its word).
    Access record(AccessKind kind, std::uint32_t code, std::uintptr_t address = 0, std::size_t bytes = 4) const;
    [[noreturn]] void race(const Element& element, const Access& before, const Access& now);
    // A read of shared memory that no thread of the block has written: a warning.
    bool shared_bytes_unwritten(const Element& element, std::uintptr_t address, std::size_t bytes, bool writing);
    void uninitialized_read(const Element& element, const Access& now);
    [[noreturn]] void out_of_bounds(std::size_t bytes, AccessKind kind, std::uint32_t code, const std::string& what);
    // initcheck: a read of device memory that nothing has written is held
    // for the launch's end (GridAccesses::hold_fault); a write marks its bytes.
    void check_written(DeviceAllocation& allocation, std::uintptr_t address, std::size_t bytes, AccessKind kind,
                       std::uint32_t code);
    void uninitialized_global_read(const DeviceAllocation& allocation, std::uintptr_t address, std::size_t bytes,
                                   AccessKind kind, std::uint32_t code);
    std::string describe(const Access& access) const;

    BlockRunner& runner_;
    GridAccesses& grid_;
    int threads_;
    std::uint32_t block_ = 0;
    std::uint32_t epoch_ = 0;
    std::uint32_t grid_syncs_ = 0;
    std::uint32_t cluster_syncs_ = 0;
    std::uint64_t generation_ = 0;
    std::vector<std::uint32_t> clocks_;  // thread t's view of its warp's 32 lanes: clocks_[t * 32 + lane]
    int warps_;
    std::vector<std::uint32_t> tile_clocks_;  // warp w's view of the block's warps: tile_clocks_[w * warps_ + v]
    std::uintptr_t dynamic_start_ = 0;
    std::size_t dynamic_bytes_ = 0;
    ShadowCells dynamic_shadow_;
    std::vector<SharedArray> arrays_;
    std::uintptr_t arrays_low_ = 0, arrays_high_ = 0;  // the span of arrays_
    std::vector<RemoteWindow> remote_windows_;
    // The last buffer whose accesses need only their bounds checked.
    std::uintptr_t unchecked_start_ = 0;
    std::size_t unchecked_bytes_ = 0;
    BlockProfile* profile_ = nullptr;
    std::optional<PendingWrite> pending_write_;
};

// The running fiber's checker, or nullptr outside tracked kernels.
extern constinit thread_local BlockAccesses* active_accesses;

// Ends the running thread's kernel: it touched the memory of GPU `owner`,
// which its own GPU has no peer access to. `what` names the buffer or element.
[[noreturn]] void foreign_memory(BlockRunner& runner, const std::string& thread, std::size_t bytes, AccessKind kind,
                                 std::uint32_t code, const std::string& what, int owner);
// The same check outside tracked launches, where the kernel runs at full
// speed and only the buffer can be named.
void check_device_access(std::uintptr_t address, std::size_t bytes, AccessKind kind, const void* instruction);

// Whether launches of `threads` in all are tracked (WARPDRILL_MEMCHECK: auto, all, off).
bool tracks_launch(std::uint64_t threads);

}  // namespace warpdrill::cpu::detail
