#include "scheduler.h"

#include "access.h"
#include "device_memory.h"
#include "faults.h"
#include "launch_faults.h"
#include "program.h"
#include "sync_faults.h"
#include "warnings.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <bit>
#include <functional>
#include <iterator>
#include <string>
#include <thread>

namespace warpdrill::cpu::detail {
namespace {

constexpr int kWarpSize = 32;
constexpr unsigned kFullMask = 0xffffffffu;

thread_local BlockRunner* current_block = nullptr;

bool is_block_kind(SyncKind kind) { return kind <= SyncKind::cluster_sync; }
bool is_group_barrier(SyncKind kind) { return kind == SyncKind::grid_sync || kind == SyncKind::cluster_sync; }
bool is_shuffle(SyncKind kind) { return kind >= SyncKind::shfl_idx && kind <= SyncKind::shfl_xor; }
bool is_reduction(SyncKind kind) { return kind >= SyncKind::reduce_add && kind <= SyncKind::reduce_max; }
// A shuffle's width must be a power of two from 1 to 32; other intrinsics have
// none. (Not std::has_single_bit: without -mpopcnt that is a library call,
// and this runs for every lane of every warp intrinsic.)
bool width_allowed(SyncKind kind, int width) {
    return !is_shuffle(kind) || (width >= 1 && width <= kWarpSize && (width & (width - 1)) == 0);
}

}  // namespace

namespace {

bool same_intrinsic(const SyncPoint& a, const SyncPoint& b) {
    return a.kind == b.kind && a.mask == b.mask && a.width == b.width &&
           (a.kind == SyncKind::syncwarp || same_place(a.where, b.where));
}

// How threads that left the kernel passed by the barrier at `place`, as the
// source reads: a branch around it, a return before it, a loop around it.
std::optional<BarrierBypass> bypass_of(const SourcePlace& place) {
    if (const auto branch = enclosing_branch(place.file, place.line)) return BarrierBypass{Bypass::branch, *branch};
    if (const auto early = return_before(place.file, place.line)) return BarrierBypass{Bypass::early_return, *early};
    if (const auto loop = enclosing_loop(place.file, place.line)) return BarrierBypass{Bypass::loop, *loop};
    return std::nullopt;
}

// The source lane a shuffle reads, exactly as the hardware computes it (PTX
// ISA, shfl.sync): the width is encoded as a segment mask of 32 - width, and
// only the low five bits of the lane or offset count. Lanes whose source
// falls outside their segment read their own value. Verified against every
// width and parameter measured on a GPU (cpu-cuda/tests/data/shuffle_truth.txt).
int shuffle_source_lane(SyncKind kind, int lane, int param, int width) {
    const int segment_mask = (kWarpSize - width) & 31;
    const int b = param & 31;
    const int clamp = kind == SyncKind::shfl_up ? 0 : 31;
    const int max_lane = (lane & segment_mask) | (clamp & ~segment_mask & 31);
    const int min_lane = lane & segment_mask;
    int source = lane;
    bool in_range = false;
    switch (kind) {
        case SyncKind::shfl_up:
            source = lane - b;
            in_range = source >= max_lane;
            break;
        case SyncKind::shfl_down:
            source = lane + b;
            in_range = source <= max_lane;
            break;
        case SyncKind::shfl_xor:
            source = lane ^ b;
            in_range = source <= max_lane;
            break;
        default:
            source = min_lane | (b & ~segment_mask & 31);
            in_range = source <= max_lane;
            break;
    }
    return in_range ? source : lane;
}

// One step of __reduce_*_sync over 32-bit values, signed or unsigned.
std::uint32_t combine(SyncKind kind, bool is_signed, std::uint32_t a, std::uint32_t b) {
    if (kind == SyncKind::reduce_add) return a + b;  // wraps around, as the hardware's does
    const bool a_less = is_signed ? static_cast<std::int32_t>(a) < static_cast<std::int32_t>(b) : a < b;
    return (kind == SyncKind::reduce_min) == a_less ? a : b;
}

}  // namespace

BlockRunner::BlockRunner(const GridShape& shape, StackCache& stacks)
    : shape_(shape),
      stacks_(stacks),
      thread_count_(static_cast<int>(shape.block.x * shape.block.y * shape.block.z)),
      threads_(static_cast<std::size_t>(thread_count_)),
      order_(static_cast<std::size_t>(thread_count_)),
      dynamic_smem_(shape.launch) {
    const dim3 block = shape.block;
    for (int rank = 0; rank < thread_count_; ++rank) {
        order_[rank] = shape.order == ThreadOrder::descending ? thread_count_ - 1 - rank : rank;
        const unsigned r = static_cast<unsigned>(rank);
        threads_[rank].vars = {
            {r % block.x, r / block.x % block.y, r / (block.x * block.y)}, {}, block, shape.grid};
        threads_[rank].rank = rank;
        threads_[rank].block = this;
    }
    const std::uintptr_t tls = tls_block();
    for (const TlsVariable& variable : tls_variables()) {
        if (!variable.shared) continue;
        const std::uintptr_t start = tls + variable.tls_offset;
        static_shared_.emplace_back(reinterpret_cast<std::byte*>(start), variable.bytes);
        static_shared_low_ = static_shared_low_ ? std::min(static_shared_low_, start) : start;
        static_shared_high_ = std::max(static_shared_high_, start + variable.bytes);
    }
}

void BlockRunner::run(uint3 block_idx) {
    block_idx_ = block_idx;
    exited_ = 0;
    at_block_sync_ = 0;
    thread_error_ = nullptr;
    shuffle_rng_.seed(shape_.seed ^ (0x9e3779b97f4a7c15ull * (block_idx.x + 1)) ^ block_idx.y ^
                      (std::uint64_t{block_idx.z} << 32));
    // Uninitialised shared memory reads as NaN (floats) or -1 (integers).
    std::memset(dynamic_smem_.data(), 0xff, shape_.dynamic_smem_bytes);
    for (const auto& [start, bytes] : static_shared_) std::memset(start, 0xff, bytes);
    ++stats_.blocks;
    stats_.threads += static_cast<std::uint64_t>(thread_count_);

    current_block = this;
    if (watch_)
        watch_->start_block(linear_block(), reinterpret_cast<std::uintptr_t>(dynamic_shared_memory()));
    start_threads();
    spinning_since_ = {};
    while (exited_ < thread_count_) {
        spinners_ = 0;
        const int ran = run_ready_threads();
        if (thread_error_) {
            bury_callback_fibers();
            std::rethrow_exception(thread_error_);
        }
        if (exited_ == thread_count_) break;
        // With every thread at a block barrier (the common round), no warp intrinsic waits.
        const bool all_at_block_sync = at_block_sync_ == thread_count_ - exited_;
        if ((!all_at_block_sync && complete_warp_syncs()) || complete_block_barrier() || spinners_ < ran) {
            spinning_since_ = {};
            continue;
        }
        if (spinners_ == 0) report_deadlock();
        // Only spinning threads ran: the value they wait for may come from
        // another block, on another worker. Give it time, then say so.
        const auto now = std::chrono::steady_clock::now();
        if (spinning_since_ == std::chrono::steady_clock::time_point{}) spinning_since_ = now;
        if (now - spinning_since_ > std::chrono::seconds(2)) report_spin_deadlock();
        std::this_thread::yield();
    }
    current_block = nullptr;
    if (watch_) watch_->end_block();
}

// A fiber suspended inside an instrumentation callback must not be unwound
// (its caller has no unwind information for that call): it is kept, never
// resumed, and its stack is not reused.
void BlockRunner::bury_callback_fibers() {
    for (FiberThread& thread : threads_) {
        if (thread.in_callback) thread.fiber.abandon();
        thread.in_callback = false;
    }
}

std::uint32_t BlockRunner::linear_block() const {
    return block_idx_.x + shape_.grid.x * (block_idx_.y + shape_.grid.y * block_idx_.z);
}

void BlockRunner::start_threads() {
    // threadIdx, blockDim and gridDim were set once (the constructor).
    for (FiberThread& thread : threads_) {
        thread.vars.block_idx = block_idx_;
        thread.state = ThreadState::ready;
        thread.spin_address = 0;
        thread.spin_reads = 0;
        thread.fiber.start(stacks_, &BlockRunner::run_thread, &thread);
    }
}

void BlockRunner::run_thread(void* fiber_thread) {
    FiberThread& thread = *static_cast<FiberThread*>(fiber_thread);
    BlockRunner& self = *thread.block;
    try {
        (*self.shape_.thread_body)();
        if (self.watch_) self.watch_->sync_point();
    } catch (const FiberUnwind&) {
        throw;  // the block ended before this thread did: let it unwind
    } catch (...) {
        self.thread_error_ = std::current_exception();
    }
    thread.state = ThreadState::exited;
    ++self.exited_;
}

namespace {
// The running kernel thread's variables; set before each fiber is resumed.
thread_local const BuiltinVariables* builtins = nullptr;
}  // namespace

uint3 thread_idx() { return builtins->thread_idx; }
uint3 block_idx() { return builtins->block_idx; }
dim3 block_dim() { return builtins->block_dim; }
dim3 grid_dim() { return builtins->grid_dim; }

// Accesses are tracked while a kernel thread runs, never while the scheduler does.
void BlockRunner::resume(FiberThread& thread) {
    running_ = &thread;
    builtins = &thread.vars;
    active_watch = watch_;
    thread.fiber.resume();
    active_watch = nullptr;
    running_ = nullptr;
}

void BlockRunner::capture_stacks(const std::vector<int>& ranks) {
    for (const int rank : ranks) {
        FiberThread& thread = threads_[rank];
        if (thread.state != ThreadState::waiting || !thread.stack.empty()) continue;
        if (!is_library_file(checkout_path(thread.sync.where.file_name()))) continue;
        thread.stack_wanted = true;
        resume(thread);
    }
}

SourcePlace BlockRunner::sync_place(int rank) const {
    const FiberThread& thread = threads_[rank];
    if (!thread.stack.empty()) {
        const SourcePlace learner = place_on_stack(thread.stack);
        if (learner.line != 0 && !is_library_file(learner.file)) return learner;
    }
    return {checkout_path(thread.sync.where.file_name()), thread.sync.where.line(), "", "", ""};
}

SourcePlace BlockRunner::running_sync_place(Where where) const {
    const SourcePlace place{checkout_path(where.file_name()), where.line(), "", "", ""};
    if (!is_library_file(place.file)) return place;
    const SourcePlace learner = place_on_stack(call_stack());
    return learner.line != 0 && !is_library_file(learner.file) ? learner : place;
}

const std::vector<int>& BlockRunner::next_order() {
    if (shape_.order == ThreadOrder::shuffled) std::shuffle(order_.begin(), order_.end(), shuffle_rng_);
    return order_;
}

int BlockRunner::run_ready_threads() {
    int ran = 0;
    for (int rank : next_order()) {
        FiberThread& thread = threads_[rank];
        if (thread.state == ThreadState::ready) {
            resume(thread);
            ++ran;
        }
        if (thread_error_) break;
    }
    return ran;
}

// ---- called from inside a fiber ------------------------------------------------

// Inline: a call here would push registers onto every thread's stack, one
// cache line more each thread touches at every barrier.
[[gnu::always_inline]] inline void BlockRunner::arrive_at_block_sync(const FiberThread& thread) {
    const SyncPoint& mine = thread.sync;
    if (at_block_sync_++ == 0) {
        barrier_ = mine;
        barrier_agrees_ = true;
        barrier_votes_ = 0;
    }
    barrier_agrees_ = barrier_agrees_ && mine.kind == barrier_.kind && same_place(mine.where, barrier_.where);
    barrier_votes_ += mine.param != 0;
}

unsigned BlockRunner::block_sync(SyncKind kind, int predicate, Where where) {
    if (watch_) watch_->sync_point();
    FiberThread& self = *running_;
    self.sync = {kind, 0, 0, predicate, 0, where};
    arrive_at_block_sync(self);
    yield(self);
    return static_cast<unsigned>(self.result);
}

// Inline into warp_sync() below, its one caller: with seven arguments, the
// call would take a frame of its own on every lane's stack.
[[gnu::always_inline]] inline std::uint64_t BlockRunner::warp_sync(SyncKind kind, unsigned mask, int width,
                                                                   int param, std::uint64_t bits,
                                                                   Where where) {
    if (watch_) watch_->sync_point();
    FiberThread& self = *running_;
    const int lane = self.rank % kWarpSize;
    if (!(mask >> lane & 1u) || (mask & ~existing_lanes(self.rank / kWarpSize)) ||
        !width_allowed(kind, width)) {
        mask = check_warp_call(kind, mask, width, where);
    }
    self.sync = {kind, mask, width, param, bits, where};
    yield(self);
    return self.result;
}

// Apart from warp_sync so that its frame, on every lane's stack at every
// warp intrinsic, holds none of the strings these messages are made of.
unsigned BlockRunner::check_warp_call(SyncKind kind, unsigned mask, int width, Where where) {
    const FiberThread& self = *running_;
    const int lane = self.rank % kWarpSize;
    const auto call = [&] { return SyncCall{kind, running_sync_place(where)}; };
    if (!(mask >> lane & 1u)) fault_here(caller_outside_mask(call(), mask, lane));
    // Lanes a partial warp does not have count as exited, as the Programming
    // Guide's rule reads ("all non-exited threads named in mask must execute
    // the same intrinsic"); only a read from one is undefined (fault_source_lane).
    const unsigned missing = mask & ~existing_lanes(self.rank / kWarpSize);
    if (missing) {
        warn("missing lanes " + where_text(where),
             [&] { return mask_names_missing_lanes(call(), mask, missing, thread_count_); });
        mask &= ~missing;
    }
    if (!width_allowed(kind, width)) fault_here(bad_shuffle_width(call(), width));
    return mask;
}

void BlockRunner::note_branch(bool taken, const char* statement, Where where) {
    if (watch_) watch_->branch(running_->rank, statement, where, taken);
}

void BlockRunner::fail_running(const std::string& what) {
    FiberThread& self = *running_;
    try {
        fault(what);  // the message names the threads itself
    } catch (...) {
        thread_error_ = std::current_exception();
    }
    self.in_callback = true;
    self.state = ThreadState::waiting;
    self.fiber.suspend();
    std::abort();  // never resumed
}

void BlockRunner::watch_spin(std::uintptr_t address) {
    constexpr unsigned kSpinReads = 1024;
    FiberThread& self = *running_;
    if (address == self.spin_address) {
        if (++self.spin_reads < kSpinReads) return;
    } else {
        // Only memory that other threads can write counts (not the stack, nor
        // the backend's own variables that threadIdx and the like read).
        const auto dynamic = reinterpret_cast<std::uintptr_t>(dynamic_shared_memory());
        const bool shared = address - static_shared_low_ < static_shared_high_ - static_shared_low_ ||
                            address - dynamic < shape_.dynamic_smem_bytes;
        if (shared || is_device_address(address)) {
            self.spin_address = address;
            self.spin_reads = 0;
        }
        return;
    }
    self.spin_reads = 0;
    ++spinners_;
    self.in_callback = true;
    self.fiber.suspend();  // stays ready: runs again next round
    self.in_callback = false;
}

unsigned BlockRunner::existing_lanes(int warp) const {
    const int lanes = std::min(kWarpSize, thread_count_ - warp * kWarpSize);
    return lanes >= kWarpSize ? kFullMask : (1u << lanes) - 1;
}

unsigned BlockRunner::live_lanes(int warp) const {
    const unsigned existing = existing_lanes(warp);
    unsigned live = 0;
    for (int lane = 0; lane < kWarpSize; ++lane) {
        if (!(existing >> lane & 1u)) break;
        if (threads_[warp * kWarpSize + lane].state != ThreadState::exited) live |= 1u << lane;
    }
    return live;
}

// ---- completing sync points -------------------------------------------------------

bool BlockRunner::complete_warp_syncs() {
    bool progressed = false;
    for (int rank = 0; rank < thread_count_; ++rank) {
        const FiberThread& thread = threads_[rank];
        if (thread.state != ThreadState::waiting || is_block_kind(thread.sync.kind)) continue;
        if (is_barrier_wait(thread.sync.kind)) continue;  // woken by the phase's last arrival
        if (is_coalesce(thread.sync.kind)) {
            progressed |= complete_coalesce_from(rank);  // groups.cpp
        } else if (is_tile_collective(thread.sync.kind)) {
            progressed |= complete_tile_collective_from(rank);  // groups.cpp
        } else {
            progressed |= complete_warp_sync_from(rank);
        }
    }
    return progressed;
}

// Completes the warp intrinsic `rank` waits at once every lane of its mask
// is there too or has returned: the Programming Guide asks "all non-exited
// threads named in mask" to execute it, so a lane that returned takes no
// part (only a shuffle that reads it is undefined: fault_source_lane).
bool BlockRunner::complete_warp_sync_from(int rank) {
    const SyncPoint& mine = threads_[rank].sync;
    const int base = rank / kWarpSize * kWarpSize;
    unsigned arrived = 0;
    for (int lane = 0; lane < kWarpSize; ++lane) {
        if (!(mine.mask >> lane & 1u)) continue;
        const FiberThread& other = threads_[base + lane];
        if (other.state == ThreadState::exited) continue;
        if (other.state != ThreadState::waiting) return false;  // still running (spinning)
        if (is_block_kind(other.sync.kind)) return false;     // may still arrive, or a deadlock
        if (!same_intrinsic(mine, other.sync)) return false;  // may still arrive, or a mismatch
        arrived |= 1u << lane;
    }
    if (arrived != mine.mask) warn_returned_lanes(rank, mine.mask & ~arrived);
    complete_warp_sync(base, arrived);
    return true;
}

void BlockRunner::warn_returned_lanes(int rank, unsigned returned) {
    const SyncPoint& sync = threads_[rank].sync;
    warn("returned lanes " + where_text(sync.where), [&] {
        capture_stacks({rank});
        return mask_names_returned_lanes(waiter(rank), sync.mask, returned);
    });
}

void BlockRunner::complete_warp_sync(int base, unsigned mask) {
    const SyncPoint& first = threads_[base + std::countr_zero(mask)].sync;
    if (is_shuffle(first.kind)) {
        complete_shuffle(base, mask, first);
    } else {
        complete_warp_collective(base, mask, first);
    }
    if (watch_) watch_->warp_sync(first.kind, base, mask, live_lanes(base / kWarpSize));
    if (first.kind == SyncKind::syncwarp)
        ++stats_.warp_syncs;
    else if (is_shuffle(first.kind))
        ++stats_.shuffles;
    else if (is_reduction(first.kind))
        ++stats_.warp_reductions;
    else
        ++stats_.votes;
}

// Each lane of `mask` reads the value its source lane brought.
void BlockRunner::complete_shuffle(int base, unsigned mask, const SyncPoint& first) {
    for (unsigned lanes = mask; lanes; lanes &= lanes - 1) {
        const int lane = std::countr_zero(lanes);
        FiberThread& thread = threads_[base + lane];
        const int source = shuffle_source_lane(first.kind, lane, thread.sync.param, first.width);
        if (!(mask >> source & 1u)) fault_source_lane(base + lane, source);
        thread.result = threads_[base + source].sync.bits;
        thread.state = ThreadState::ready;
    }
}

// A vote, match, reduction or __syncwarp(): every lane of `mask` gets the same answer, or its own match.
void BlockRunner::complete_warp_collective(int base, unsigned mask, const SyncPoint& first) {
    unsigned votes = 0;
    for (int lane = 0; lane < kWarpSize; ++lane) {
        if (mask >> lane & 1u && threads_[base + lane].sync.param) votes |= 1u << lane;
    }
    // __match_all_sync: the mask if every lane holds the first lane's value.
    const unsigned all_match =
        first.kind == SyncKind::match_all && lanes_holding(base, mask, first.bits) == mask ? mask : 0;
    // __reduce_*_sync: the first lane's value, then the others'.
    std::uint32_t reduced = static_cast<std::uint32_t>(first.bits);
    for (int lane = std::countr_zero(mask) + 1; is_reduction(first.kind) && lane < kWarpSize; ++lane) {
        if (mask >> lane & 1u)
            reduced = combine(first.kind, first.param, reduced,
                              static_cast<std::uint32_t>(threads_[base + lane].sync.bits));
    }
    for (int lane = 0; lane < kWarpSize; ++lane) {
        if (!(mask >> lane & 1u)) continue;
        FiberThread& thread = threads_[base + lane];
        switch (first.kind) {
            case SyncKind::ballot: thread.result = votes; break;
            case SyncKind::any: thread.result = votes != 0; break;
            case SyncKind::all: thread.result = votes == mask; break;
            case SyncKind::match_any: thread.result = lanes_holding(base, mask, thread.sync.bits); break;
            case SyncKind::match_all: thread.result = all_match; break;
            case SyncKind::reduce_add:
            case SyncKind::reduce_min:
            case SyncKind::reduce_max: thread.result = reduced; break;
            default: thread.result = 0; break;  // __syncwarp()
        }
        thread.state = ThreadState::ready;
    }
}

// The lanes of `mask` that brought exactly these bits to a match.
unsigned BlockRunner::lanes_holding(int base, unsigned mask, std::uint64_t bits) const {
    unsigned lanes = 0;
    for (int lane = 0; lane < kWarpSize; ++lane) {
        if (mask >> lane & 1u && threads_[base + lane].sync.bits == bits) lanes |= 1u << lane;
    }
    return lanes;
}

// Reading a lane that takes no part in the shuffle is undefined in CUDA (the
// lane may not be there, or hold anything): a fault, not a made-up value.
void BlockRunner::fault_source_lane(int rank, int source) {
    capture_stacks({rank});
    const SyncPoint& sync = threads_[rank].sync;
    const int base = rank / kWarpSize * kWarpSize;
    const AbsentLane why = !(existing_lanes(rank / kWarpSize) >> source & 1u) ? AbsentLane::missing
                           : !(sync.mask >> source & 1u)                      ? AbsentLane::outside_mask
                                                                              : AbsentLane::returned;
    fault(shuffle_reads_absent_lane({waiter(rank), sync.mask, sync.width, sync.param, source}, why,
                                    thread_count_, describe_thread(base + source)));
}

bool BlockRunner::complete_block_barrier() {
    // A thread still running (spinning) or at a warp intrinsic has not arrived.
    if (at_block_sync_ == 0 || at_block_sync_ != thread_count_ - exited_) return false;
    if (!barrier_agrees_ || exited_ > 0) fault_at_barrier();
    if (watch_) {
        std::vector<unsigned> live(static_cast<std::size_t>((thread_count_ + kWarpSize - 1) / kWarpSize));
        for (std::size_t warp = 0; warp < live.size(); ++warp) live[warp] = live_lanes(static_cast<int>(warp));
        watch_->block_barrier(live);
    }
    if (is_group_barrier(barrier_.kind)) {
        wait_for_other_blocks(*this, barrier_.kind, barrier_.where);  // coresident.cpp
        if (watch_) watch_->group_barrier(barrier_.kind);
    }
    for (FiberThread& thread : threads_) {
        if (thread.state != ThreadState::waiting) continue;
        thread.result = barrier_votes_;
        thread.state = ThreadState::ready;
    }
    at_block_sync_ = 0;
    ++(barrier_.kind == SyncKind::grid_sync      ? stats_.grid_syncs
       : barrier_.kind == SyncKind::cluster_sync ? stats_.cluster_syncs
                                                 : stats_.block_barriers);
    return true;
}

// Every thread that has not left waits at a block-wide sync point, but not
// all at the same one, or some threads have left the kernel.
void BlockRunner::fault_at_barrier() {
    std::vector<int> waiting;
    for (const FiberThread& thread : threads_) {
        if (thread.state == ThreadState::waiting) waiting.push_back(thread.rank);
    }
    const SyncPoint& first = threads_[waiting.front()].sync;
    const auto at_first = [&](int rank) {
        const SyncPoint& sync = threads_[rank].sync;
        return sync.kind == first.kind && same_place(sync.where, first.where);
    };
    if (!std::ranges::all_of(waiting, at_first)) {
        std::vector<int> elsewhere;
        std::ranges::copy_if(waiting, std::back_inserter(elsewhere), std::not_fn(at_first));
        std::erase_if(waiting, std::not_fn(at_first));
        capture_stacks({waiting.front(), elsewhere.front()});
        fault(barriers_differ(waiting, {first.kind, sync_place(waiting.front())}, elsewhere,
                              waiter(elsewhere.front())));
    }
    fault_exit_before_barrier(waiting);
}

// Threads left the kernel while the others wait at a barrier: either the
// barrier sits in a branch those threads did not take, or they returned early.
void BlockRunner::fault_exit_before_barrier(const std::vector<int>& waiting) {
    std::vector<int> exited;
    for (const FiberThread& thread : threads_) {
        if (thread.state == ThreadState::exited) exited.push_back(thread.rank);
    }
    capture_stacks({waiting.front()});
    // The learner's line: a barrier inside a helper is judged where the helper is called.
    const SyncCall barrier{threads_[waiting.front()].sync.kind, sync_place(waiting.front())};
    fault(exit_before_barrier(waiting, barrier, exited, bypass_of(barrier.place)));
}

// Nothing can move: name the first lane that waits for a lane which is
// somewhere else.
void BlockRunner::report_deadlock() {
    for (const FiberThread& thread : threads_) {
        if (thread.state == ThreadState::waiting && is_barrier_wait(thread.sync.kind)) {
            report_barrier_deadlock(thread.rank);  // cuda_barrier.cpp
        }
    }
    for (const FiberThread& thread : threads_) {
        if (thread.state != ThreadState::waiting || is_block_kind(thread.sync.kind)) continue;
        if (is_tile_collective(thread.sync.kind)) report_tile_mismatch(thread.rank);  // groups.cpp
        const SyncPoint& mine = thread.sync;
        const int base = thread.rank / kWarpSize * kWarpSize;
        for (int lane = 0; lane < kWarpSize; ++lane) {
            const SyncPoint& theirs = threads_[base + lane].sync;
            if (!(mine.mask >> lane & 1u) || same_intrinsic(mine, theirs)) continue;
            capture_stacks({thread.rank, base + lane});
            if (is_block_kind(theirs.kind)) {
                fault(lane_waits_at_barrier(waiter(thread.rank), mine.mask, lane, waiter(base + lane)));
            }
            fault(lanes_disagree(lane_call(thread.rank), lane_call(base + lane)));
        }
    }
    fault(no_thread_can_proceed());
}

void BlockRunner::report_spin_deadlock() {
    if (const std::optional<int> rank = barrier_try_waiter()) report_barrier_deadlock(*rank);
    std::vector<int> waiting;
    for (const FiberThread& thread : threads_) {
        if (thread.state == ThreadState::waiting) waiting.push_back(thread.rank);
    }
    std::vector<int> spinning;
    for (const FiberThread& thread : threads_) {
        if (thread.state == ThreadState::ready) spinning.push_back(thread.rank);
    }
    fault(spin_without_writer(spinning,
                              waiting.empty() ? std::nullopt : std::optional(waiter(waiting.front()))));
}

// ---- diagnostics ----------------------------------------------------------------------

std::string BlockRunner::describe_thread(int rank) const {
    if (shape_.block.y * shape_.block.z > 1) return thread_text({rank, threads_[rank].vars.thread_idx});
    return thread_text({rank});
}

Waiter BlockRunner::waiter(int rank) const {
    return {describe_thread(rank), {threads_[rank].sync.kind, sync_place(rank)}};
}

LaneCall BlockRunner::lane_call(int rank) const {
    const SyncPoint& sync = threads_[rank].sync;
    return {waiter(rank), sync.mask, is_shuffle(sync.kind) ? std::optional(sync.width) : std::nullopt};
}

void BlockRunner::fault(const std::string& what) const { throw KernelFault(in_block(block_idx_, what)); }

void BlockRunner::fault_here(const std::string& what) const {
    fault(by_thread(describe_thread(running_->rank), what));
}

void BlockRunner::lacks_here(const std::string& what) const {
    throw BackendLacks(in_block(block_idx_, by_thread(describe_thread(running_->rank), what)));
}

void BlockRunner::fail_here(const std::string& what) {
    fail_running(by_thread(describe_thread(running_->rank), what));
}

// ---- the entry points the intrinsics call -------------------------------------------------

BlockRunner* running_block() { return current_block && current_block->running() ? current_block : nullptr; }

bool in_kernel() { return running_block() != nullptr; }

BlockRunner& block_of_caller() {
    if (!current_block || !current_block->running()) {
        throw KernelFault(intrinsic_outside_kernel());
    }
    return *current_block;
}

unsigned block_sync(SyncKind kind, int predicate, Where where) {
    return block_of_caller().block_sync(kind, predicate, where);
}

std::uint64_t warp_sync(SyncKind kind, unsigned mask, int width, int param, std::uint64_t bits,
                        Where where) {
    return block_of_caller().warp_sync(kind, mask, width, param, bits, where);
}

void note_branch(bool taken, const char* statement, Where where) {
    if (BlockRunner* block = running_block()) block->note_branch(taken, statement, where);
}

std::atomic<bool> spin_watch{false};

void watch_spin(std::uintptr_t address) {
    if (current_block && current_block->running()) current_block->watch_spin(address);
}

void index_out_of_bounds(const char* array_type, long long index, const char* file, unsigned line) {
    const std::string text = index_past_end(index, array_type, checkout_path(file), line);
    if (BlockRunner* block = running_block()) block->fail_here(text);
    std::fprintf(stderr, "%s\n", in_host_code(text).c_str());  // host code: say so and go on, as C++ would
}

bool assert_failed_in_kernel(const char* assertion, const char* file, unsigned line, const char* function) {
    BlockRunner* block = running_block();
    if (!block) return false;
    block->fail_here(
        assert_failed(assertion, checkout_path(file), line, function, block_idx(), thread_idx()));
}

void count_atomic() {
    if (current_block) current_block->count_atomic();
}

std::byte* dynamic_shared_memory() { return block_of_caller().dynamic_shared_memory(); }

void check_alignment(const void* address, std::size_t alignment, Where where) {
    if (reinterpret_cast<std::uintptr_t>(address) % alignment != 0) {
        block_of_caller().fault_here(misaligned_vector_access(alignment, where));
    }
}

void trap(Where where) {
    block_of_caller().fault_here(trap_called(where));
}

}  // namespace warpdrill::cpu::detail
