#include "coresident.h"

#include <link.h>

#include <algorithm>
#include <utility>

#include "access.h"
#include "device.h"
#include "program.h"
#include "sync_faults.h"
#include "warpdrill/messages.h"

namespace warpdrill::cpu::detail {
namespace {

thread_local unsigned this_slot = 0;  // the worker this OS thread is

// The executable's thread-local storage, where the kernels' __shared__
// variables are, is always the first module's (tls_variables() lists it).
constexpr std::size_t kExecutableTlsModule = 1;

std::uint64_t blocks_in(dim3 d) { return std::uint64_t{d.x} * d.y * d.z; }

// Where this OS thread keeps its thread-local variables, module by module.
std::vector<TlsBlock> this_threads_tls() {
    std::vector<TlsBlock> blocks;
    dl_iterate_phdr(
        [](dl_phdr_info* info, std::size_t, void* out) {
            if (info->dlpi_tls_modid == 0 || !info->dlpi_tls_data) return 0;
            for (int i = 0; i < info->dlpi_phnum; ++i) {
                if (info->dlpi_phdr[i].p_type != PT_TLS) continue;
                static_cast<std::vector<TlsBlock>*>(out)->push_back(
                    {info->dlpi_tls_modid, static_cast<std::byte*>(info->dlpi_tls_data),
                     info->dlpi_phdr[i].p_memsz});
            }
            return 0;
        },
        &blocks);
    return blocks;
}

}  // namespace

bool CoResidentBlocks::needed(const GroupLaunch& groups) {
    return groups.cooperative || blocks_in(groups.cluster) > 1;
}

CoResidentBlocks::CoResidentBlocks(dim3 grid, std::size_t dynamic_smem_bytes, const GroupLaunch& groups)
    : grid_(grid),
      dynamic_smem_bytes_(dynamic_smem_bytes),
      groups_(groups),
      cluster_blocks_(static_cast<unsigned>(blocks_in(groups.cluster))),
      gang_blocks_(groups.cooperative ? static_cast<unsigned>(blocks_in(grid)) : cluster_blocks_),
      rounds_(blocks_in(grid) / gang_blocks_),
      gangs_(static_cast<unsigned>(std::min<std::uint64_t>(rounds_, coresident_multiprocessors()))),
      slots_(std::size_t{gangs_} * gang_blocks_),
      cluster_barriers_(slots_.size() / cluster_blocks_),
      round_ends_(gangs_) {}

// Blocks are numbered cluster by cluster, and within a cluster by rank
// (x fastest), so that one gang's slots hold whole clusters.
uint3 CoResidentBlocks::block_of(std::uint64_t linear) const {
    const dim3 c = groups_.cluster;
    const std::uint64_t cluster = linear / cluster_blocks_;
    const unsigned rank = static_cast<unsigned>(linear % cluster_blocks_);
    const std::uint64_t clusters_x = grid_.x / c.x;
    const std::uint64_t clusters_y = grid_.y / c.y;
    return {static_cast<unsigned>(cluster % clusters_x * c.x + rank % c.x),
            static_cast<unsigned>(cluster / clusters_x % clusters_y * c.y + rank / c.x % c.y),
            static_cast<unsigned>(cluster / (clusters_x * clusters_y) * c.z + rank / (c.x * c.y))};
}

void CoResidentBlocks::run_blocks(unsigned worker, BlockRunner& runner, const std::atomic<bool>& failed) {
    this_slot = worker;
    {
        std::lock_guard lock(mutex_);
        slots_[worker].runner = &runner;
        slots_[worker].tls = this_threads_tls();
    }
    for (std::uint64_t round = worker / gang_blocks_; round < rounds_ && !failed; round += gangs_) {
        const uint3 block = block_of(round * gang_blocks_ + worker % gang_blocks_);
        {
            std::lock_guard lock(mutex_);
            slots_[worker].block = block;
        }
        runner.run(block);
        finish_block(worker);
    }
}

void CoResidentBlocks::abort() {
    {
        std::lock_guard lock(mutex_);
        aborted_ = true;
    }
    changed_.notify_all();
}

template <class Done>
void CoResidentBlocks::wait_until(std::unique_lock<std::mutex>& lock, Done done) {
    changed_.wait(lock, [&] { return done() || aborted_ || !fault_.empty(); });
    if (!fault_.empty()) throw KernelFault(fault_);
    if (aborted_) throw KernelFault(stopped_by_other_block());
}

// The `members` blocks from first_slot pass `barrier` together: all but the
// last to arrive wait; the last sets them all running again, each changed as
// on_pass says (what passing this barrier means for a block).
template <class OnPass>
void CoResidentBlocks::arrive(Barrier& barrier, unsigned first_slot, unsigned members,
                              std::unique_lock<std::mutex>& lock, unsigned slot, OnPass on_pass) {
    const std::uint64_t generation = barrier.generation;
    if (++barrier.arrived < members) {
        fault_if_stuck(slot);
        wait_until(lock, [&] { return barrier.generation != generation; });
        return;
    }
    barrier.arrived = 0;
    ++barrier.generation;
    for (unsigned s = first_slot; s < first_slot + members; ++s) {
        slots_[s].state = SlotState::running;
        on_pass(slots_[s]);
    }
    changed_.notify_all();
}

// A block that returns while another block of its cluster has read its
// shared memory since the last cluster barrier has left that read to chance.
// The gang's blocks then wait for each other, so that the next round of
// clusters starts together and no OS thread's shared memory goes away early.
void CoResidentBlocks::finish_block(unsigned slot) {
    std::unique_lock lock(mutex_);
    Slot& me = slots_[slot];
    const RemoteRead& read = me.last_remote_read;
    if (read.happened && read.cluster_syncs == me.cluster_syncs) {
        throw KernelFault(in_block(
            me.block, block_returned_while_read(slot % cluster_blocks_, read.reader_rank, read.where)));
    }
    me.state = SlotState::returned;
    // The next round's blocks start with no cluster barrier passed and no remote read.
    arrive(round_ends_[slot / gang_blocks_], first_slot_of_gang(slot), gang_blocks_, lock, slot,
           [](Slot& next) {
               next.cluster_syncs = 0;
               next.last_remote_read = {};
           });
}

void CoResidentBlocks::wait(SyncKind kind, Where where) {
    const unsigned slot = this_slot;
    std::unique_lock lock(mutex_);
    Slot& me = slots_[slot];
    me.state = SlotState::waiting;
    me.kind = kind;
    me.where = where;
    if (kind == SyncKind::grid_sync) {
        arrive(grid_barrier_, first_slot_of_gang(slot), gang_blocks_, lock, slot, [](Slot&) {});
    } else {
        arrive(cluster_barriers_[slot / cluster_blocks_], first_slot_of_cluster(slot), cluster_blocks_, lock,
               slot, [](Slot& member) { ++member.cluster_syncs; });
    }
}

// A barrier completes only when its last block arrives; so when every block
// of the gang waits or has returned, none of them can ever go on.
void CoResidentBlocks::fault_if_stuck(unsigned slot) {
    const unsigned first = first_slot_of_gang(slot);
    bool waiting = false;
    for (unsigned s = first; s < first + gang_blocks_; ++s) {
        if (slots_[s].state == SlotState::running) return;
        waiting |= slots_[s].state == SlotState::waiting;
    }
    if (!waiting) return;
    fault_ = describe_stuck(first, gang_blocks_);
    changed_.notify_all();
    throw KernelFault(fault_);
}

std::string CoResidentBlocks::describe_stuck(unsigned first, unsigned count) const {
    std::vector<BlocksAt> waiting;  // by barrier, in the order first met
    std::vector<uint3> returned;
    for (unsigned s = first; s < first + count; ++s) {
        const Slot& slot = slots_[s];
        if (slot.state == SlotState::returned) {
            returned.push_back(slot.block);
            continue;
        }
        auto at = std::ranges::find_if(waiting, [&](const BlocksAt& place) {
            return place.kind == slot.kind && same_place(place.where, slot.where);
        });
        if (at == waiting.end()) at = waiting.insert(waiting.end(), {slot.kind, slot.where, {}});
        at->blocks.push_back(slot.block);
    }
    return blocks_stuck(waiting, returned);
}

std::uintptr_t CoResidentBlocks::map_shared_rank(const BlockRunner& caller, std::uintptr_t address,
                                                 std::size_t bytes, int rank, Where where) {
    const unsigned slot = this_slot;
    const unsigned my_rank = slot % cluster_blocks_;
    std::lock_guard lock(mutex_);
    const Slot& me = slots_[slot];
    if (rank < 0 || rank >= static_cast<int>(cluster_blocks_)) {
        caller.fault_here(shared_rank_outside_cluster(where, rank, cluster_blocks_));
    }
    const SharedRegion region = locate(caller, me, address, where);
    if (region.offset + bytes > region.size) {
        caller.fault_here(shared_rank_past_end(where, bytes, region.offset, region.what, region.size, rank));
    }
    Slot& target = slots_[first_slot_of_cluster(slot) + static_cast<unsigned>(rank)];
    if (static_cast<unsigned>(rank) != my_rank) {
        if (me.cluster_syncs == 0) caller.fault_here(shared_rank_before_first_sync(where, rank));
        if (target.state == SlotState::returned) {
            caller.fault_here(shared_rank_of_returned_block(where, rank, target.block));
        }
        target.last_remote_read = {true, me.cluster_syncs, my_rank, where};
    }
    std::byte* const mapped = region_base(target, region) + region.start;
    // The caller's accesses through the pointer it gets have their bounds
    // checked against what it mapped, as its own shared memory's are.
    if (static_cast<unsigned>(rank) != my_rank && active_watch) {
        active_watch->map_remote_shared(
            reinterpret_cast<std::uintptr_t>(mapped), region.size,
            messages::text("backend.region.of_block_rank", {{"region", region.what}, {"rank", rank}}));
    }
    return reinterpret_cast<std::uintptr_t>(mapped + region.offset);
}

CoResidentBlocks::SharedRegion CoResidentBlocks::locate(const BlockRunner& caller, const Slot& slot,
                                                        std::uintptr_t address, Where where) const {
    for (const TlsBlock& tls : slot.tls) {
        const auto data = reinterpret_cast<std::uintptr_t>(tls.data);
        if (address >= data && address < data + tls.size) {
            if (tls.module == kExecutableTlsModule) return locate_variable(caller, address - data, where);
            return {address - data, tls.size, messages::text("backend.region.static_shared_memory"),
                    tls.module};
        }
    }
    // An address up to the most dynamic shared memory a block may have past
    // its start is read as an offset into it, so that an index past its end
    // is reported as such.
    const auto dynamic = reinterpret_cast<std::uintptr_t>(slot.runner->dynamic_shared_memory());
    if (dynamic_smem_bytes_ > 0 && address >= dynamic && address < dynamic + kMaxDynamicSharedBytes) {
        return {address - dynamic, dynamic_smem_bytes_,
                messages::text("backend.region.dynamic_shared_memory"), 0};
    }
    caller.fault_here(shared_rank_of_unshared_address(where));
}

// The __shared__ variable at `offset` in the executable's thread-local storage.
CoResidentBlocks::SharedRegion CoResidentBlocks::locate_variable(const BlockRunner& caller, std::size_t offset,
                                                                 Where where) const {
    const std::vector<TlsVariable>& variables = tls_variables();
    const auto next = std::ranges::upper_bound(variables, offset, {}, &TlsVariable::tls_offset);
    std::optional<PastArray> near;
    if (next != variables.begin()) {
        const TlsVariable& variable = *std::prev(next);
        const std::string name = short_name(variable.name);
        if (variable.shared && offset < variable.tls_offset + variable.bytes) {
            return {offset - variable.tls_offset, variable.bytes,
                    messages::text("backend.region.shared_array", {{"array", name}}), kExecutableTlsModule,
                    variable.tls_offset};
        }
        if (variable.shared) {
            near = PastArray{offset - variable.tls_offset - variable.bytes, name, variable.bytes};
        }
    }
    caller.fault_here(shared_rank_in_no_variable(where, near));
}

// Every OS thread has the same modules' static thread-local storage.
std::byte* CoResidentBlocks::region_base(const Slot& slot, const SharedRegion& region) const {
    if (region.tls_module == 0) return slot.runner->dynamic_shared_memory();
    return std::ranges::find(slot.tls, region.tls_module, &TlsBlock::module)->data;
}

}  // namespace warpdrill::cpu::detail
