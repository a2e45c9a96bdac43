#include "access.h"

#include <algorithm>
#include <cstdlib>
#include <optional>

#include "device.h"
#include "device_memory.h"
#include "host_memory.h"
#include "scheduler.h"
#include "warpdrill/messages.h"

namespace warpdrill::cpu::detail {

constinit thread_local BlockWatch* active_watch = nullptr;

namespace {

constexpr std::size_t kWord = 4;

// Whether kernels on GPU `device` may touch the buffer: managed memory, their
// own GPU's, or a peer's they were given access to.
bool reaches(int device, const DeviceAllocation& allocation) {
    return allocation.managed || may_access(device, allocation.device);
}

}  // namespace

void foreign_memory(BlockRunner& runner, const std::string& thread, std::size_t bytes, AccessKind kind,
                    std::uint32_t code, const std::string& what, int owner) {
    runner.fail_running(detail::foreign_memory({{thread, running_place(code)}, kind, bytes}, what, owner,
                                               runner.shape().device));
}

void check_device_access(std::uintptr_t address, std::size_t bytes, AccessKind kind, const void* instruction) {
    if (!is_device_address(address)) return;
    const DeviceAllocation* allocation = device_allocation_at(address);
    BlockRunner* runner = running_block();
    if (!allocation || !runner || reaches(runner->shape().device, *allocation)) return;
    foreign_memory(*runner, runner->describe_thread(runner->running()->rank), bytes, kind,
                   code_offset(instruction), messages::text("backend.access.a_buffer"), allocation->device);
}

bool tracks_launch(std::uint64_t threads) {
    static const std::string mode = [] {
        const char* env = std::getenv("WARPDRILL_MEMCHECK");
        return std::string(env ? env : "auto");
    }();
    if (mode == "off" || mode == "0") return false;
    if (mode == "all") return true;
    // Small launches are checked in full; large ones run at full speed (the
    // same kernel's small launches have already walked its code paths).
    return threads <= (std::uint64_t{1} << 17);
}

// ---- GridAccesses ---------------------------------------------------------------

GridAccesses::GridAccesses(dim3 grid, const void* kernel, std::vector<KernelArgument> arguments)
    : grid_(grid), kernel_(kernel), arguments_(std::move(arguments)) {
    code_offset(kernel);  // reads the executable's load address now, not from inside a kernel
    for (const KernelArgument& argument : arguments_) {
        const auto* pointer = reinterpret_cast<const void*>(argument.value);
        if (!pointer || argument.element_size == 0 || is_device_address(argument.value) || is_pinned(pointer)) continue;
        const std::size_t bytes = std::max(argument.element_size, host_bytes_from(pointer));
        host_arguments_.push_back({argument.value, bytes, argument.element_size, argument.index});
    }
}

const GridAccesses::HostArgument* GridAccesses::host_argument_at(std::uintptr_t address) const {
    for (const HostArgument& argument : host_arguments_) {
        if (address - argument.start < argument.bytes) return &argument;
    }
    return nullptr;
}

std::string GridAccesses::parameter_name(int index) const {
    std::call_once(names_once_, [&] { parameter_names_ = parameter_names(kernel_); });
    if (index < static_cast<int>(parameter_names_.size()) && !parameter_names_[index].empty()) {
        return parameter_names_[index];
    }
    return messages::text("backend.name.argument", {{"number", index + 1}});
}

void GridAccesses::hold_fault(std::string message) {
    std::lock_guard lock(held_mutex_);
    if (has_held_fault_.exchange(true)) return;
    held_fault_ = std::move(message);
}

std::string GridAccesses::element_name(std::uintptr_t address, const DeviceAllocation& allocation) const {
    if (allocation.variable) {
        if (allocation.bytes <= allocation.element_bytes) return allocation.variable;
        const std::size_t index = (address - allocation.start) / allocation.element_bytes;
        return std::string(allocation.variable) + "[" + std::to_string(index) + "]";
    }
    const std::uintptr_t start = allocation.start;
    const std::size_t bytes = allocation.bytes;
    for (const KernelArgument& argument : arguments_) {
        if (argument.value < start || argument.value > start + bytes || argument.element_size == 0) continue;
        const auto offset = static_cast<long long>(address) - static_cast<long long>(argument.value);
        const long long index = offset >= 0 ? offset / static_cast<long long>(argument.element_size)
                                            : -((-offset + static_cast<long long>(argument.element_size) - 1) /
                                                static_cast<long long>(argument.element_size));
        return parameter_name(argument.index) + "[" + std::to_string(index) + "]";
    }
    return "";
}

// ---- BlockWatch -----------------------------------------------------------------

BlockWatch::BlockWatch(BlockRunner& runner, GridAccesses& grid, std::size_t dynamic_smem_bytes)
    : runner_(runner), grid_(grid), dynamic_bytes_(dynamic_smem_bytes) {
    const std::uintptr_t tls = tls_block();
    for (const TlsVariable& variable : tls_variables()) arrays_.push_back({&variable, tls + variable.tls_offset});
    if (!arrays_.empty()) {
        arrays_low_ = arrays_.front().start;
        arrays_high_ = arrays_.back().start + arrays_.back().variable->bytes + kSharedMargin;
    }
}

void BlockWatch::add(BlockObserver& observer, bool sees_inputs) {
    observers_.push_back(&observer);
    if (sees_inputs) input_observers_.push_back(&observer);
}

void BlockWatch::start_block(std::uint32_t linear_block, std::uintptr_t dynamic_smem) {
    block_ = linear_block;
    dynamic_start_ = dynamic_smem;
    remote_windows_.clear();
    for (BlockObserver* observer : observers_) observer->start_block(linear_block);
}

void BlockWatch::warp_sync(SyncKind kind, int base, unsigned mask, unsigned live) {
    for (BlockObserver* observer : observers_) observer->warp_sync(kind, base, mask, live);
}

void BlockWatch::block_barrier(const std::vector<unsigned>& live) {
    for (BlockObserver* observer : observers_) observer->block_barrier(live);
}

void BlockWatch::tile_barrier(int first_warp, int warps) {
    for (BlockObserver* observer : observers_) observer->tile_barrier(first_warp, warps);
}

void BlockWatch::group_barrier(SyncKind kind) {
    for (BlockObserver* observer : observers_) observer->group_barrier(kind);
}

void BlockWatch::fence(bool device_scope) {
    for (BlockObserver* observer : observers_) observer->fence(device_scope);
}

void BlockWatch::barrier_arrive(int thread) {
    for (BlockObserver* observer : observers_) observer->barrier_arrive(thread);
}

void BlockWatch::barrier_phase() {
    for (BlockObserver* observer : observers_) observer->barrier_phase();
}

void BlockWatch::barrier_passed(int thread) {
    for (BlockObserver* observer : observers_) observer->barrier_passed(thread);
}

void BlockWatch::end_block() {
    for (BlockObserver* observer : observers_) observer->end_block();
}

void BlockWatch::count_wide_access() { runner_.count_wide_access(); }

ObservedAccess BlockWatch::observed(std::uintptr_t address, std::size_t bytes, AccessKind kind, const void* code,
                                    bool is_volatile) const {
    ObservedAccess access;
    access.address = address;
    access.bytes = bytes;
    access.kind = kind;
    access.is_volatile = is_volatile;
    access.code = code_offset(code);
    access.thread = runner_.running()->rank;
    return access;
}

void BlockWatch::observe(std::uintptr_t address, std::size_t bytes, AccessKind kind, const void* code,
                         bool is_volatile) {
    ObservedAccess access = observed(address, bytes, kind, code, is_volatile);
    if (!locate(access)) return;
    for (BlockObserver* observer : observers_) observer->access(access);
}

void BlockWatch::tell_input(std::uintptr_t address, std::size_t bytes, AccessKind kind, const void* code,
                            bool is_volatile) {
    ObservedAccess access = observed(address, bytes, kind, code, is_volatile);
    access.start = input_start_;
    access.input = true;
    for (BlockObserver* observer : input_observers_) observer->access(access);
}

bool BlockWatch::locate(ObservedAccess& access) {
    const std::uintptr_t address = access.address;
    if (dynamic_start_ && address - dynamic_start_ < kMaxDynamicSharedBytes) {
        if (address + access.bytes > dynamic_start_ + dynamic_bytes_) {
            out_of_bounds(access, in_dynamic_shared_memory(address - dynamic_start_, dynamic_bytes_));
        }
        access.space = MemorySpace::shared;
        access.start = dynamic_start_;
        return true;
    }
    if (address - arrays_low_ < arrays_high_ - arrays_low_) return locate_shared_array(access);
    if (is_device_address(address)) {
        locate_global(access);
        return true;
    }
    if (const std::optional<SharedWindowPlace> window = shared_window_at(address);
        window && window->launch != runner_.shape().launch) {
        runner_.fail_running(stale_shared_memory(bad_access(access), window->byte));
    }
    if (!remote_windows_.empty()) check_remote_bounds(access);
    if (grid_.has_host_arguments()) check_host_memory(access);
    return false;  // the thread's own stack (a value whose address a helper took)
}

bool BlockWatch::locate_shared_array(ObservedAccess& access) {
    const std::uintptr_t address = access.address;
    const auto next = std::ranges::upper_bound(arrays_, address, {}, &SharedArray::start);
    if (next == arrays_.begin()) return false;
    const SharedArray& array = *std::prev(next);
    const std::size_t size = array.variable->bytes;
    if (!array.variable->shared) return false;
    if (address + access.bytes <= array.start + size) {
        access.space = MemorySpace::shared;
        access.array = static_cast<int>(std::prev(next) - arrays_.begin());
        access.start = array.start;
        return true;
    }
    const bool just_past = address < array.start + size + kSharedMargin &&
                           (next == arrays_.end() || address + access.bytes <= next->start);
    if (just_past) {
        out_of_bounds(access, in_shared_array(short_name(array.variable->name), size, address - array.start));
    }
    return false;
}

void BlockWatch::locate_global(ObservedAccess& access) {
    const std::uintptr_t address = access.address;
    DeviceAllocation* allocation = device_allocation_at(address);
    if (!allocation || !allocation->fits(address, access.bytes)) {
        std::string what = in_no_buffer();
        if (const std::optional<FreedBuffer> freed = freed_buffer_at(address))
            what = in_freed_buffer(address - freed->start, freed->bytes);
        if (allocation) {
            what = in_buffer(grid_.element_name(address, *allocation), address - allocation->start,
                             buffer_description(*allocation));
        }
        out_of_bounds(access, what);
    }
    if (!reaches(runner_.shape().device, *allocation)) {
        const std::string element = grid_.element_name(address, *allocation);
        runner_.fail_running(detail::foreign_memory(
            bad_access(access), element.empty() ? messages::text("backend.access.a_buffer") : element,
            allocation->device, runner_.shape().device));
    }
    access.space = MemorySpace::global;
    access.allocation = allocation;
    access.start = allocation->start;
    // Races are looked for in buffers of up to 64 Ki words: outputs,
    // partial sums, counters. Larger ones are inputs, read by everyone.
    access.input = allocation->bytes > kRaceCheckedBytes;
    if (access.input && fully_written(*allocation)) {
        input_start_ = allocation->start;
        input_bytes_ = allocation->bytes;
    }
}

void BlockWatch::map_remote_shared(std::uintptr_t start, std::size_t bytes, std::string what) {
    const auto same = [&](const RemoteWindow& window) { return window.start == start; };
    if (std::ranges::none_of(remote_windows_, same)) remote_windows_.push_back({start, bytes, std::move(what)});
}

// An access through a pointer into another block's shared memory: inside a
// window this block mapped, or just past one (an index past the array's end).
void BlockWatch::check_remote_bounds(const ObservedAccess& access) {
    const RemoteWindow* overrun = nullptr;
    for (const RemoteWindow& window : remote_windows_) {
        const std::uintptr_t offset = access.address - window.start;
        if (offset < window.bytes && offset + access.bytes <= window.bytes) return;
        if (offset < window.bytes + kSharedMargin) overrun = &window;
    }
    if (!overrun) return;
    out_of_bounds(access, in_mapped_shared_memory(access.address - overrun->start, overrun->what, overrun->bytes));
}

void BlockWatch::check_host_memory(const ObservedAccess& access) {
    const GridAccesses::HostArgument* argument = grid_.host_argument_at(access.address);
    if (!argument) return;
    const std::string name = grid_.parameter_name(argument->index);
    const std::string element =
        name + "[" + std::to_string((access.address - argument->start) / argument->element_size) + "]";
    runner_.fail_running(host_memory(bad_access(access), element, name));
}

void BlockWatch::out_of_bounds(const ObservedAccess& access, const std::string& what) const {
    runner_.fail_running(detail::out_of_bounds(bad_access(access), what));
}

void BlockWatch::misaligned(std::uintptr_t address, std::size_t bytes, AccessKind kind, const void* instruction) {
    runner_.fail_running(detail::misaligned(bad_access(observed(address, bytes, kind, instruction, false)), address));
}

uint3 BlockWatch::block_index(std::uint32_t linear_block) const {
    const dim3 grid = grid_.grid();
    return {linear_block % grid.x, linear_block / grid.x % grid.y, linear_block / (grid.x * grid.y)};
}

std::string BlockWatch::element_name(const ObservedAccess& access) const {
    if (access.array >= 0) {
        const TlsVariable& variable = *arrays_[access.array].variable;
        const std::size_t unit = std::min(access.bytes, kWord);
        if (variable.bytes <= unit) return short_name(variable.name);  // a scalar: `count`, not `count[0]`
        return short_name(variable.name) + "[" + std::to_string((access.address - access.start) / unit) + "]";
    }
    if (access.allocation) {
        const std::string name = grid_.element_name(access.address, *access.allocation);
        if (!name.empty()) return name;
        return messages::text("backend.element.buffer_word",
                              {{"word", (access.address - access.start) / kWord}});
    }
    return messages::text("backend.element.dynamic_shared_word",
                          {{"word", (access.address - access.start) / kWord}});
}

Accessor BlockWatch::accessor(const ObservedAccess& access) const {
    return {thread_text({access.thread}), running_place(access.code)};
}

BadAccess BlockWatch::bad_access(const ObservedAccess& access) const {
    return {accessor(access), access.kind, access.bytes};
}

}  // namespace warpdrill::cpu::detail
