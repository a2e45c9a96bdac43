// launch_grid: checks the launch configuration as CUDA does and queues the
// grid on its stream. run_grid, when the grid's turn comes: spreads the blocks
// over worker threads (in index order or shuffled, one block at a time per
// worker, its fibers never leave that worker), watches for kernels that never
// finish, and gathers counters.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <signal.h>
#include <unistd.h>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <unordered_map>
#include <vector>

#include "access.h"
#include "capture.h"
#include "device_memory.h"
#include "coresident.h"
#include "device.h"
#include "graph_nodes.h"
#include "init_check.h"
#include "launch_faults.h"
#include "profile.h"
#include "race_check.h"
#include "scheduler.h"
#include "state.h"
#include "streams.h"
#include "warpdrill/messages.h"

namespace warpdrill::cpu::detail {
namespace {

struct Settings {
    ThreadOrder order = ThreadOrder::ascending;
    std::uint64_t seed = 0;
};
Settings settings;
std::mutex stats_mutex;
LaunchStats last_stats;

unsigned worker_count(std::uint64_t blocks) {
    unsigned workers = std::max(1u, std::thread::hardware_concurrency());
    if (const char* env = std::getenv("WARPDRILL_CPU_WORKERS")) workers = std::max(1, std::atoi(env));
    return static_cast<unsigned>(std::min<std::uint64_t>(workers, blocks));
}

std::chrono::seconds kernel_time_limit() {
    const char* env = std::getenv("WARPDRILL_KERNEL_TIMEOUT_S");
    const int seconds = env ? std::atoi(env) : 0;
    return std::chrono::seconds(seconds > 0 ? seconds : 30);
}

// What each worker is running, for the watchdog and the crash handler.
struct WorkerView {
    std::atomic<BlockRunner*> block{nullptr};
};

thread_local WorkerView* this_worker = nullptr;

// What `block` runs now, for the crash handler and the watchdog.
RunningThread running_thread(const BlockRunner& block) {
    const FiberThread* thread = block.running();
    if (!thread) return {block.block_idx(), std::nullopt, Where()};
    return {block.block_idx(), thread->rank, thread->sync.where};
}

void on_crash(int signal, siginfo_t* info, void*) {
    if (this_worker) {
        if (BlockRunner* block = this_worker->block.load()) {
            const auto address = reinterpret_cast<std::uintptr_t>(info->si_addr);
            const std::string text =
                kernel_crashed(signal, running_thread(*block), is_device_address(address));
            [[maybe_unused]] auto written = ::write(2, text.data(), text.size());
        }
    }
    std::signal(signal, SIG_DFL);
    std::raise(signal);
}

// A crash inside a fiber, a stack overflow especially, needs a stack of its
// own to report from.
void install_crash_handler() {
    static std::once_flag once;
    std::call_once(once, [] {
        // The handler words its message from the message catalog: have it
        // read now, not on the handler's small stack in the middle of a crash.
        messages::load();
        struct sigaction action {};
        action.sa_sigaction = on_crash;
        action.sa_flags = SA_ONSTACK | SA_SIGINFO;
        sigaction(SIGSEGV, &action, nullptr);
        sigaction(SIGBUS, &action, nullptr);
    });
    thread_local std::vector<char> alternate(1 << 16);
    stack_t stack{};
    stack.ss_sp = alternate.data();
    stack.ss_size = alternate.size();
    sigaltstack(&stack, nullptr);
}

cudaError_t check_config(dim3 grid, dim3 block, std::size_t dynamic_smem_bytes, const void* kernel) {
    // The answers a GPU gives (measured on an H100 with CUDA 13.0: see
    // cpu-cuda/tests/data/shuffle_truth.txt and results/gpu-check-h100.md).
    if (grid.x == 0 || grid.y == 0 || grid.z == 0) return cudaErrorInvalidValue;
    if (block.x == 0 || block.y == 0 || block.z == 0) return cudaErrorInvalidValue;
    const std::uint64_t threads = std::uint64_t{block.x} * block.y * block.z;
    if (threads > 1024 || block.x > 1024 || block.y > 1024 || block.z > 64) return cudaErrorInvalidValue;
    if (grid.y > 65535 || grid.z > 65535 || grid.x > 0x7fffffffu) return cudaErrorInvalidValue;
    if (dynamic_smem_bytes > max_dynamic_shared_bytes(kernel)) return cudaErrorInvalidValue;
    return cudaSuccess;
}

// The order the workers take a grid's blocks in: by index, or, in the
// shuffled thread order, a permutation drawn from its seed. A GPU starts and
// finishes blocks in an order nothing fixes; one worker in index order would
// always show a kernel whose result depends on that order the same result.
// A Feistel network over the next power of 4, walked back into [0, blocks):
// no table, however large the grid.
class BlockOrder {
  public:
    BlockOrder(std::uint64_t blocks, ThreadOrder order, std::uint64_t seed)
        : blocks_(blocks), shuffled_(order == ThreadOrder::shuffled), key_(mix(seed)) {
        while (half_bits_ < 32 && (std::uint64_t{1} << 2 * half_bits_) < blocks) ++half_bits_;
    }

