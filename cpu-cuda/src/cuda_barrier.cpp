// cuda::barrier<cuda::thread_scope_block> (<cuda/barrier>) in the scheduler:
// a phase counts its arrivals, the last one completes it and wakes the
// threads that wait for it, and a wait that no arrival will end is named as
// a deadlock. The answers are an H200's (cpu-cuda/tests/gpu/barrier_probe.cu,
// results/barrier-probe-h200.txt): a token tells phases apart by their
// parity, a barrier used before init() is synccheck's "Missing init", and a
// waiter that a second phase overtakes waits on (synccheck's "Missing wait").
#include <algorithm>
#include <optional>

#include "access.h"
#include "scheduler.h"
#include "sync_faults.h"

namespace warpdrill::cpu::detail {
namespace {

constexpr std::uint32_t kBarrierReady = 0xba5e1170u;
// An mbarrier counts arrivals in 20 bits: cuda::barrier::max().
constexpr std::ptrdiff_t kMaxArrivals = (1 << 20) - 1;

bool same_parity(std::uint32_t a, std::uint32_t b) { return ((a ^ b) & 1u) == 0; }

}  // namespace

void BlockRunner::check_barrier(const BarrierState& barrier, SyncKind call, Where where) const {
    if (barrier.ready == kBarrierReady && barrier.block == linear_block()) return;
    // Only a fault looks for the learner's line (in a library, on the stack).
    const SyncCall sync_call{call, running_sync_place(where)};
    if (barrier.ready != kBarrierReady) fault_here(barrier_missing_init(sync_call));
    if (barrier.block != linear_block()) fault_here(barrier_of_other_block(sync_call, barrier.block));
}

void BlockRunner::barrier_init(BarrierState& barrier, std::ptrdiff_t expected, Where where) {
    if (expected < 0 || expected > kMaxArrivals) {
        fault_here(barrier_expected_out_of_range({SyncKind::barrier_init, running_sync_place(where)},
                                                 expected, kMaxArrivals));
    }
    const auto count = static_cast<std::int32_t>(expected);
    barrier = {kBarrierReady, 0, count, count, 0, linear_block()};
}

Arrival BlockRunner::barrier_arrive(BarrierState& barrier, std::ptrdiff_t update, bool drop, Where where) {
    check_barrier(barrier, SyncKind::barrier_arrive, where);
    if (update < 1 || update > barrier.pending) {
        fault_here(barrier_too_many_arrivals({SyncKind::barrier_arrive, running_sync_place(where)}, update,
                                             barrier.pending));
    }
    if (watch_) {
        watch_->sync_point();
        watch_->barrier_arrive(running_->rank);
    }
    barrier.pending -= static_cast<std::int32_t>(update);
    if (drop) ++barrier.dropped;
    const bool completes = barrier.pending == 0;
    if (completes && watch_) {
        // The completion step comes after every arrival of the phase, and
        // this thread takes it (the completion function) as one that has passed them.
        watch_->barrier_phase();
        watch_->barrier_passed(running_->rank);
    }
    return {barrier.phase, completes};
}

void BlockRunner::barrier_complete_phase(BarrierState& barrier) {
    barrier.expected -= barrier.dropped;
    barrier.dropped = 0;
    barrier.pending = barrier.expected;
    ++barrier.phase;
    if (watch_) watch_->barrier_phase();  // the completion step comes before every waiter goes on
    const auto address = reinterpret_cast<std::uintptr_t>(&barrier);
    for (FiberThread& thread : threads_) {
        const SyncPoint& sync = thread.sync;
        if (thread.state == ThreadState::waiting && is_barrier_wait(sync.kind) && sync.bits == address &&
            !same_parity(static_cast<std::uint32_t>(sync.param), barrier.phase)) {
            thread.state = ThreadState::ready;
        }
    }
}

// Waits while the barrier's phase has the token's parity, as an mbarrier's
// wait does: a waiter woken by its phase's end that a second phase overtakes
// before it runs again waits on.
void BlockRunner::barrier_wait(const BarrierState& barrier, std::uint32_t phase, Where where, SyncKind kind) {
    check_barrier(barrier, kind, where);
    if (watch_) watch_->sync_point();
    FiberThread& self = *running_;
    while (same_parity(barrier.phase, phase)) {
        self.sync = {kind, 0, 0, static_cast<int>(phase), reinterpret_cast<std::uintptr_t>(&barrier), where};
        yield(self);
    }
    if (watch_) watch_->barrier_passed(self.rank);
}

// The try_wait family: whether the phase has completed, looked at once now
// and once after the other threads have run (where a GPU lets some time
// pass). A thread that only ever tries is a spinning one: if no thread does
// anything else, the block's spin watch names it.
bool BlockRunner::barrier_try_wait(const BarrierState& barrier, std::uint32_t phase, Where where) {
    check_barrier(barrier, SyncKind::barrier_wait, where);
    if (watch_) watch_->sync_point();
    FiberThread& self = *running_;
    if (same_parity(barrier.phase, phase)) {
        self.sync = {SyncKind::barrier_try_wait,
                     0,
                     0,
                     static_cast<int>(phase),
                     reinterpret_cast<std::uintptr_t>(&barrier),
                     where};
        ++spinners_;
        self.fiber.suspend();  // stays ready: runs again next round
        if (same_parity(barrier.phase, phase)) return false;
    }
    if (watch_) watch_->barrier_passed(self.rank);
    return true;
}

std::optional<int> BlockRunner::barrier_try_waiter() const {
    for (const FiberThread& thread : threads_) {
        const SyncPoint& sync = thread.sync;
        if (thread.state != ThreadState::ready || sync.kind != SyncKind::barrier_try_wait) continue;
        const auto& barrier = *reinterpret_cast<const BarrierState*>(sync.bits);
        if (same_parity(barrier.phase, static_cast<std::uint32_t>(sync.param))) return thread.rank;
    }
    return std::nullopt;
}

// Every thread that can move waits (or, in the try_wait family, only tries):
// name the barrier's waiters, its phase,
// and where the arrivals it lacks are.
void BlockRunner::report_barrier_deadlock(int rank) {
    const SyncPoint& first = threads_[rank].sync;
    const auto& barrier = *reinterpret_cast<const BarrierState*>(first.bits);
    std::vector<int> waiting, exited;
    std::optional<int> elsewhere;
    for (const FiberThread& thread : threads_) {
        if (thread.state == ThreadState::exited) {
            exited.push_back(thread.rank);
        } else if (is_barrier_wait(thread.sync.kind) && thread.sync.bits == first.bits) {
            waiting.push_back(thread.rank);
        } else if (!elsewhere) {
            elsewhere = thread.rank;
        }
    }
    capture_stacks(elsewhere ? std::vector<int>{rank, *elsewhere} : std::vector<int>{rank});
    BarrierDeadlock deadlock{.waiting = waiting,
                             .wait = {first.kind, sync_place(rank)},
                             .token_phase = static_cast<std::uint32_t>(first.param),
                             .phase = barrier.phase,
                             .arrived = barrier.expected - barrier.pending,
                             .expected = barrier.expected,
                             .exited = exited,
                             .other = elsewhere ? std::optional(waiter(*elsewhere)) : std::nullopt};
    fault(barrier_deadlock(deadlock));
}

void barrier_init(BarrierState* barrier, std::ptrdiff_t expected, Where where) {
    block_of_caller().barrier_init(*barrier, expected, where);
}

Arrival barrier_arrive(BarrierState* barrier, std::ptrdiff_t update, bool drop, Where where) {
    return block_of_caller().barrier_arrive(*barrier, update, drop, where);
}

void barrier_complete_phase(BarrierState* barrier) { block_of_caller().barrier_complete_phase(*barrier); }

void barrier_wait(const BarrierState* barrier, std::uint32_t phase, Where where, SyncKind kind) {
    block_of_caller().barrier_wait(*barrier, phase, where, kind);
}

bool barrier_try_wait(const BarrierState* barrier, std::uint32_t phase, Where where) {
    return block_of_caller().barrier_try_wait(*barrier, phase, where);
}

}  // namespace warpdrill::cpu::detail
