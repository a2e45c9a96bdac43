#include "profile.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <map>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <tuple>

#include "program.h"

namespace warpdrill::cpu::detail {
namespace {

constexpr int kWarpSize = 32;
constexpr std::uintptr_t kSectorBytes = 32;
constexpr std::uintptr_t kWordBytes = 4;
constexpr int kBanks = 32;

std::mutex scopes_mutex;
std::vector<LaunchProfile>* innermost_scope = nullptr;
std::atomic<int> open_scopes{0};
LaunchProfile last_profile;
// SectorList: room for 256 MiB of sectors; once more than half of it holds
// distinct ones, the list takes no more.
constexpr std::size_t kListRoom = std::size_t{1} << 23;
std::shared_mutex stores_mutex;
SectorList stored_in_scope;  // EarlierStores's, sorted

void count_lanes(ActiveLanes& lanes, unsigned mask) {
    const int active = std::popcount(mask);
    ++lanes.instructions;
    lanes.active_threads += static_cast<std::uint64_t>(active);
    lanes.partial += active < kWarpSize;
}

// How many distinct values `values` holds (it is sorted on the way).
std::uint64_t distinct(std::vector<std::uintptr_t>& values) {
    std::ranges::sort(values);
    return static_cast<std::uint64_t>(std::ranges::unique(values).begin() - values.begin());
}

// The lanes the hardware serves together: a whole warp for accesses of up to
// 4 bytes, a half-warp for 8 bytes, a quarter-warp for 16.
int lanes_per_part(std::uint32_t bytes) { return bytes <= 4 ? 32 : bytes <= 8 ? 16 : 8; }

// Wavefronts for the lanes [first, first + count) of `access`: the most
// distinct words that fall in any one bank (0 when none of them is active).
std::uint64_t wavefronts_of_part(const WarpAccess& access, int first, int count) {
    thread_local std::vector<std::uintptr_t> words;
    words.clear();
    for (int lane = first; lane < first + count; ++lane) {
        if (!(access.mask >> lane & 1u)) continue;
        const std::uintptr_t start = access.address[lane];
        for (std::uintptr_t word = start / kWordBytes; word <= (start + access.bytes - 1) / kWordBytes;
             ++word) {
            words.push_back(word);
        }
    }
    if (words.empty()) return 0;
    const std::uint64_t unique = distinct(words);
    std::array<std::uint64_t, kBanks> per_bank{};
    for (std::uint64_t w = 0; w < unique; ++w) ++per_bank[words[w] % kBanks];
    return *std::ranges::max_element(per_bank);
}

}  // namespace

const std::vector<std::uintptr_t>& sectors_of(const WarpAccess& access) {
    thread_local std::vector<std::uintptr_t> sectors;
    sectors.clear();
    for (int lane = 0; lane < kWarpSize; ++lane) {
        if (!(access.mask >> lane & 1u)) continue;
        const std::uintptr_t start = access.address[lane];
        for (std::uintptr_t sector = start / kSectorBytes;
             sector <= (start + access.bytes - 1) / kSectorBytes; ++sector) {
            sectors.push_back(sector);
        }
    }
    sectors.resize(distinct(sectors));
    return sectors;
}

SharedCost shared_cost_of(const WarpAccess& access) {
    SharedCost cost;
    const int part = lanes_per_part(access.bytes);
    for (int first = 0; first < kWarpSize; first += part) {
        const std::uint64_t wavefronts = wavefronts_of_part(access, first, part);
        if (wavefronts == 0) continue;
        cost.wavefronts += wavefronts;
        cost.bank_conflicts += wavefronts - 1;
    }
    return cost;
}

void add_branch(std::vector<BranchProfile>& branches, const BranchProfile& branch) {
    const auto key = [](const BranchProfile& b) { return std::tie(b.file, b.line, b.column); };
    const auto at = std::ranges::lower_bound(branches, key(branch), {}, key);
    if (at != branches.end() && key(*at) == key(branch)) {
        *at += branch;
    } else {
        branches.insert(at, branch);
    }
}

// ---- stored sectors -------------------------------------------------------------

void SectorList::add(std::uintptr_t sector) {
    if (full_ || (!sectors_.empty() && sectors_.back() == sector)) return;  // the same sector stored again
    sectors_.push_back(sector);
    if (sectors_.size() == kListRoom) sort();
}

void SectorList::add(const SectorList& other) {
    sectors_.insert(sectors_.end(), other.sectors_.begin(), other.sectors_.end());
    sort();
}

void SectorList::sort() {
    std::ranges::sort(sectors_);
    sectors_.erase(std::ranges::unique(sectors_).begin(), sectors_.end());
    if (sectors_.size() > kListRoom) sectors_.resize(kListRoom);
    full_ = sectors_.size() > kListRoom / 2;
}

bool SectorList::contains(std::uintptr_t sector) const {
    return std::ranges::binary_search(sectors_, sector);
}

EarlierStores::EarlierStores() : lock_(stores_mutex) {}

const SectorList& EarlierStores::sectors() const { return stored_in_scope; }

// ---- BlockProfile ---------------------------------------------------------------

BlockProfile::BlockProfile(int threads, const SectorList& earlier_stores)
    : warps_(static_cast<std::size_t>((threads + kWarpSize - 1) / kWarpSize)),
      earlier_stores_(earlier_stores) {}

void BlockProfile::access(const ObservedAccess& access) {
    if (is_atomic(access.kind)) return;
    if (access.array >= 0) {
        // The kernel touched this static __shared__ array: its bytes count in the launch's shared memory.
        const auto variable = static_cast<std::size_t>(access.array);
        if (variable >= shared_arrays_.size()) shared_arrays_.resize(variable + 1);
        shared_arrays_[variable] = tls_variables()[variable].bytes;
    }
    Warp& warp = warps_[static_cast<std::size_t>(access.thread / kWarpSize)];
    const int lane = access.thread % kWarpSize;
    Site& site = warp.sites[access.code];
    const std::uint32_t k = site.executions[lane]++;
    if (k == site.used) {
        if (site.used == site.instructions.size()) site.instructions.emplace_back();
        site.instructions[site.used++] =
            WarpAccess{{}, 0, static_cast<std::uint32_t>(access.bytes), access.space, is_write(access.kind)};
    }
    WarpAccess& instruction = site.instructions[k];
    instruction.address[lane] = access.address;
    instruction.mask |= 1u << lane;
    warp.pending = true;
}

void BlockProfile::warp_sync(SyncKind /*kind*/, int base, unsigned mask, unsigned live) {
    count_lanes(counts_.sync_instructions, mask);
    if ((mask & live) == live) flush(warps_[static_cast<std::size_t>(base / kWarpSize)]);
}

void BlockProfile::block_barrier(const std::vector<unsigned>& live) {
    for (std::size_t w = 0; w < warps_.size(); ++w) {
        if (live[w] == 0) continue;
        count_lanes(counts_.sync_instructions, live[w]);
        ++counts_.barrier_instructions;
        flush(warps_[w]);
    }
}

void BlockProfile::branch(int thread, const char* statement, const Where& where, bool taken) {
    Warp& warp = warps_[static_cast<std::size_t>(thread / kWarpSize)];
    const auto same = [&](const WarpBranch& branch) {
        return branch.line == where.line() && branch.column == where.column() &&
               branch.file == where.file_name();
    };
    auto found = std::ranges::find_if(warp.branches, same);
    if (found == warp.branches.end()) {
        WarpBranch& first = warp.branches.emplace_back();
        first.file = where.file_name();
        first.line = where.line();
        first.column = where.column();
        first.statement = statement;
        found = warp.branches.end() - 1;
    }
    WarpBranch& branch = *found;
    const int lane = thread % kWarpSize;
    const std::uint32_t k = branch.evaluations[lane]++;
    if (k == branch.outcomes.size()) branch.outcomes.emplace_back(0u, 0u);
    auto& [held, failed] = branch.outcomes[k];
    (taken ? held : failed) |= 1u << lane;
}

void BlockProfile::end_block() {
    for (Warp& warp : warps_) {
        flush(warp);
        for (const WarpBranch& branch : warp.branches) {
            BranchProfile profile;
            static_cast<BranchTally&>(profile) = branch.settled;
            profile.file = checkout_path(branch.file);
            profile.line = branch.line;
            profile.column = branch.column;
            profile.statement = branch.statement;
            add_branch(counts_.branches, profile);
        }
        warp.branches.clear();
    }
    loaded_sectors_.clear();
}

void BlockProfile::settle_branches(Warp& warp) {
    for (WarpBranch& branch : warp.branches) {
        for (const auto& [held, failed] : branch.outcomes) {
            ++branch.settled.evaluations;
            if (held == 0 || failed == 0) continue;
            ++branch.settled.divergent;
            branch.settled.lanes_taken += static_cast<std::uint64_t>(std::popcount(held));
            branch.settled.lanes_not_taken += static_cast<std::uint64_t>(std::popcount(failed));
        }
        branch.outcomes.clear();
        branch.evaluations.fill(0);
    }
}

void BlockProfile::flush(Warp& warp) {
    settle_branches(warp);
    if (!warp.pending) return;
    for (auto& [code, site] : warp.sites) {
        for (std::size_t k = 0; k < site.used; ++k) price(code, site.instructions[k]);
        site.used = 0;
        site.executions.fill(0);
    }
    warp.pending = false;
}

void BlockProfile::price(std::uint32_t code, const WarpAccess& access) {
    count_lanes(counts_.memory_instructions, access.mask);
    MemoryCounts one;
    if (access.space == MemorySpace::global) {
        GlobalAccessCounts& counts = access.write ? one.global_stores : one.global_loads;
        counts.requests = 1;
        const std::vector<std::uintptr_t>& sectors = sectors_of(access);
        counts.sectors = sectors.size();
        for (const std::uintptr_t sector : sectors) {
            if (access.write) {
                stored_sectors_.add(sector);
            } else if (!loaded_sectors_.insert(sector).second) {
                ++counts.reloaded_sectors;
            } else {
                counts.stored_earlier_sectors += earlier_stores_.contains(sector);
            }
        }
    } else {
        SharedAccessCounts& counts = access.write ? one.shared_stores : one.shared_loads;
        const SharedCost cost = shared_cost_of(access);
        counts.instructions = 1;
        counts.wavefronts = cost.wavefronts;
        counts.bank_conflicts = cost.bank_conflicts;
    }
    static_cast<MemoryCounts&>(counts_) += one;
    by_code_[code] += one;
}

std::vector<SourceLineProfile> by_source_line(const std::unordered_map<std::uint32_t, MemoryCounts>& by_code) {
    std::vector<std::uint32_t> codes;
    for (const auto& [code, counts] : by_code) codes.push_back(code);
    const std::vector<SourcePlace> places = source_places(codes);
    std::map<std::tuple<std::string, unsigned, std::string>, MemoryCounts> lines;
    for (std::size_t c = 0; c < codes.size(); ++c) {
        const SourcePlace& place = places[c];
        if (place.line == 0) return {};  // no debug information: no line can be named
        const std::string via = place.via.empty() ? "" : place.via + " in " + place.via_function;
        lines[{place.file, place.line, via}] += by_code.at(codes[c]);
    }
    std::vector<SourceLineProfile> profiles;
    for (const auto& [place, counts] : lines) {
        SourceLineProfile& line = profiles.emplace_back();
        static_cast<MemoryCounts&>(line) = counts;
        std::tie(line.file, line.line, line.via) = place;
    }
    return profiles;
}

// ---- scopes ---------------------------------------------------------------------

bool profiling() { return open_scopes.load(std::memory_order_relaxed) > 0; }

void record_profile(LaunchProfile profile, const SectorList& stored) {
    {
        std::lock_guard lock(stores_mutex);
        stored_in_scope.add(stored);
    }
    std::lock_guard lock(scopes_mutex);
    if (innermost_scope) innermost_scope->push_back(profile);
    last_profile = std::move(profile);
}

}  // namespace warpdrill::cpu::detail

