// What <cuda/barrier> calls on the CPU backend: a barrier's state, and the
// functions that arrive at it and wait on it (cpu-cuda/src/cuda_barrier.cpp).
// The state is touched only there, in code the race checker does not watch:
// the barrier's own words are its business, as an mbarrier's are the GPU's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "warpdrill/cpu/cuda_runtime.h"

namespace warpdrill::cpu::detail {

// A __shared__ barrier starts as the block's shared memory does (every byte
// 0xff): `ready` tells an initialised one. Trivial, as a __shared__ variable must be.
struct BarrierState {
    std::uint32_t ready;    // kBarrierReady once init() ran
    std::uint32_t phase;    // phases completed since init()
    std::int32_t expected;  // arrivals a phase expects (arrive_and_drop() lowers it)
    std::int32_t pending;   // arrivals the current phase still expects
    std::int32_t dropped;   // arrivals dropped in the current phase, off from the next
    std::uint32_t block;    // the block that ran init() (linear index)
};
static_assert(std::is_trivial_v<BarrierState>);

struct Arrival {
    std::uint32_t phase;   // the phase arrived at, for the token
    bool completes_phase;  // the last arrival: the caller completes the phase (barrier_complete_phase)
};

void barrier_init(BarrierState* barrier, std::ptrdiff_t expected, Where where);
Arrival barrier_arrive(BarrierState* barrier, std::ptrdiff_t update, bool drop, Where where);
void barrier_complete_phase(BarrierState* barrier);
// `kind`: the call that waits (a pipeline's waits are on a stage's barrier).
void barrier_wait(const BarrierState* barrier, std::uint32_t phase, Where where,
                  SyncKind kind = SyncKind::barrier_wait);
// Whether the phase has completed, after the other threads have had a turn.
bool barrier_try_wait(const BarrierState* barrier, std::uint32_t phase, Where where);

}  // namespace warpdrill::cpu::detail