    // The block that starts `n`-th.
    std::uint64_t operator[](std::uint64_t n) const {
        if (!shuffled_) return n;
        do n = permute(n);
        while (n >= blocks_);
        return n;
    }

  private:
    static std::uint64_t mix(std::uint64_t x) {  // splitmix64's finaliser
        x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
        x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
        return x ^ (x >> 31);
    }
    std::uint64_t permute(std::uint64_t x) const {
        const std::uint64_t mask = (std::uint64_t{1} << half_bits_) - 1;
        std::uint64_t left = x >> half_bits_, right = x & mask;
        for (std::uint64_t round = 1; round <= 4; ++round) {
            const std::uint64_t next = left ^ (mix(right ^ key_ ^ round * 0x9e3779b97f4a7c15ull) & mask);
            left = right;
            right = next;
        }
        return left << half_bits_ | right;
    }

    std::uint64_t blocks_;
    bool shuffled_;
    std::uint64_t key_;
    int half_bits_ = 0;
};

uint3 block_index(std::uint64_t linear, dim3 grid) {
    return {static_cast<unsigned>(linear % grid.x), static_cast<unsigned>(linear / grid.x % grid.y),
            static_cast<unsigned>(linear / (std::uint64_t{grid.x} * grid.y))};
}

// What CUDA answers a launch before it runs: a bad shape, a group launch the
// GPU cannot hold, or a stream of another GPU than the current one.
cudaError_t check_launch(const GridLaunch& launch, cudaStream_t stream) {
    cudaError_t error = check_shape(launch);
    if (error == cudaSuccess) error = check_stream(stream);
    if (error == cudaSuccess && device_of(stream) != current_device()) error = cudaErrorInvalidResourceHandle;
    return error;
}

// Runs the grid on GPU `device`; throws KernelFault.
void run_grid(const GridLaunch& launch, int device) {
    const dim3 grid = launch.grid, block = launch.block;
    const std::size_t dynamic_smem_bytes = launch.dynamic_smem_bytes;
    const std::function<void()>& thread_body = launch.thread_body;
    const GroupLaunch& groups = launch.groups;
    install_crash_handler();
    // Cooperative and cluster launches run blocks together, each on its own OS thread.
    const std::unique_ptr<CoResidentBlocks> coresident =
        CoResidentBlocks::needed(groups)
            ? std::make_unique<CoResidentBlocks>(grid, dynamic_smem_bytes, groups)
            : nullptr;
    static std::atomic<std::uint64_t> launches{0};
    const GridShape shape{grid,   block,           dynamic_smem_bytes, &thread_body, settings.order, settings.seed,
                          groups, coresident.get(), device,             ++launches};
    const std::uint64_t blocks = std::uint64_t{grid.x} * grid.y * grid.z;
    const unsigned workers = coresident ? coresident->workers() : worker_count(blocks);
    const int threads_per_block = static_cast<int>(block.x * block.y * block.z);
    // A profile sees the accesses through the same instrumentation as the checks.
    const bool profiled = profiling();
    std::unique_ptr<GridAccesses> grid_accesses;
    std::unique_ptr<GridOrder> grid_order;
    if (profiled || tracks_launch(blocks * static_cast<std::uint64_t>(threads_per_block))) {
        grid_accesses = std::make_unique<GridAccesses>(grid, launch.kernel, launch.pointers);
        grid_order = std::make_unique<GridOrder>(shape.launch, grid);
    } else {
        unchecked_launch_began();
    }

    const BlockOrder block_order(blocks, settings.order, settings.seed);
    std::atomic<std::uint64_t> next_block{0};
    std::atomic<bool> failed{false};
    std::exception_ptr error;
    LaunchStats stats;
    LaunchProfile profile;
    std::unordered_map<std::uint32_t, MemoryCounts> profile_by_code;
    std::vector<std::size_t> shared_arrays;  // bytes of each static __shared__ array touched, by variable
    SectorList stored;                       // the global sectors the launch stored
    std::optional<EarlierStores> earlier_stores;
    if (profiled) earlier_stores.emplace();
    std::mutex mutex;
    std::condition_variable finished;
    unsigned running = workers;
    std::vector<WorkerView> views(workers);

    auto work = [&](unsigned worker) {
        install_crash_handler();
        this_worker = &views[worker];
        StackCache stacks;
        BlockRunner runner(shape, stacks);
        // The watch and its observers (observer.h), in the order they are told:
        // a profile counts an access before a race ends the kernel.
        std::optional<BlockWatch> watch;
        std::optional<BlockProfile> block_profile;
        std::optional<RaceCheck> races;
        std::optional<InitCheck> initialisation;
        if (grid_accesses) {
            watch.emplace(runner, *grid_accesses, dynamic_smem_bytes);
            if (profiled)
                watch->add(block_profile.emplace(threads_per_block, earlier_stores->sectors()),
                           /*sees_inputs=*/true);
            watch->add(races.emplace(*watch, *grid_order, threads_per_block, dynamic_smem_bytes, !profiled));
            watch->add(initialisation.emplace(*watch, dynamic_smem_bytes));
            runner.watch_with(&*watch);
        }
        views[worker].block = &runner;
        try {
            if (coresident) {
                coresident->run_blocks(worker, runner, failed);
            } else {
                for (std::uint64_t b; !failed && (b = next_block++) < blocks;)
                    runner.run(block_index(block_order[b], grid));
            }
        } catch (...) {
            {
                std::lock_guard lock(mutex);
                if (!error) error = std::current_exception();
                failed = true;
            }
            if (coresident) coresident->abort();  // wakes the blocks that wait for this one
        }
        views[worker].block = nullptr;
        std::lock_guard lock(mutex);
        stats += runner.stats();
        if (block_profile) {
            profile += block_profile->counts();
            for (const auto& [code, counts] : block_profile->by_code()) profile_by_code[code] += counts;
            const std::vector<std::size_t>& touched = block_profile->shared_arrays();
            if (shared_arrays.size() < touched.size()) shared_arrays.resize(touched.size());
            for (std::size_t v = 0; v < touched.size(); ++v) {
                shared_arrays[v] = std::max(shared_arrays[v], touched[v]);
            }
            stored.add(block_profile->stored_sectors());
        }
        if (--running == 0) finished.notify_one();
    };

    std::vector<std::thread> threads;
    for (unsigned w = 0; w < workers; ++w) threads.emplace_back(work, w);
    {
        // A thread that loops without reaching a sync point cannot be
        // interrupted: say where it is and end the program.
        std::unique_lock lock(mutex);
        // After a second, a thread may be spinning on a flag: let the spin
        // watch make such threads yield (access.h).
        if (!finished.wait_for(lock, std::chrono::seconds(1), [&] { return running == 0; })) spin_watch = true;
        if (!finished.wait_for(lock, kernel_time_limit(), [&] { return running == 0; })) {
            std::vector<RunningThread> running;
            for (const WorkerView& view : views) {
                if (BlockRunner* runner = view.block.load()) running.push_back(running_thread(*runner));
            }
            std::fputs(kernel_never_finished(kernel_time_limit().count(), running).c_str(), stderr);
            std::fflush(nullptr);
            std::_Exit(124);
        }
    }
    for (std::thread& thread : threads) thread.join();
    spin_watch = false;
    {
        std::lock_guard lock(stats_mutex);
        last_stats = stats;
    }
    if (error) std::rethrow_exception(error);
    if (grid_accesses && grid_accesses->holds_fault()) throw KernelFault(grid_accesses->held_fault());
    if (profiled) {
        profile.kernel = launch.kernel        ? function_name(launch.kernel)
                         : launch.kernel_text ? launch.kernel_text
                                              : "a kernel";
        profile.grid = {grid.x, grid.y, grid.z};
        profile.block = {block.x, block.y, block.z};
        profile.dynamic_shared_bytes = dynamic_smem_bytes;
        for (std::size_t bytes : shared_arrays) profile.static_shared_bytes += bytes;
        profile.stats = stats;
        profile.lines = by_source_line(profile_by_code);
        profile.race = grid_order->first_race();
        earlier_stores->release();
        record_profile(std::move(profile), stored);
    }
}

}  // namespace

cudaError_t check_shape(const GridLaunch& launch) {
    const cudaError_t error =
        check_config(launch.grid, launch.block, launch.dynamic_smem_bytes, launch.kernel);
    return error != cudaSuccess
               ? error
               : check_group_launch(launch.grid, launch.block, launch.dynamic_smem_bytes, launch.groups);
}

std::function<void()> grid_work(GridLaunch launch) {
    return [launch = std::move(launch), device = current_device()] { run_grid(launch, device); };
}

cudaError_t launch_grid(GridLaunch launch, cudaStream_t stream) {
    const HostCall call = WARPDRILL_HOST_CALL("a kernel launch");
    if (const cudaError_t error = check_launch(launch, stream); error != cudaSuccess) {
        return record(launch_refused(stream, error));
    }
    if (const cudaError_t error = check_queue(stream, call); error != cudaSuccess) return error;
    enqueue(stream, WorkKind::kernel, grid_work(std::move(launch)));
    return cudaSuccess;
}

}  // namespace warpdrill::cpu::detail

