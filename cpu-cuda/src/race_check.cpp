#include "race_check.h"

#include <algorithm>
#include <cstring>

#include "access.h"
#include "program.h"
#include "scheduler.h"
#include "warnings.h"

namespace warpdrill::cpu::detail {

namespace {

constexpr int kWarpSize = 32;
constexpr std::size_t kWord = 4;

std::atomic<std::uint64_t> block_runs{0};

// The bits of `count` bytes from byte `offset` of a word (bit i: byte i).
std::uint8_t byte_mask(std::size_t offset, std::size_t count) {
    return static_cast<std::uint8_t>(((1u << count) - 1) << offset);
}

// The cell as this generation (a launch, or a block's run) sees it: empty if
// an earlier one last touched it.
ShadowCell& current(ShadowCell& cell, std::uint64_t generation) {
    if (cell.generation != generation) cell = ShadowCell{generation, {}, {}, {}, {}};
    return cell;
}

}  // namespace

// ---- GridOrder ------------------------------------------------------------------

GridOrder::GridOrder(std::uint64_t launch, dim3 grid)
    : launch_(launch),
      blocks_(std::size_t{grid.x} * grid.y * grid.z),
      fences_(std::make_unique<std::atomic<std::uint32_t>[]>(blocks_)),
      stripes_(std::make_unique<std::mutex[]>(kStripes)) {}

void GridOrder::atomic(std::uintptr_t address, std::uint32_t block) {
    std::lock_guard lock(mutex_);
    std::vector<std::uint32_t>& released = released_[address];
    std::vector<std::uint32_t>& acquired = acquired_[block];
    if (released.empty()) released.assign(blocks_, 0);
    if (acquired.empty()) acquired.assign(blocks_, 0);
    // Acquire: every earlier atomic on this address happened before this one.
    for (std::size_t b = 0; b < blocks_; ++b) acquired[b] = std::max(acquired[b], released[b]);
    // Release what this block has fenced, and what it acquired before.
    for (std::size_t b = 0; b < blocks_; ++b) released[b] = std::max(released[b], acquired[b]);
    released[block] = std::max(released[block], fences(block));
}

bool GridOrder::acquired(std::uint32_t block, std::uint32_t writer, std::uint32_t fences) const {
    std::lock_guard lock(mutex_);
    const auto found = acquired_.find(block);
    return found != acquired_.end() && found->second[writer] > fences;
}

bool GridOrder::took_atomic(std::uint32_t block) const {
    std::lock_guard lock(mutex_);
    return acquired_.contains(block);
}

void GridOrder::note_race(std::string message) {
    std::lock_guard lock(mutex_);
    if (first_race_.empty()) first_race_ = std::move(message);
    noted_race_.store(true, std::memory_order_relaxed);
}

std::string GridOrder::first_race() const {
    std::lock_guard lock(mutex_);
    return first_race_;
}

// ---- RaceCheck ------------------------------------------------------------------

RaceCheck::RaceCheck(const BlockWatch& watch, GridOrder& order, int threads, std::size_t dynamic_smem_bytes,
                     bool stop_at_race)
    : watch_(watch),
      order_(order),
      threads_(threads),
      warps_((threads + kWarpSize - 1) / kWarpSize),
      stop_at_race_(stop_at_race),
      held_epochs_(static_cast<std::size_t>(threads), kNotHeld),
      clocks_(static_cast<std::size_t>(threads) * kWarpSize),
      tile_clocks_(static_cast<std::size_t>(warps_) * warps_),
      dynamic_cells_(make_zeroed<ShadowCell>((dynamic_smem_bytes + kWord - 1) / kWord)) {
    for (const TlsVariable& variable : tls_variables()) {
        array_cells_.push_back(make_zeroed<ShadowCell>(variable.shared ? (variable.bytes + kWord - 1) / kWord : 0));
    }
}

void RaceCheck::start_block(std::uint32_t linear_block) {
    block_ = linear_block;
    epoch_ = 0;
    if (held_ > 0) std::ranges::fill(held_epochs_, kNotHeld);
    held_ = 0;
    grid_syncs_ = 0;
    cluster_syncs_ = 0;
    generation_ = ++block_runs;
    // A lane knows nothing of the others yet (0), and its own accesses are
    // at clock 1 until its first __syncwarp().
    std::ranges::fill(clocks_, 0u);
    for (int rank = 0; rank < threads_; ++rank) clocks_[static_cast<std::size_t>(rank) * kWarpSize + rank % kWarpSize] = 1;
    // The same for warps and the barriers of tiles of several warps.
    std::ranges::fill(tile_clocks_, 0u);
    for (int warp = 0; warp < warps_; ++warp) tile_clocks_[static_cast<std::size_t>(warp) * warps_ + warp] = 1;
}

void RaceCheck::block_barrier(const std::vector<unsigned>& /*live*/) {
    ++epoch_;
    // Every thread is here: none holds an arrival's epoch any longer.
    if (held_ > 0) std::ranges::fill(held_epochs_, kNotHeld);
    held_ = 0;
}

void RaceCheck::barrier_arrive(int thread) {
    std::uint32_t& held = held_epochs_[static_cast<std::size_t>(thread)];
    if (held != kNotHeld) return;
    held = epoch_;
    ++held_;
}

void RaceCheck::barrier_passed(int thread) {
    std::uint32_t& held = held_epochs_[static_cast<std::size_t>(thread)];
    if (held == kNotHeld) return;
    held = kNotHeld;
    --held_;
}

void RaceCheck::warp_sync(SyncKind kind, int base, unsigned mask, unsigned /*live*/) {
    if (kind == SyncKind::syncwarp) warp_barrier(base, mask);
}

void RaceCheck::warp_barrier(int base, unsigned mask) {
    // Every lane of the mask now knows what every other lane of it did.
    std::uint32_t joined[kWarpSize] = {};
    for (int lane = 0; lane < kWarpSize; ++lane) {
        if (!(mask >> lane & 1u)) continue;
        const std::uint32_t* view = &clocks_[static_cast<std::size_t>(base + lane) * kWarpSize];
        for (int other = 0; other < kWarpSize; ++other) joined[other] = std::max(joined[other], view[other]);
    }
    for (int lane = 0; lane < kWarpSize; ++lane) {
        if (!(mask >> lane & 1u)) continue;
        std::uint32_t* view = &clocks_[static_cast<std::size_t>(base + lane) * kWarpSize];
        std::copy(joined, joined + kWarpSize, view);
        ++view[lane];
    }
}

// Each warp of the tile has seen what the others did, and each lane of them
// what its warp's lanes did.
void RaceCheck::tile_barrier(int first_warp, int warps) {
    std::vector<std::uint32_t> joined(static_cast<std::size_t>(warps_));
    for (int warp = first_warp; warp < first_warp + warps; ++warp) {
        const std::uint32_t* view = &tile_clocks_[static_cast<std::size_t>(warp) * warps_];
        for (int other = 0; other < warps_; ++other) joined[other] = std::max(joined[other], view[other]);
    }
    for (int warp = first_warp; warp < first_warp + warps; ++warp) {
        std::uint32_t* view = &tile_clocks_[static_cast<std::size_t>(warp) * warps_];
        std::ranges::copy(joined, view);
        ++view[warp];
        warp_barrier(warp * kWarpSize, ~0u);
    }
}

void RaceCheck::group_barrier(SyncKind kind) {
    if (kind == SyncKind::grid_sync) ++grid_syncs_;
    if (kind == SyncKind::cluster_sync) ++cluster_syncs_;
}

void RaceCheck::fence(bool device_scope) {
    if (device_scope) order_.fence(block_);
}

bool RaceCheck::same_cluster(std::uint32_t a, std::uint32_t b) const {
    const dim3 cluster = watch_.runner().shape().groups.cluster;
    const uint3 x = watch_.block_index(a), y = watch_.block_index(b);
    return x.x / cluster.x == y.x / cluster.x && x.y / cluster.y == y.y / cluster.y && x.z / cluster.z == y.z / cluster.z;
}

Access RaceCheck::record(const ObservedAccess& observed) const {
    const int rank = observed.thread;
    Access access;
    access.code = observed.code;
    access.block = block_;
    access.epoch = held_ > 0 && held_epochs_[static_cast<std::size_t>(rank)] != kNotHeld
                       ? held_epochs_[static_cast<std::size_t>(rank)]
                       : epoch_;
    access.clock = clocks_[static_cast<std::size_t>(rank) * kWarpSize + rank % kWarpSize];
    access.tile_clock = tile_clocks_[static_cast<std::size_t>(rank / kWarpSize) * warps_ + rank / kWarpSize];
    access.fences = order_.fences(block_);
    access.grid_syncs = grid_syncs_;
    access.cluster_syncs = cluster_syncs_;
    access.thread = static_cast<std::uint16_t>(rank);
    access.kind = observed.ordering();
    access.bytes = observed.bytes >= kWord ? 0xf : byte_mask(observed.address % kWord, observed.bytes);
    return access;
}

bool RaceCheck::ordered(const Access& before, const Access& now) const {
    if (before.block != now.block) {
        // Every block passes each grid barrier, so one passed since the access orders it.
        if (now.grid_syncs > before.grid_syncs) return true;
        if (now.cluster_syncs > before.cluster_syncs && same_cluster(before.block, now.block)) return true;
        return order_.acquired(now.block, before.block, before.fences);
    }
    if (before.thread == now.thread || before.epoch < now.epoch) return true;
    const int before_warp = before.thread / kWarpSize, now_warp = now.thread / kWarpSize;
    if (before_warp != now_warp) {
        // After a tile barrier of both warps, this warp's view of the other covers the clock it accessed at.
        return tile_clocks_[static_cast<std::size_t>(now_warp) * warps_ + before_warp] >= before.tile_clock;
    }
    // After a __syncwarp() of both lanes, this lane's view of the other covers the clock it accessed at.
    return clocks_[static_cast<std::size_t>(now.thread) * kWarpSize + before.thread % kWarpSize] >= before.clock;
}

ShadowCell* RaceCheck::cell_of(const ObservedAccess& access) {
    if (access.space == MemorySpace::shared) {
        ShadowCell* cells = access.array >= 0 ? array_cells_[access.array].get() : dynamic_cells_.get();
        return cells ? &cells[(access.address - access.start) / kWord] : nullptr;
    }
    DeviceAllocation* allocation = access.allocation;
    // Not under the cell's lock: two words of one buffer may have different locks.
    std::call_once(allocation->shadow_made,
                   [allocation] { allocation->shadow = make_zeroed<ShadowCell>((allocation->bytes + kWord - 1) / kWord); });
    return &allocation->shadow[(access.address - allocation->start) / kWord];
}

void RaceCheck::access(const ObservedAccess& observed) {
    sync_point();  // the write waiting for its value is done
    if (observed.input) return;
    ShadowCell* cell = cell_of(observed);
    if (!cell) return;
    const bool global = observed.space == MemorySpace::global;
    const Access now = record(observed);
    std::optional<Access> conflict, unordered;
    if (global) {
        std::lock_guard guard(order_.cell_lock(observed.address));
        conflict = check(*cell, true, now, unordered);
    } else {
        conflict = check(*cell, false, now, unordered);
    }
    if (unordered) warn_unordered_read(observed, *unordered, now);
    if (conflict && may_write_same_value(*conflict, now, observed.bytes)) {
        PendingWrite write{observed, *conflict, now};
        std::memcpy(write.earlier.data(), reinterpret_cast<const void*>(observed.address), observed.bytes);
        pending_write_ = write;
        conflict.reset();
    }
    if (conflict) race(observed, *conflict, now);  // the lock is released
    if (global && is_atomic(now.kind) && is_write(now.kind)) order_.atomic(observed.address, block_);
}

bool RaceCheck::may_write_same_value(const Access& before, const Access& now, std::size_t bytes) {
    return before.kind == AccessKind::write && now.kind == AccessKind::write && before.block == now.block &&
           before.thread / kWarpSize == now.thread / kWarpSize && bytes <= 16;
}

void RaceCheck::settle(const PendingWrite& write) {
    if (std::memcmp(reinterpret_cast<const void*>(write.access.address), write.earlier.data(), write.access.bytes) != 0) {
        return race(write.access, write.before, write.now);  // a profiled launch goes on (race's comment)
    }
    warn("same value " + std::to_string(write.before.code) + " " + std::to_string(write.now.code), [&] {
        return same_value_writes(watch_.element_name(write.access), accessor(write.now), accessor(write.before));
    });
}

bool RaceCheck::atomic_update_and_plain_read(const Access& before, const Access& now) {
    return (before.kind == AccessKind::atomic_write && now.kind == AccessKind::read) ||
           (before.kind == AccessKind::read && now.kind == AccessKind::atomic_write);
}

void RaceCheck::warn_unordered_read(const ObservedAccess& observed, const Access& before,
                                    const Access& now) const {
    warn("atomic and read " + std::to_string(before.code) + " " + std::to_string(now.code), [&] {
        const bool read_first = before.kind == AccessKind::read;
        const Accessor now_by{thread_text({now.thread}), running_place(now.code)};
        return atomic_update_and_plain_read_warning(watch_.element_name(observed),
                                                    read_first ? accessor(before) : now_by,
                                                    read_first ? now_by : accessor(before));
    });
}

std::optional<Access> RaceCheck::check(ShadowCell& shadow, bool global, const Access& now,
                                       std::optional<Access>& unordered) {
    ShadowCell& cell = current(shadow, global ? order_.launch() : generation_);
    const auto conflicts = [&](const Access& before) {
        if (!before.overlaps(now) || (is_atomic(before.kind) && is_atomic(now.kind)) ||
            ordered(before, now)) {
            return false;
        }
        if (global || !atomic_update_and_plain_read(before, now)) return true;
        unordered = before;
        return false;
    };
    for (Access* write : {&cell.write, &cell.other_write}) {
        if (!conflicts(*write)) continue;
        const Access earlier = *write;
        if (may_write_same_value(earlier, now, 0)) *write = now;  // settled once the write is done
        return earlier;
    }
    if (is_write(now.kind)) {
        if (conflicts(cell.read)) return cell.read;
        if (conflicts(cell.other_read)) return cell.other_read;
        // A neighbour's write to other bytes of the word, which nothing orders before this one, is kept.
        if (!cell.write.overlaps(now) && !ordered(cell.write, now)) cell.other_write = cell.write;
        if (cell.other_write.overlaps(now)) cell.other_write = Access{};
        cell.write = now;
        for (Access* read : {&cell.read, &cell.other_read}) {
            if ((read->bytes & ~now.bytes) == 0) *read = Access{};  // ordered before this write, all its bytes
        }
    } else if (cell.read.valid() && !ordered(cell.read, now)) {
        cell.other_read = now;  // keep the earlier read: a write must come after both
    } else {
        cell.read = now;
    }
    return std::nullopt;
}

Accessor RaceCheck::accessor(const Access& access) const {
    const std::optional<uint3> other_block =
        access.block != block_ ? std::optional(watch_.block_index(access.block)) : std::nullopt;
    return {thread_text({.rank = access.thread, .block = other_block}), source_places({access.code})[0]};
}

void RaceCheck::race(const ObservedAccess& observed, const Access& before, const Access& now) const {
    if (!stop_at_race_ && order_.noted_race()) return;
    RaceCause cause = RaceCause::lanes_of_one_warp;
    std::string writer;
    if (before.block != now.block) {
        writer = dims(watch_.block_index(is_write(before.kind) ? before.block : now.block));
        if (!is_write(before.kind)) {
            cause = order_.took_atomic(before.block) ? RaceCause::read_before_write_ticket : RaceCause::read_before_write;
        } else if (order_.fences(before.block) == before.fences) {
            cause = RaceCause::no_fence;
        } else if (!order_.took_atomic(now.block)) {
            cause = RaceCause::no_ticket;
        } else {
            cause = RaceCause::ticket_before_fence;
        }
    } else if (before.thread / kWarpSize != now.thread / kWarpSize) {
        cause = RaceCause::different_warps;
    }
    const RaceAccess this_access{{thread_text({now.thread}), running_place(now.code)}, now.kind};
    const RaceAccess earlier{accessor(before), before.kind};
    std::string message = detail::race(watch_.element_name(observed), this_access, earlier, cause, writer);
    if (!stop_at_race_) return order_.note_race(in_block(watch_.block_index(), message));
    watch_.runner().fail_running(std::move(message));
}

}  // namespace warpdrill::cpu::detail
