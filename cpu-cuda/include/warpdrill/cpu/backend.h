// What host code may ask of the CPU backend beyond CUDA's runtime API: the
// order in which it runs a block's threads and the streams' queued work, the
// counters of the last launch and of the host's waits, what the GPU's memory
// system would do with a launch (a profile), and the error it throws when a
// kernel breaks CUDA's rules.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace warpdrill::cpu {

// Between two sync points a thread runs alone; the order says which of the
// block's ready threads runs first. A kernel whose result changes with the
// order reads shared data that no barrier protects. `shuffled` (a new order
// at every sync point, drawn from the seed) also starts the grid's blocks in
// an order drawn from the seed, where the others start them by index: a
// kernel whose result depends on which block comes first (an atomicAdd of
// floats) gives another result for another seed, even on one worker.
enum class ThreadOrder { ascending, descending, shuffled };

void set_thread_order(ThreadOrder order, std::uint64_t seed = 0);
ThreadOrder thread_order();
const char* to_string(ThreadOrder order);

// Sets the order for the lifetime of the object, then restores the old one.
class ScopedThreadOrder {
  public:
    explicit ScopedThreadOrder(ThreadOrder order, std::uint64_t seed = 0);
    ~ScopedThreadOrder();
    ScopedThreadOrder(const ScopedThreadOrder&) = delete;
    ScopedThreadOrder& operator=(const ScopedThreadOrder&) = delete;

  private:
    ThreadOrder saved_;
};

// Work queued on different streams that nothing orders (no stream order, no
// event waited for, no synchronisation) runs, when a synchronisation needs
// it, latest queued first, so that a consumer whose wait is missing runs
// before its producer; or in the order it was queued, so that a wait for an
// event recorded after the wait shows too.
enum class StreamOrder { latest_first, queued };

void set_stream_order(StreamOrder order);
StreamOrder stream_order();
const char* to_string(StreamOrder order);

class ScopedStreamOrder {
  public:
    explicit ScopedStreamOrder(StreamOrder order);
    ~ScopedStreamOrder();
    ScopedStreamOrder(const ScopedStreamOrder&) = delete;
    ScopedStreamOrder& operator=(const ScopedStreamOrder&) = delete;

  private:
    StreamOrder saved_;
};

// How many times the host has waited for the GPUs so far: each
// cudaDeviceSynchronize, cudaStreamSynchronize, cudaEventSynchronize, and
// each copy or memset that returns only when it is done (cudaMemcpy,
// cudaMemcpyPeer, cudaMemset, a cudaMemcpyAsync to pageable host memory).
std::uint64_t host_waits();

// Counts for one launch. Collective operations count once per completion:
// a __syncthreads() that 256 threads pass is one block barrier, a
// __shfl_down_sync of a full warp is one shuffle, a grid barrier that 8
// blocks pass is 8 grid syncs.
struct LaunchStats {
    std::uint64_t blocks = 0;
    std::uint64_t threads = 0;
    std::uint64_t block_barriers = 0;
    std::uint64_t warp_syncs = 0;
    std::uint64_t shuffles = 0;
    std::uint64_t votes = 0;            // __ballot_sync, __any_sync, __all_sync, __match_*_sync
    std::uint64_t atomics = 0;  // one per thread that calls an atomic
    std::uint64_t warp_reductions = 0;  // __reduce_*_sync
    std::uint64_t grid_syncs = 0;       // this_grid().sync(), once per block that passes it
    std::uint64_t cluster_syncs = 0;    // this_cluster().sync(), once per block that passes it
    // Loads and stores of 16 bytes at once (float4, a Pack of four floats), one
    // per thread; counted where accesses are checked (launches of up to 2^17 threads).
    std::uint64_t wide_accesses = 0;

    LaunchStats& operator+=(const LaunchStats& other);
};

LaunchStats last_launch_stats();

// ---- profiles: what the hardware would do with a launch -----------------------
// A profiled launch records every load and store its threads make and forms
// warp instructions from them: the k-th time each lane of a warp executes the
// same instruction is one warp instruction, and lanes that never get there
// are inactive (the count restarts where the warp is known to be converged:
// a __syncthreads(), or a warp intrinsic that all its lanes call). It then
// counts as Nsight Compute counts on the GPU (the ncu metric is named with
// each field). Addresses and active lanes decide every count, so where the
// host compiler and nvcc make the same memory instructions the counts are
// the GPU's exactly; where one keeps a value in a register that the other
// loads again, they differ by those loads.