namespace warpdrill::cpu {

ActiveLanes& ActiveLanes::operator+=(const ActiveLanes& other) {
    instructions += other.instructions;
    active_threads += other.active_threads;
    partial += other.partial;
    return *this;
}

MemoryCounts& MemoryCounts::operator+=(const MemoryCounts& other) {
    for (auto [mine, theirs] :
         {std::pair{&global_loads, &other.global_loads}, {&global_stores, &other.global_stores}}) {
        mine->requests += theirs->requests;
        mine->sectors += theirs->sectors;
        mine->reloaded_sectors += theirs->reloaded_sectors;
        mine->stored_earlier_sectors += theirs->stored_earlier_sectors;
    }
    for (auto [mine, theirs] :
         {std::pair{&shared_loads, &other.shared_loads}, {&shared_stores, &other.shared_stores}}) {
        mine->instructions += theirs->instructions;
        mine->wavefronts += theirs->wavefronts;
        mine->bank_conflicts += theirs->bank_conflicts;
    }
    return *this;
}

BranchTally& BranchTally::operator+=(const BranchTally& other) {
    evaluations += other.evaluations;
    divergent += other.divergent;
    lanes_taken += other.lanes_taken;
    lanes_not_taken += other.lanes_not_taken;
    return *this;
}

namespace {

// What orders LaunchProfile::lines.
std::tuple<const std::string&, unsigned, const std::string&> place_key(const SourceLineProfile& line) {
    return {line.file, line.line, line.via};
}

}  // namespace

std::string SourceLineProfile::place() const {
    return file + ":" + std::to_string(line) + (via.empty() ? "" : " (through " + via + ")");
}

LaunchProfile& LaunchProfile::operator+=(const LaunchProfile& other) {
    MemoryCounts::operator+=(other);
    stats += other.stats;
    memory_instructions += other.memory_instructions;
    sync_instructions += other.sync_instructions;
    barrier_instructions += other.barrier_instructions;
    if (race.empty()) race = other.race;
    for (const BranchProfile& theirs : other.branches) detail::add_branch(branches, theirs);
    for (const SourceLineProfile& theirs : other.lines) {
        const auto at = std::ranges::lower_bound(lines, place_key(theirs), {}, place_key);
        if (at != lines.end() && place_key(*at) == place_key(theirs)) {
            *at += theirs;
        } else {
            lines.insert(at, theirs);
        }
    }
    return *this;
}

ProfileScope::ProfileScope() {
    std::lock_guard lock(detail::scopes_mutex);
    if (detail::open_scopes == 0) {
        std::lock_guard stores_lock(detail::stores_mutex);
        detail::stored_in_scope.clear();
    }
    outer_ = detail::innermost_scope;
    detail::innermost_scope = &launches_;
    ++detail::open_scopes;
}

ProfileScope::~ProfileScope() {
    std::lock_guard lock(detail::scopes_mutex);
    detail::innermost_scope = outer_;
    --detail::open_scopes;
}

std::vector<LaunchProfile> ProfileScope::launches() const {
    std::lock_guard lock(detail::scopes_mutex);
    return launches_;
}

LaunchProfile last_launch_profile() {
    std::lock_guard lock(detail::scopes_mutex);
    return detail::last_profile;
}

}  // namespace warpdrill::cpu