namespace warpdrill::cpu {

void set_thread_order(ThreadOrder order, std::uint64_t seed) { detail::settings = {order, seed}; }
ThreadOrder thread_order() { return detail::settings.order; }

const char* to_string(ThreadOrder order) {
    switch (order) {
        case ThreadOrder::ascending: return "ascending";
        case ThreadOrder::descending: return "descending";
        case ThreadOrder::shuffled: return "shuffled";
    }
    return "?";
}

ScopedThreadOrder::ScopedThreadOrder(ThreadOrder order, std::uint64_t seed) : saved_(thread_order()) {
    set_thread_order(order, seed);
}
ScopedThreadOrder::~ScopedThreadOrder() { set_thread_order(saved_); }

LaunchStats& LaunchStats::operator+=(const LaunchStats& other) {
    blocks += other.blocks;
    threads += other.threads;
    block_barriers += other.block_barriers;
    warp_syncs += other.warp_syncs;
    shuffles += other.shuffles;
    votes += other.votes;
    atomics += other.atomics;
    warp_reductions += other.warp_reductions;
    grid_syncs += other.grid_syncs;
    cluster_syncs += other.cluster_syncs;
    wide_accesses += other.wide_accesses;
    return *this;
}

LaunchStats last_launch_stats() {
    std::lock_guard lock(detail::stats_mutex);
    return detail::last_stats;
}

}  // namespace warpdrill::cpu