// Global memory: each warp instruction is one request, which touches the
// 32-byte sectors (of 128-byte lines) that its active lanes' bytes lie in.
struct GlobalAccessCounts {
    std::uint64_t requests = 0;  // l1tex__t_requests_pipe_lsu_mem_global_op_{ld,st}.sum
    std::uint64_t sectors = 0;   // l1tex__t_sectors_pipe_lsu_mem_global_op_{ld,st}.sum
    // Loads only: of those sectors, the ones the same block had loaded before
    // in the launch, which L1 or L2 may serve again (no ncu metric: the time
    // model's, for the DRAM bytes).
    std::uint64_t reloaded_sectors = 0;
    // Loads only: of those the block loads for the first time, the ones an
    // earlier launch profiled in the open scopes stored, which L2 may still
    // hold (no ncu metric either: a lesson's later launch reading the partial
    // sums of the one before).
    std::uint64_t stored_earlier_sectors = 0;
};

// Shared memory: 32 banks of 4-byte words. A warp instruction takes one
// wavefront per distinct word in its busiest bank; lanes reading the same word
// share it (a broadcast). 8-byte accesses are served a half-warp at a time and
// 16-byte ones a quarter-warp at a time, each part taking at least one
// wavefront; the wavefronts past one per part are bank conflicts.
struct SharedAccessCounts {
    std::uint64_t instructions = 0;    // smsp__sass_inst_executed_op_shared_{ld,st}.sum
    std::uint64_t wavefronts = 0;      // l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld,st}.sum
    std::uint64_t bank_conflicts = 0;  // l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st}.sum
};

// Warp instructions and the lanes active in them (smsp__thread_inst_executed
// over smsp__inst_executed on the GPU, where every instruction counts).
struct ActiveLanes {
    std::uint64_t instructions = 0;    // warp instructions
    std::uint64_t active_threads = 0;  // summed over them
    std::uint64_t partial = 0;         // those with fewer than 32 active lanes

    double average() const { return instructions ? static_cast<double>(active_threads) / instructions : 0.0; }
    ActiveLanes& operator+=(const ActiveLanes& other);
};

// The loads and stores of global and shared memory (atomics aside).
struct MemoryCounts {
    GlobalAccessCounts global_loads, global_stores;
    SharedAccessCounts shared_loads, shared_stores;

    MemoryCounts& operator+=(const MemoryCounts& other);
};

// The loads and stores made at one line of a kernel's source: the learner's
// line, and where a course helper inlined there makes them, that helper's
// line too (`via`, as fault messages name it).
struct SourceLineProfile : MemoryCounts {
    std::string file;  // as the repository names it: "solutions/03-sequential-addressing/reduce.cuh"
    unsigned line = 0;
    std::string via;   // "pack.cuh:27 in warpdrill::load_pack", or ""

    std::string place() const;  // "solutions/03-.../reduce.cuh:24", with " (through <via>)"
};

// How the warps went at one condition of the kernel's source, an if's or a
// loop's, in a build that counts them (cudacc --branches: `warpdrill
// profile`'s). A lane's k-th evaluation is matched with its warp's other
// lanes' k-th since the warp last converged (a __syncthreads(), a warp
// intrinsic all its lanes call), as the memory counts match accesses. Source
// level: nvcc may turn a short branch into predicated instructions, and then
// no warp diverges there on a GPU.
struct BranchTally {
    std::uint64_t evaluations = 0;      // by a warp: once for all its lanes that reached it together
    std::uint64_t divergent = 0;        // of those, where some lanes' condition held and others' did not
    std::uint64_t lanes_taken = 0;      // over the divergent ones: the lanes whose condition held
    std::uint64_t lanes_not_taken = 0;  // and the lanes whose condition did not

    BranchTally& operator+=(const BranchTally& other);
};

