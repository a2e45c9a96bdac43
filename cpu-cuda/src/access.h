// The CPU backend's view of every load and store a kernel makes. Kernel
// sources are compiled with GCC's -fsanitize=thread instrumentation, which
// calls __tsan_read4(address) and its kin before each access, and with
// -fsanitize=bounds, which calls __ubsan_handle_out_of_bounds for an index past
// a fixed-size array; this backend supplies those functions itself
// (instrumentation.cpp; no sanitizer runtime is linked). While a tracked
// launch runs, each access goes to the running block's watch, which locates
// it, checks its address as compute-sanitizer's memcheck would (bounds of
// cudaMalloc'd buffers, static __shared__ arrays and the dynamic shared
// memory; freed buffers, host memory, another GPU's memory, misalignment),
// and tells the block's observers (observer.h): the race checker, the
// initialisation check and the profiler.
// A thread that reads one address over and over (a spin on a flag another
// thread sets) is made to yield, so that the other thread can run.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "device.h"
#include "device_memory.h"
#include "faults.h"
#include "observer.h"
#include "program.h"
#include "shared_windows.h"
#include "warpdrill/cpu/cuda_runtime.h"

namespace warpdrill::cpu::detail {

class BlockRunner;

// How far past the end of shared memory (a __shared__ array, or the dynamic
// shared memory) an access still counts as an access past that end, rather
// than someone else's. The dynamic shared memory's allocation covers it.
constexpr std::uintptr_t kSharedMargin = 64;

// Launch-wide: what names the kernel's memory, and a fault held to its end.
class GridAccesses {
  public:
    GridAccesses(dim3 grid, const void* kernel, std::vector<KernelArgument> arguments);

    dim3 grid() const { return grid_; }
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
    // A fault found while blocks still run that is reported when the launch
    // ends, unless another fault stops it first (init_check.h says why).
    bool holds_fault() const { return has_held_fault_.load(std::memory_order_relaxed); }
    void hold_fault(std::string message);
    const std::string& held_fault() const { return held_fault_; }

  private:
    dim3 grid_;
    const void* kernel_;
    std::vector<KernelArgument> arguments_;
    std::vector<HostArgument> host_arguments_;
    mutable std::vector<std::string> parameter_names_;
    mutable std::once_flag names_once_;
    std::mutex held_mutex_;
    std::atomic<bool> has_held_fault_{false};
    std::string held_fault_;  // written once, under held_mutex_
};

// Per worker thread: locates the running block's accesses, checks their
// addresses, and tells its observers of them and of its sync points.
class BlockWatch {
  public:
    BlockWatch(BlockRunner& runner, GridAccesses& grid, std::size_t dynamic_smem_bytes);

    // `observer` is told from now on; `sees_inputs`: of the accesses to large
    // buffers every thread reads too, which no checker needs once they are
    // fully written (the profiler counts them).
    void add(BlockObserver& observer, bool sees_inputs = false);

    void start_block(std::uint32_t linear_block, std::uintptr_t dynamic_smem);
    void access(std::uintptr_t address, std::size_t bytes, AccessKind kind, const void* code, bool is_volatile) {
        if (bytes == 16) count_wide_access();  // LaunchStats::wide_accesses
        // Most accesses of a grid-stride kernel read its input: a large
        // buffer, fully written, inside the bounds checked before.
        if (address - input_start_ < input_bytes_ && address + bytes <= input_start_ + input_bytes_) {
            if (!input_observers_.empty()) tell_input(address, bytes, kind, code, is_volatile);
            return;
        }
        observe(address, bytes, kind, code, is_volatile);
    }
    // A load or store of `bytes` at an address that is not a multiple of them.
    [[noreturn]] void misaligned(std::uintptr_t address, std::size_t bytes, AccessKind kind, const void* instruction);
    // This block mapped `bytes` of another block's shared memory at `start`
    // (this_cluster().map_shared_rank()); `what` names them. Accesses there
    // have their bounds checked from now until the block ends.
    void map_remote_shared(std::uintptr_t start, std::size_t bytes, std::string what);

    // The block's sync points, told to every observer (observer.h).
    void sync_point() {
        for (BlockObserver* observer : observers_) observer->sync_point();
    }
    void warp_sync(SyncKind kind, int base, unsigned mask, unsigned live);
    void block_barrier(const std::vector<unsigned>& live);
    void tile_barrier(int first_warp, int warps);
    void group_barrier(SyncKind kind);
    void fence(bool device_scope);
    void barrier_arrive(int thread);
    void barrier_phase();
    void barrier_passed(int thread);
    void branch(int thread, const char* statement, const Where& where, bool taken) {
        for (BlockObserver* observer : observers_) observer->branch(thread, statement, where, taken);
    }
    void end_block();

    // For the observers' messages.
    BlockRunner& runner() const { return runner_; }
    GridAccesses& grid() const { return grid_; }
    uint3 block_index() const { return block_index(block_); }
    uint3 block_index(std::uint32_t linear_block) const;
    // "sdata[5]", "partials[3]", "dynamic shared memory word 7".
    std::string element_name(const ObservedAccess& access) const;
    // The running thread, at the learner's line of the access.
    Accessor accessor(const ObservedAccess& access) const;
    BadAccess bad_access(const ObservedAccess& access) const;

  private:
    // Another block's shared memory, mapped by this one.
    struct RemoteWindow {
        std::uintptr_t start;
        std::size_t bytes;
        std::string what;  // "the __shared__ array partial of block rank 1"
    };
    struct SharedArray {
        const TlsVariable* variable;  // a __shared__ one, or the backend's own (not watched)
        std::uintptr_t start;
    };
    void observe(std::uintptr_t address, std::size_t bytes, AccessKind kind, const void* code, bool is_volatile);
    void tell_input(std::uintptr_t address, std::size_t bytes, AccessKind kind, const void* code, bool is_volatile);
    // Fills in where `access` lies; false when no observer watches there (a
    // thread's own stack, the backend's variables). Faults a bad address.
    bool locate(ObservedAccess& access);
    bool locate_shared_array(ObservedAccess& access);
    void locate_global(ObservedAccess& access);
    void check_remote_bounds(const ObservedAccess& access);
    void check_host_memory(const ObservedAccess& access);
    [[noreturn]] void out_of_bounds(const ObservedAccess& access, const std::string& what) const;
    void count_wide_access();
    ObservedAccess observed(std::uintptr_t address, std::size_t bytes, AccessKind kind, const void* code,
                            bool is_volatile) const;

    BlockRunner& runner_;
    GridAccesses& grid_;
    std::vector<BlockObserver*> observers_;
    std::vector<BlockObserver*> input_observers_;
    std::uint32_t block_ = 0;
    std::uintptr_t dynamic_start_ = 0;
    std::size_t dynamic_bytes_ = 0;
    std::vector<SharedArray> arrays_;
    std::uintptr_t arrays_low_ = 0, arrays_high_ = 0;  // the span of arrays_
    std::vector<RemoteWindow> remote_windows_;
    // The last large buffer, fully written, that only input observers see.
    std::uintptr_t input_start_ = 0;
    std::size_t input_bytes_ = 0;
};

// The running fiber's watch, or nullptr outside tracked kernels.
extern constinit thread_local BlockWatch* active_watch;

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
