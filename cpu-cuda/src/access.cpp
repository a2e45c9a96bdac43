#include "access.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <sstream>

#include "device.h"
#include "device_memory.h"
#include "host_memory.h"
#include "scheduler.h"
#include "warnings.h"

namespace warpdrill::cpu::detail {

constinit thread_local BlockAccesses* active_accesses = nullptr;

namespace {

constexpr int kWarpSize = 32;
constexpr std::size_t kWord = 4;
constexpr std::size_t kRaceCheckedBytes = std::size_t{256} << 10;

std::atomic<std::uint64_t> block_runs{0};

bool is_write(AccessKind kind) {
    return kind == AccessKind::write || kind == AccessKind::atomic_write || kind == AccessKind::atomic_store;
}
bool is_atomic(AccessKind kind) {
    return kind == AccessKind::atomic_read || kind == AccessKind::atomic_write || kind == AccessKind::atomic_store;
}
bool reads_value(AccessKind kind) { return kind != AccessKind::write && kind != AccessKind::atomic_store; }

// "read it", "wrote it", ... with what the access was.
const char* verb(AccessKind kind) {
    switch (kind) {
        case AccessKind::read: return "read it";
        case AccessKind::write: return "wrote it";
        case AccessKind::atomic_read: return "read it (atomic or volatile)";
        case AccessKind::atomic_write: return "updated it (atomic)";
        case AccessKind::atomic_store: return "wrote it (atomic or volatile)";
    }
    return "?";
}

uint3 block_of(std::uint32_t linear, dim3 grid) {
    return {linear % grid.x, linear / grid.x % grid.y, linear / (grid.x * grid.y)};
}

// "reduce.cuh:14: `sdata[tid] += sdata[tid + s];`"
std::string place_with_text(const SourcePlace& place) {
    std::string text = to_string(place);
    const std::string line = place.line ? source_line(place.file, place.line) : "";
    if (!line.empty()) text += ": `" + line + "`";
    return text;
}

}  // namespace

void foreign_memory(BlockRunner& runner, const std::string& thread, std::size_t bytes, AccessKind kind,
                    std::uint32_t code, const std::string& what, int owner) {
    const SourcePlace place = running_place(code);
    const std::string device = std::to_string(runner.shape().device), other = std::to_string(owner);
    runner.fail_running((is_write(kind) ? "write" : "read") + std::string(" of ") + std::to_string(bytes) +
                        " bytes by " + thread + " at " + place_with_text(place) + ": the address is " + what +
                        ", in the memory of GPU " + other + ", but the kernel runs on GPU " + device +
                        ", and GPU " + device + " has no peer access to GPU " + other +
                        " (cudaDeviceEnablePeerAccess was not called for it; on a GPU the kernel stops with "
                        "an illegal address)");
}

void check_device_access(std::uintptr_t address, std::size_t bytes, AccessKind kind, const void* instruction) {
    if (!is_device_address(address)) return;
    const DeviceAllocation* allocation = device_allocation_at(address);
    BlockRunner* runner = running_block();
    if (!allocation || !runner || may_access(runner->shape().device, allocation->device)) return;
    foreign_memory(*runner, runner->describe_thread(runner->running()->rank), bytes, kind,
                   code_offset(instruction), "a cudaMalloc'd buffer", allocation->device);
}

void FreeShadow::operator()(ShadowCell* cells) const { std::free(cells); }

ShadowCells make_shadow(std::size_t words) {
    if (words == 0) return nullptr;
    auto* cells = static_cast<ShadowCell*>(std::calloc(words, sizeof(ShadowCell)));
    if (!cells) throw std::bad_alloc();
    return ShadowCells(cells);
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

GridAccesses::GridAccesses(std::uint64_t launch, dim3 grid, const void* kernel, std::vector<KernelArgument> arguments)
    : launch_(launch),
      grid_(grid),
      kernel_(kernel),
      arguments_(std::move(arguments)),
      fences_(std::make_unique<std::atomic<std::uint32_t>[]>(std::size_t{grid.x} * grid.y * grid.z)),
      stripes_(std::make_unique<std::mutex[]>(kStripes)) {
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
    return "argument " + std::to_string(index + 1);
}

void GridAccesses::atomic(std::uintptr_t address, std::uint32_t block) {
    const std::size_t blocks = std::size_t{grid_.x} * grid_.y * grid_.z;
    std::lock_guard lock(sync_mutex_);
    std::vector<std::uint32_t>& released = released_[address];
    std::vector<std::uint32_t>& acquired = acquired_[block];
    if (released.empty()) released.assign(blocks, 0);
    if (acquired.empty()) acquired.assign(blocks, 0);
    // Acquire: every earlier atomic on this address happened before this one.
    for (std::size_t b = 0; b < blocks; ++b) acquired[b] = std::max(acquired[b], released[b]);
    // Release what this block has fenced, and what it acquired before.
    for (std::size_t b = 0; b < blocks; ++b) released[b] = std::max(released[b], acquired[b]);
    released[block] = std::max(released[block], fences(block));
}

bool GridAccesses::acquired(std::uint32_t block, std::uint32_t writer, std::uint32_t fences) const {
    std::lock_guard lock(sync_mutex_);
    const auto found = acquired_.find(block);
    return found != acquired_.end() && found->second[writer] > fences;
}

bool GridAccesses::took_atomic(std::uint32_t block) const {
    std::lock_guard lock(sync_mutex_);
    return acquired_.contains(block);
}

void GridAccesses::hold_fault(std::string message) {
    std::lock_guard lock(sync_mutex_);
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

// ---- BlockAccesses --------------------------------------------------------------

BlockAccesses::BlockAccesses(BlockRunner& runner, GridAccesses& grid, int threads, std::size_t dynamic_smem_bytes)
    : runner_(runner),
      grid_(grid),
      threads_(threads),
      clocks_(static_cast<std::size_t>(threads) * kWarpSize),
      warps_((threads + kWarpSize - 1) / kWarpSize),
      tile_clocks_(static_cast<std::size_t>(warps_) * warps_),
      dynamic_bytes_(dynamic_smem_bytes),
      dynamic_shadow_(make_shadow((dynamic_smem_bytes + kWord - 1) / kWord)) {
    const std::uintptr_t tls = tls_block();
    for (const TlsVariable& variable : tls_variables()) {
        const std::size_t words = variable.shared ? (variable.bytes + kWord - 1) / kWord : 0;
        arrays_.push_back({&variable, tls + variable.tls_offset, make_shadow(words)});
    }
    if (!arrays_.empty()) {
        arrays_low_ = arrays_.front().start;
        arrays_high_ = arrays_.back().start + arrays_.back().variable->bytes + kSharedMargin;
    }
}

void BlockAccesses::start_block(std::uint32_t linear_block, std::uintptr_t dynamic_smem) {
    block_ = linear_block;
    epoch_ = 0;
    grid_syncs_ = 0;
    cluster_syncs_ = 0;
    generation_ = ++block_runs;
    dynamic_start_ = dynamic_smem;
    remote_windows_.clear();
    // A lane knows nothing of the others yet (0), and its own accesses are
    // at clock 1 until its first __syncwarp().
    std::ranges::fill(clocks_, 0u);
    for (int rank = 0; rank < threads_; ++rank) clocks_[static_cast<std::size_t>(rank) * kWarpSize + rank % kWarpSize] = 1;
    // The same for warps and the barriers of tiles of several warps.
    std::ranges::fill(tile_clocks_, 0u);
    for (int warp = 0; warp < warps_; ++warp) tile_clocks_[static_cast<std::size_t>(warp) * warps_ + warp] = 1;
}

void BlockAccesses::warp_barrier(int base, unsigned mask) {
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

void BlockAccesses::tile_barrier(int first_warp, int warps) {
    std::vector<std::uint32_t> joined(static_cast<std::size_t>(warps_));
    for (int warp = first_warp; warp < first_warp + warps; ++warp) {
        const std::uint32_t* view = &tile_clocks_[static_cast<std::size_t>(warp) * warps_];
        for (int other = 0; other < warps_; ++other) joined[other] = std::max(joined[other], view[other]);
    }
    for (int warp = first_warp; warp < first_warp + warps; ++warp) {
        std::uint32_t* view = &tile_clocks_[static_cast<std::size_t>(warp) * warps_];
        std::ranges::copy(joined, view);
        ++view[warp];
    }
}

void BlockAccesses::group_barrier(SyncKind kind) {
    if (kind == SyncKind::grid_sync) ++grid_syncs_;
    if (kind == SyncKind::cluster_sync) ++cluster_syncs_;
}

bool BlockAccesses::same_cluster(std::uint32_t a, std::uint32_t b) const {
    const dim3 cluster = runner_.shape().groups.cluster;
    const uint3 x = block_of(a, grid_.grid()), y = block_of(b, grid_.grid());
    return x.x / cluster.x == y.x / cluster.x && x.y / cluster.y == y.y / cluster.y && x.z / cluster.z == y.z / cluster.z;
}

void BlockAccesses::fence(bool device_scope) {
    if (device_scope) grid_.fence(block_);
}

namespace {

// The bits of `count` bytes from byte `offset` of a word (bit i: byte i).
std::uint8_t byte_mask(std::size_t offset, std::size_t count) {
    return static_cast<std::uint8_t>(((1u << count) - 1) << offset);
}

// The cell as this generation (a launch, or a block's run) sees it: empty if
// an earlier one last touched it.
ShadowCell& current(ShadowCell& cell, std::uint64_t generation) {
    if (cell.generation != generation) cell = ShadowCell{generation, 0, {}, {}, {}, {}};
    return cell;
}

}  // namespace

Access BlockAccesses::record(AccessKind kind, std::uint32_t code, std::uintptr_t address, std::size_t bytes) const {
    const int rank = runner_.running()->rank;
    Access access;
    access.code = code;
    access.block = block_;
    access.epoch = epoch_;
    access.clock = clocks_[static_cast<std::size_t>(rank) * kWarpSize + rank % kWarpSize];
    access.tile_clock = tile_clocks_[static_cast<std::size_t>(rank / kWarpSize) * warps_ + rank / kWarpSize];
    access.fences = grid_.fences(block_);
    access.grid_syncs = grid_syncs_;
    access.cluster_syncs = cluster_syncs_;
    access.thread = static_cast<std::uint16_t>(rank);
    access.kind = kind;
    access.bytes = bytes >= kWord ? 0xf : byte_mask(address % kWord, bytes);
    return access;
}

bool BlockAccesses::ordered(const Access& before, const Access& now) const {
    if (before.block != now.block) {
        // Every block passes each grid barrier, so one passed since the access orders it.
        if (now.grid_syncs > before.grid_syncs) return true;
        if (now.cluster_syncs > before.cluster_syncs && same_cluster(before.block, now.block)) return true;
        return grid_.acquired(now.block, before.block, before.fences);
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

std::optional<Access> BlockAccesses::check(Element& element, const Access& now) {
    ShadowCell& cell = current(*element.cell, element.global ? grid_.launch() : generation_);
    const auto conflicts = [&](const Access& before) {
        return before.overlaps(now) && !(is_atomic(before.kind) && is_atomic(now.kind)) && !ordered(before, now);
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

std::string BlockAccesses::name_of(const Element& element) const {
    if (element.array) {
        const std::size_t unit = std::min(element.size, kWord);
        return short_name(element.array->variable->name) + "[" +
               std::to_string((element.address - element.array->start) / unit) + "]";
    }
    if (element.allocation) {
        const std::string name = grid_.element_name(element.address, *element.allocation);
        return name.empty() ? "word " + std::to_string((element.address - element.allocation->start) / kWord) +
                                  " of a cudaMalloc'd buffer"
                            : name;
    }
    return "dynamic shared memory word " + std::to_string((element.address - dynamic_start_) / kWord);
}

BlockAccesses::Element BlockAccesses::classify(std::uintptr_t address, std::size_t bytes, AccessKind kind,
                                               std::uint32_t code) {
    if (dynamic_start_ && address - dynamic_start_ < kMaxDynamicSharedBytes) {
        if (address + bytes > dynamic_start_ + dynamic_bytes_) {
            out_of_bounds(bytes, kind, code,
                          "byte " + std::to_string(address - dynamic_start_) + " of the dynamic shared memory, which has " +
                              std::to_string(dynamic_bytes_) + " bytes (the launch's third parameter)");
        }
        return {&dynamic_shadow_[(address - dynamic_start_) / kWord], address};
    }
    if (address - arrays_low_ < arrays_high_ - arrays_low_) {
        auto next = std::ranges::upper_bound(arrays_, address, {}, &SharedArray::start);
        if (next != arrays_.begin()) {
            SharedArray& array = *std::prev(next);
            const std::size_t size = array.variable->bytes;
            if (!array.variable->shared) return {};
            if (address + bytes <= array.start + size) return {&array.shadow[(address - array.start) / kWord], address, &array};
            const bool just_past = address < array.start + size + kSharedMargin &&
                                   (next == arrays_.end() || address + bytes <= next->start);
            if (just_past) {
                out_of_bounds(bytes, kind, code,
                              "the __shared__ array " + short_name(array.variable->name) + " of " +
                                  std::to_string(size) + " bytes, at byte " + std::to_string(address - array.start));
            }
        }
        return {};
    }
    if (!is_device_address(address)) return {};
    DeviceAllocation* allocation = device_allocation_at(address);
    if (!allocation || address + bytes > allocation->start + allocation->bytes) {
        std::string what = "no cudaMalloc'd buffer";
        if (const std::optional<FreedBuffer> freed = freed_buffer_at(address)) {
            what = "byte " + std::to_string(address - freed->start) + " of a buffer of " +
                   std::to_string(freed->bytes) + " bytes that cudaFree has released (a use after free)";
        }
        if (allocation) {
            const std::string element = grid_.element_name(address, *allocation);
            what = (element.empty() ? "" : element + ", ") + "byte " + std::to_string(address - allocation->start) +
                   " of " + buffer_description(*allocation);
        }
        out_of_bounds(bytes, kind, code, what);
    }
    if (!may_access(runner_.shape().device, allocation->device)) {
        const std::string element = grid_.element_name(address, *allocation);
        foreign_memory(runner_, describe(record(kind, code)), bytes, kind, code,
                       element.empty() ? "a cudaMalloc'd buffer" : element, allocation->device);
    }
    check_written(*allocation, address, bytes, kind, code);
    // Races are looked for in buffers of up to 64 Ki words: outputs,
    // partial sums, counters. Larger ones are inputs, read by everyone; their
    // bounds (and, until every byte is written, their initialisation) are
    // still checked.
    if (allocation->bytes > kRaceCheckedBytes) {
        if (!fully_written(*allocation)) return {};
        unchecked_start_ = allocation->start;
        unchecked_bytes_ = allocation->bytes;
        return {};
    }
    // Not under the cell's lock: two words of one buffer may have different locks.
    std::call_once(allocation->shadow_made,
                   [allocation] { allocation->shadow = make_shadow((allocation->bytes + kWord - 1) / kWord); });
    return {&allocation->shadow[(address - allocation->start) / kWord], address, nullptr, allocation,
            &grid_.cell_lock(address), true};
}

void BlockAccesses::count_wide_access() { runner_.count_wide_access(); }

void BlockAccesses::map_remote_shared(std::uintptr_t start, std::size_t bytes, std::string what) {
    const auto same = [&](const RemoteWindow& window) { return window.start == start; };
    if (std::ranges::none_of(remote_windows_, same)) remote_windows_.push_back({start, bytes, std::move(what)});
}

// An access through a pointer into another block's shared memory: inside a
// window this block mapped, or just past one (an index past the array's end).
void BlockAccesses::check_remote_bounds(std::uintptr_t address, std::size_t bytes, AccessKind kind,
                                        const void* instruction) {
    const RemoteWindow* overrun = nullptr;
    for (const RemoteWindow& window : remote_windows_) {
        const std::uintptr_t offset = address - window.start;
        if (offset < window.bytes && offset + bytes <= window.bytes) return;
        if (offset < window.bytes + kSharedMargin) overrun = &window;
    }
    if (!overrun) return;
    out_of_bounds(bytes, kind, code_offset(instruction),
                  "byte " + std::to_string(address - overrun->start) + " of " + overrun->what +
                      ", which has " + std::to_string(overrun->bytes) +
                      " bytes (mapped by this_cluster().map_shared_rank())");
}

void BlockAccesses::check_host_memory(std::uintptr_t address, std::size_t bytes, AccessKind kind,
                                     const void* instruction) {
    const GridAccesses::HostArgument* argument = grid_.host_argument_at(address);
    if (!argument) return;
    const std::string name = grid_.parameter_name(argument->index);
    const std::string element = name + "[" + std::to_string((address - argument->start) / argument->element_size) + "]";
    const std::uint32_t code = code_offset(instruction);
    runner_.fail_running(std::string(is_write(kind) ? "write" : "read") + " of " + std::to_string(bytes) + " bytes by " +
                         describe(record(kind, code)) + " at " + place_with_text(running_place(code)) +
                         ": the address is " + element + ", in host memory: the kernel's argument " + name +
                         " points to pageable host memory (an array, a std::vector, malloc'd memory), which a "
                         "GPU's threads cannot reach. cudaMalloc a buffer, cudaMemcpy the data into it and pass "
                         "that (on a GPU the kernel stops with an illegal address; compute-sanitizer's memcheck "
                         "reports an invalid __global__ " +
                         (is_write(kind) ? "write" : "read") + ")");
}

void BlockAccesses::check_access(std::uintptr_t address, std::size_t bytes, AccessKind kind, const void* instruction,
                                 bool is_volatile) {
    settle_pending_write();
    const std::uint32_t code = code_offset(instruction);
    Element element = classify(address, bytes, kind, code);
    if (profile_) profile(element, address, bytes, kind, code);
    if (!element.cell) return;
    if (is_volatile && element.global) kind = is_write(kind) ? AccessKind::atomic_store : AccessKind::atomic_read;
    const Access now = record(kind, code, address, bytes);
    element.size = bytes;
    std::optional<Access> conflict;
    if (element.lock) {
        std::lock_guard guard(*element.lock);
        conflict = check(element, now);
    } else {
        conflict = check(element, now);
    }
    if (conflict && may_write_same_value(*conflict, now, bytes)) {
        PendingWrite write{element, *conflict, now, address, bytes};
        std::memcpy(write.earlier.data(), reinterpret_cast<const void*>(address), bytes);
        pending_write_ = write;
        conflict.reset();
    }
    if (conflict) race(element, *conflict, now);  // the lock is released: this never returns
    if (!element.global && shared_bytes_unwritten(element, address, bytes, is_write(kind))) {
        uninitialized_read(element, now);
    }
    if (element.global && is_atomic(kind) && is_write(kind)) grid_.atomic(address, block_);
}

void BlockAccesses::profile(const Element& element, std::uintptr_t address, std::size_t bytes,
                            AccessKind kind, std::uint32_t code) {
    if (is_atomic(kind)) return;  // atomics are counted apart (LaunchStats)
    // Large global buffers have no shadow cells (classify): their addresses say what they are.
    const bool global = element.cell ? element.global : is_device_address(address);
    if (!element.cell && !global) return;  // a thread's own stack, the backend's variables
    if (element.array) {
        profile_->shared_array(static_cast<std::size_t>(element.array - arrays_.data()),
                               element.array->variable->bytes);
    }
    profile_->access(runner_.running()->rank, code, address, bytes, is_write(kind),
                     global ? MemorySpace::global : MemorySpace::shared);
}

std::string BlockAccesses::describe(const Access& access) const {
    const uint3 block = block_of(access.block, grid_.grid());
    std::string text = "thread " + std::to_string(access.thread) + " (warp " + std::to_string(access.thread / kWarpSize) +
                       ", lane " + std::to_string(access.thread % kWarpSize) + ")";
    if (access.block != block_) text += " of block " + dims(block);
    return text;
}

bool BlockAccesses::may_write_same_value(const Access& before, const Access& now, std::size_t bytes) {
    return before.kind == AccessKind::write && now.kind == AccessKind::write && before.block == now.block &&
           before.thread / kWarpSize == now.thread / kWarpSize && bytes <= 16;
}

void BlockAccesses::settle(const PendingWrite& write) {
    if (std::memcmp(reinterpret_cast<const void*>(write.address), write.earlier.data(), write.bytes) != 0) {
        race(write.element, write.before, write.now);
    }
    warn("same value " + std::to_string(write.before.code) + " " + std::to_string(write.now.code), [&] {
        const std::vector<SourcePlace> places = source_places({write.before.code, write.now.code});
        return "lanes of one warp wrote the same value to " + name_of(write.element) +
               " with nothing ordering the writes: " + describe(write.now) + " at " + place_with_text(places[1]) +
               ", after " + describe(write.before) + " at " + place_with_text(places[0]) +
               ". The word holds that value whichever write lands last, so the result is the GPU's (and "
               "compute-sanitizer's racecheck reports no hazard), but were the values ever to differ it would "
               "be a race: let one lane write it";
    });
}

// Whether a read of `bytes` of shared memory at `address` touches a byte no
// thread of the block has written; a write (`writing`) marks its bytes
// instead. The first word's cell was updated by check(); a wider access
// spans the cells after it.
bool BlockAccesses::shared_bytes_unwritten(const Element& element, std::uintptr_t address, std::size_t bytes,
                                           bool writing) {
    const std::uintptr_t first_word = address / kWord;
    const std::uintptr_t last_word = (address + bytes - 1) / kWord;
    bool unwritten = false;
    for (std::uintptr_t word = first_word; word <= last_word; ++word) {
        ShadowCell& cell = current(element.cell[word - first_word], generation_);
        const std::uintptr_t from = std::max(address, word * kWord), to = std::min(address + bytes, (word + 1) * kWord);
        const std::uint8_t touched = byte_mask(from % kWord, to - from);
        if (writing) cell.written |= touched;
        unwritten |= (touched & ~cell.written) != 0;
    }
    return unwritten;
}

void BlockAccesses::uninitialized_read(const Element& element, const Access& now) {
    warn("uninitialized " + std::to_string(now.code), [&] {
        return describe(now) + " read " + name_of(element) + " at " + place_with_text(running_place(now.code)) +
               " in block " + dims(block_of(now.block, grid_.grid())) +
               ", which no thread of the block has written: shared memory starts undefined (on a GPU it holds "
               "whatever an earlier kernel or block left there, often zeros; the CPU backend fills it with a "
               "poison pattern), so the value read is garbage, and so may be the result. compute-sanitizer's "
               "initcheck looks at global memory only";
    });
}

void BlockAccesses::race(const Element& element, const Access& before, const Access& now) {
    const SourcePlace earlier = source_places({before.code})[0];
    std::ostringstream text;
    text << "race on " << name_of(element) << ": " << describe(now) << " " << verb(now.kind) << " at "
         << place_with_text(running_place(now.code)) << "\n  after " << describe(before) << " " << verb(before.kind)
         << " at " << place_with_text(earlier) << "\n  and nothing orders the two: ";
    if (before.block != now.block) {
        const std::string writer = dims(block_of(is_write(before.kind) ? before.block : now.block, grid_.grid()));
        if (!is_write(before.kind)) {
            text << "the other block read it before this one wrote it; ";
            if (grid_.took_atomic(before.block)) {
                text << "the reader's atomics (a ticket) all came before this write, so none of them told it "
                        "that block "
                     << writer << " had finished";
            } else {
                text << "no atomic (a ticket) told the reader that block " << writer << " had finished";
            }
        } else if (grid_.fences(before.block) == before.fences) {
            text << "block " << writer
                 << " made no __threadfence() after writing it, so another block may not see the write even "
                    "after an atomic handshake (a ticket)";
        } else if (!grid_.took_atomic(now.block)) {
            text << "this block read it with no atomic (a ticket) telling it that block " << writer
                 << " had finished";
        } else {
            text << "no atomic (a ticket) this block took came after block " << writer
                 << "'s __threadfence() and an atomic of block " << writer << ", so none told it that block "
                 << writer << " had finished";
        }
    } else if (before.thread / kWarpSize != now.thread / kWarpSize) {
        text << "the threads are in different warps and no __syncthreads() lies between the two accesses";
    } else {
        text << "the threads are lanes of one warp and no __syncwarp() lies between the two accesses (since "
                "Volta, lanes of a warp do not run in lock-step)";
    }
    runner_.fail_running(text.str());
}

void BlockAccesses::out_of_bounds(std::size_t bytes, AccessKind kind, std::uint32_t code, const std::string& what) {
    const SourcePlace place = running_place(code);
    runner_.fail_running("out-of-bounds " + std::string(is_write(kind) ? "write" : "read") + " of " +
                         std::to_string(bytes) + " bytes by " + describe(record(kind, code)) + " at " +
                         place_with_text(place) + ": the address is " + what +
                         " (on a GPU, compute-sanitizer's memcheck reports an invalid access here, or the kernel "
                         "reads another variable's data)");
}

void BlockAccesses::check_written(DeviceAllocation& allocation, std::uintptr_t address, std::size_t bytes,
                                  AccessKind kind, std::uint32_t code) {
    const std::size_t offset = address - allocation.start;
    if (reads_value(kind) && !fully_written(allocation) && !grid_.holds_fault()) {
        const std::size_t unwritten = allocation.written.first_unwritten(offset, bytes);
        if (unwritten < bytes) uninitialized_global_read(allocation, address + unwritten, bytes, kind, code);
    }
    if (is_write(kind)) allocation.written.mark(offset, bytes);
}

void BlockAccesses::uninitialized_global_read(const DeviceAllocation& allocation, std::uintptr_t address,
                                              std::size_t bytes, AccessKind kind, std::uint32_t code) {
    const SourcePlace place = running_place(code);
    const std::string element = grid_.element_name(address, allocation);
    const std::string what = (element.empty() ? "" : element + ", ") + "byte " +
                             std::to_string(address - allocation.start) + " of " + buffer_description(allocation);
    const std::string hint =
        is_atomic(kind) ? " (an atomicAdd adds to the value already there: cudaMemset an accumulator first)" : "";
    grid_.hold_fault("in block " + dims(block_of(block_, grid_.grid())) + ": uninitialized " +
                     (is_atomic(kind) ? "atomic or volatile " : "") + "read of " + std::to_string(bytes) +
                     " bytes by " + describe(record(kind, code)) + " at " + place_with_text(place) + ": " + what +
                     " has never been written: no cudaMemset or cudaMemcpy put a value there, and no store of this "
                     "or an earlier kernel wrote it" +
                     hint +
                     ". On a GPU the value is whatever the memory last held (compute-sanitizer's initcheck reports "
                     "an uninitialized __global__ memory read); the CPU backend's fresh memory is zeros, which "
                     "would have hidden it");
}

void BlockAccesses::misaligned(std::uintptr_t address, std::size_t bytes, AccessKind kind, const void* instruction) {
    const std::uint32_t code = code_offset(instruction);
    const SourcePlace place = running_place(code);
    std::ostringstream hex_address;
    hex_address << std::hex << "0x" << address;
    runner_.fail_running("misaligned " + std::to_string(bytes) + "-byte " + (is_write(kind) ? "write" : "read") +
                         " by " + describe(record(kind, code)) + " at " + place_with_text(place) +
                         ": the address " + hex_address.str() + " is not a multiple of " + std::to_string(bytes) +
                         " (a GPU stops the kernel with cudaErrorMisalignedAddress; compute-sanitizer's memcheck "
                         "reports the misaligned address)");
}

void BlockAccesses::array_index_out_of_bounds(const std::string& array_type, long long index, const char* file,
                                              unsigned line) {
    const SourcePlace place{file ? file : "", line, "", ""};
    runner_.fail_running("index " + std::to_string(index) + " is out of bounds for the array of type " + array_type +
                         " at " + place_with_text(place));
}

}  // namespace warpdrill::cpu::detail