struct BranchProfile : BranchTally {
    std::string file;  // as the repository names it
    unsigned line = 0;
    unsigned column = 0;    // in the compiled text: tells two branches of one line apart
    std::string statement;  // "if", "while" or "for"

    std::string place() const { return file + ":" + std::to_string(line); }
};

struct LaunchProfile : MemoryCounts {
    std::string kernel;  // "reduce_sequential", "reduce_complete_unroll<256u>"
    std::array<unsigned, 3> grid{1, 1, 1};
    std::array<unsigned, 3> block{1, 1, 1};
    std::size_t dynamic_shared_bytes = 0;
    std::size_t static_shared_bytes = 0;  // of the __shared__ arrays the kernel touched
    LaunchStats stats;
    // The memory counts above, line by line (in the order of file and line):
    // where the bank conflicts or the extra sectors come from. Empty without
    // debug information (or addr2line) to name the lines.
    std::vector<SourceLineProfile> lines;
    // Loads and stores to global and shared memory, atomics aside.
    ActiveLanes memory_instructions;
    // Barriers (one instruction per warp that waits), warp syncs, shuffles, votes.
    ActiveLanes sync_instructions;
    std::uint64_t barrier_instructions = 0;  // warp-level: a __syncthreads() counts once per warp
    // The first race the launch made, as a checked launch would have stopped
    // at it ("" for none): a profiled launch goes on past a race, so that its
    // counts are the racy kernel's, as Nsight Compute's are.
    std::string race;
    // Its branches, in the order of file, line and column: empty unless the
    // kernel was compiled to count them.
    std::vector<BranchProfile> branches;

    // Adds the counts, line by line and branch by branch too; keeps the shape
    // and the first race.
    LaunchProfile& operator+=(const LaunchProfile& other);
};

// Profiles every launch made while it lives, on any host thread. A profiled
// launch is also checked for races and out-of-bounds accesses, whatever its
// size (WARPDRILL_MEMCHECK does not apply to it): an out-of-bounds access
// stops it, a race is named in its profile (LaunchProfile::race). Launches
// outside a scope cost nothing more than before. Scopes nest: a launch goes
// to the innermost.
class ProfileScope {
  public:
    ProfileScope();
    ~ProfileScope();
    ProfileScope(const ProfileScope&) = delete;
    ProfileScope& operator=(const ProfileScope&) = delete;

    // The profiles of the launches made so far in this scope, in order.
    std::vector<LaunchProfile> launches() const;

  private:
    std::vector<LaunchProfile> launches_;
    std::vector<LaunchProfile>* outer_;
};

// The last profiled launch's profile (empty before the first).
LaunchProfile last_launch_profile();

// cudaGetDeviceProperties, cudaDeviceGetAttribute and the occupancy calls
// report `count` multiprocessors instead of this machine's cores (0: back to
// the cores), so that launch code that sizes its grid from the GPU (lessons 8
// and 10) sizes it as on that GPU. A cooperative launch still fits at most 8
// SMs' blocks, whose threads all live at once on the CPU.
void set_multiprocessor_count(int count);

// The occupancy calls report at most `blocks` per multiprocessor, as on a GPU
// where the kernel's registers allow no more (0: no such limit). The CPU
// backend has no registers to count: ncu reports the GPU's figure
// (launch__occupancy_limit_registers), so that a grid sized from occupancy
// (lesson 10) is the GPU's grid.
void set_register_limited_blocks(int blocks);

// What a kernel did that a GPU runs as written, with the result the CPU
// backend gives too, but that CUDA's rules or NVIDIA's guidelines advise
// against: a warp intrinsic whose mask names lanes a partial warp does not
// have; lanes of one warp writing the same value to one word. Each is told
// once per source line. Whatever no one takes is printed to stderr when the
// program ends.
std::vector<std::string> take_warnings();

// Thrown by a launch whose kernel broke a rule that a GPU would answer with a
// hang or a wrong result: the message names the file, the line and the threads.
class KernelFault : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// Thrown by a launch whose kernel asked for something the CPU backend does
// not run (inline PTX it has no translation for, say), which a GPU would run:
// no mistake of the program's, but no result the backend can vouch for.
class BackendLacks : public KernelFault {
  public:
    using KernelFault::KernelFault;
};

}  // namespace warpdrill::cpu
