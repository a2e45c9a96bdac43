// The CPU backend's profile of each access pattern in access_patterns.cuh
// against the counts Nsight Compute's rules give, worked out by hand below.
// The kernels are instrumented as the lessons' are (cmake/Backend.cmake), so
// this file is compiled as a kernel source.
#include <charconv>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "access_patterns.cuh"
#include "metric_table.h"
#include "warpdrill/catch.h"
#include "warpdrill/cuda.h"
#include "warpdrill/host.h"
#include "warpdrill/profile_record.h"

using warpdrill::DeviceBuffer;
using warpdrill::cpu::LaunchProfile;
using warpdrill::cpu::ProfileScope;
using warpdrill::runner::Metric;

namespace {

struct Expected {
    std::uint64_t load_requests, load_sectors, store_requests, store_sectors;
    std::uint64_t shared_loads, load_wavefronts, load_conflicts;
    std::uint64_t shared_stores, store_wavefronts, store_conflicts;
    std::uint64_t memory_instructions, memory_threads, memory_partial;
    std::uint64_t sync_instructions = 0, sync_threads = 0, sync_partial = 0, barriers = 0;
};

// Sectors are 32 bytes (8 floats); a warp's 32 floats in a row are 4.
// Shared memory: word w lies in bank w % 32; wavefronts are the most distinct
// words in one bank, per whole warp (4-byte accesses), half-warp (8-byte) or
// quarter-warp (16-byte); conflicts are the wavefronts past one per part.
constexpr std::uint64_t kConflictFreeWarps = std::uint64_t{kConflictFreeBlocks} * 256 / 32;

const std::map<std::string, Expected> kExpected = {
    // One warp, one load and one store of 32 consecutive floats.
    {"coalesced_copy, 32 threads", {1, 4, 1, 4, 0, 0, 0, 0, 0, 0, 2, 64, 0}},
    // Eight warps, each as above.
    {"coalesced_copy, 256 threads", {8, 32, 8, 32, 0, 0, 0, 0, 0, 0, 16, 512, 0}},
    // A full warp (4 sectors) and a warp of 16 lanes (2 sectors), each loads and stores.
    {"coalesced_copy, 48 threads", {2, 6, 2, 6, 0, 0, 0, 0, 0, 0, 4, 96, 2}},
    // Loads 8 bytes apart span 256 bytes: 8 sectors.
    {"strided_read, stride 2", {1, 8, 1, 4, 0, 0, 0, 0, 0, 0, 2, 64, 0}},
    // Loads 32 bytes apart: every lane its own sector.
    {"strided_read, stride 8", {1, 32, 1, 4, 0, 0, 0, 0, 0, 0, 2, 64, 0}},
    {"strided_read, stride 32", {1, 32, 1, 4, 0, 0, 0, 0, 0, 0, 2, 64, 0}},
    // Bytes 4 to 131 touch sectors 0 to 4.
    {"offset_read, offset 1", {1, 5, 1, 4, 0, 0, 0, 0, 0, 0, 2, 64, 0}},
    // Every lane reads the same float: one sector.
    {"broadcast_read", {1, 1, 1, 4, 0, 0, 0, 0, 0, 0, 2, 64, 0}},
    // 32 lanes of 8 bytes: 256 bytes, 8 sectors, one request.
    {"float2_copy", {1, 8, 1, 8, 0, 0, 0, 0, 0, 0, 2, 64, 0}},
    // 32 lanes of 16 bytes: 512 bytes, 16 sectors, one request.
    {"float4_copy", {1, 16, 1, 16, 0, 0, 0, 0, 0, 0, 2, 64, 0}},
    // Words 0-31: one per bank.
    {"shared_strided, stride 1", {1, 4, 1, 4, 1, 1, 0, 1, 1, 0, 4, 128, 0, 1, 32, 0}},
    // Words 0, 2, ..., 62: banks 0, 2, ..., 30, two words each: 2-way.
    {"shared_strided, stride 2", {1, 4, 1, 4, 1, 2, 1, 1, 2, 1, 4, 128, 0, 1, 32, 0}},
    // Words 0, 32, ..., 992: all in bank 0: 32-way.
    {"shared_strided, stride 32", {1, 4, 1, 4, 1, 32, 31, 1, 32, 31, 4, 128, 0, 1, 32, 0}},
    // Words 0, 33, 66, ...: bank t for lane t (the padding cure).
    {"shared_strided, stride 33", {1, 4, 1, 4, 1, 1, 0, 1, 1, 0, 4, 128, 0, 1, 32, 0}},
    // Lane 0 loads and stores one word; all 32 lanes load it: a broadcast.
    {"shared_broadcast", {1, 1, 1, 4, 1, 1, 0, 1, 1, 0, 4, 66, 2, 1, 32, 0}},
    // Each half-warp covers words 0-31 once: 2 wavefronts, no conflict.
    {"shared_float2, stride 1", {1, 4, 1, 4, 1, 2, 0, 1, 2, 0, 4, 128, 0, 1, 32, 0}},
    // Lanes t and t + 8 of a half-warp share banks (words 4t, 4t + 1): 2 per half.
    {"shared_float2, stride 2", {1, 4, 1, 4, 1, 4, 2, 1, 4, 2, 4, 128, 0, 1, 32, 0}},
    // Each quarter-warp covers words 0-31 once: 4 wavefronts, no conflict.
    {"shared_float4, stride 1", {1, 4, 1, 4, 1, 4, 0, 1, 4, 0, 4, 128, 0, 1, 32, 0}},
    // Lanes t and t + 4 of a quarter-warp share banks (words 8t to 8t + 3): 2 per quarter.
    {"shared_float4, stride 2", {1, 4, 1, 4, 1, 8, 4, 1, 8, 4, 4, 128, 0, 1, 32, 0}},
    // 16 even lanes, floats 0-30: 4 sectors each way, both instructions partial.
    {"divergent_copy", {1, 4, 1, 4, 0, 0, 0, 0, 0, 0, 2, 32, 2}},
    // The loop's load runs for 24 lanes (16 sectors), then 16 (8), then 8 (8).
    {"lane_dependent_loop", {3, 32, 1, 4, 0, 0, 0, 0, 0, 0, 4, 80, 3}},
    // Two warps, each loads, stores, waits at the barrier, loads and stores.
    {"exchange_through_barrier", {2, 8, 2, 8, 2, 2, 0, 2, 2, 0, 8, 256, 0, 2, 64, 0, 2}},
    // 16 lanes: 2 sectors each way, and a shuffle of 16 lanes.
    {"half_warp_shuffle", {1, 2, 1, 2, 0, 0, 0, 0, 0, 0, 2, 32, 2, 1, 16, 1}},
    // The atomics are counted apart; the loads are one request.
    {"atomic_sum", {1, 4, 0, 0, 0, 0, 0, 0, 0, 0, 1, 32, 0}},
    // kConflictFreeWarps warps: each loads and stores 4 sectors each way,
    // stores one conflict-free word a lane, passes the barrier and makes 8
    // conflict-free loads of one wavefront.
    {"shared_conflict_free",
     {kConflictFreeWarps, 4 * kConflictFreeWarps, kConflictFreeWarps, 4 * kConflictFreeWarps,
      8 * kConflictFreeWarps, 8 * kConflictFreeWarps, 0, kConflictFreeWarps, kConflictFreeWarps, 0,
      11 * kConflictFreeWarps, 11 * 32 * kConflictFreeWarps, 0, kConflictFreeWarps, 32 * kConflictFreeWarps, 0,
      kConflictFreeWarps}},
};

std::vector<LaunchProfile> profile_patterns() {
    DeviceBuffer<float> in(std::vector<float>(kPatternFloats, 1.0f));
    DeviceBuffer<float> out(kPatternFloats);
    warpdrill::check_cuda(cudaMemset(in.data(), 0, kPatternFloats * sizeof(float)));
    ProfileScope scope;
    for (const PatternLaunch& pattern : pattern_launches()) {
        pattern.run(in.data(), out.data());
        warpdrill::check_launch();
    }
    return scope.launches();
}

// "a,\"b, c\",d" -> a | b, c | d
std::vector<std::string> csv_fields(const std::string& line) {
    std::vector<std::string> fields(1);
    bool quoted = false;
    for (char c : line) {
        if (c == '"') {
            quoted = !quoted;
        } else if (c == ',' && !quoted) {
            fields.emplace_back();
        } else {
            fields.back() += c;
        }
    }
    return fields;
}

// ncu's counts of the same launches on a GPU (scripts/ncu-table.sh: a row
// `pattern,launch,kernel,<metric>...` per launch), by pattern name and
// metric; empty when the table has not been measured yet.
std::map<std::string, std::map<std::string, double>> measured_patterns(const std::filesystem::path& file) {
    std::map<std::string, std::map<std::string, double>> measured;
    std::ifstream in(file);
    std::vector<std::string> columns;
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line.starts_with("#")) continue;
        const std::vector<std::string> fields = csv_fields(line);
        if (columns.empty()) {
            columns = fields;
            continue;
        }
        for (std::size_t c = 3; c < fields.size() && c < columns.size(); ++c) {
            double value = 0;
            const char* end = fields[c].data() + fields[c].size();
            const auto [stop, error] = std::from_chars(fields[c].data(), end, value);
            if (!fields[c].empty() && error == std::errc{} && stop == end) measured[fields[0]][columns[c]] = value;  // not "n/a"
        }
    }
    return measured;
}

// The profile's metric table (runner/profile/metrics.toml): ncu's name for
// each of the backend's counts, and how closely the two agree.
const std::vector<Metric>& metric_table() {
    static const std::vector<Metric> table = [] {
        std::ostringstream text;
        text << std::ifstream(WARPDRILL_METRIC_TABLE).rdbuf();
        return warpdrill::runner::parse_metric_table(text.str(), WARPDRILL_METRIC_TABLE);
    }();
    return table;
}

const std::string& ncu_metric(std::string_view key) {
    return warpdrill::runner::metric(metric_table(), key).ncu;
}

// ncu's excess on shared loads: measured on shared_conflict_free, whose loads
// cannot conflict, as a fraction of the L1 data traffic that the excess comes
// with (shared-load wavefronts and global-load sectors, which share the SM's
// L1 data banks; a model, results/README.md).
double l1_traffic(const LaunchProfile& profile) {
    return static_cast<double>(profile.shared_loads.wavefronts + profile.global_loads.sectors);
}

double shared_load_excess(const std::map<std::string, std::map<std::string, double>>& measured,
                          const std::vector<PatternLaunch>& patterns, const std::vector<LaunchProfile>& profiles) {
    for (std::size_t p = 0; p < patterns.size(); ++p) {
        if (patterns[p].name != "shared_conflict_free") continue;
        const auto row = measured.find(patterns[p].name);
        const std::string& wavefronts = ncu_metric("shared_load_wavefronts");
        if (row == measured.end() || !row->second.contains(wavefronts)) return 0.0;
        const auto ours = static_cast<double>(profiles[p].shared_loads.wavefronts);
        return (row->second.at(wavefronts) - ours) / l1_traffic(profiles[p]);
    }
    return 0.0;
}

}  // namespace

TEST_CASE("every access pattern's profile has the counts worked out by hand", "[backend][profile]") {
    const std::vector<PatternLaunch> patterns = pattern_launches();
    const std::vector<LaunchProfile> profiles = profile_patterns();
    REQUIRE(profiles.size() == patterns.size());
    for (std::size_t p = 0; p < patterns.size(); ++p) {
        const LaunchProfile& got = profiles[p];
        INFO(patterns[p].name);
        REQUIRE(kExpected.contains(patterns[p].name));
        const Expected& want = kExpected.at(patterns[p].name);
        CHECK(got.global_loads.requests == want.load_requests);
        CHECK(got.global_loads.sectors == want.load_sectors);
        CHECK(got.global_stores.requests == want.store_requests);
        CHECK(got.global_stores.sectors == want.store_sectors);
        CHECK(got.shared_loads.instructions == want.shared_loads);
        CHECK(got.shared_loads.wavefronts == want.load_wavefronts);
        CHECK(got.shared_loads.bank_conflicts == want.load_conflicts);
        CHECK(got.shared_stores.instructions == want.shared_stores);
        CHECK(got.shared_stores.wavefronts == want.store_wavefronts);
        CHECK(got.shared_stores.bank_conflicts == want.store_conflicts);
        CHECK(got.memory_instructions.instructions == want.memory_instructions);
        CHECK(got.memory_instructions.active_threads == want.memory_threads);
        CHECK(got.memory_instructions.partial == want.memory_partial);
        CHECK(got.sync_instructions.instructions == want.sync_instructions);
        CHECK(got.sync_instructions.active_threads == want.sync_threads);
        CHECK(got.sync_instructions.partial == want.sync_partial);
        CHECK(got.barrier_instructions == want.barriers);
    }
}

TEST_CASE("a profile names the kernel, its shape and its shared memory", "[backend][profile]") {
    DeviceBuffer<float> in(std::vector<float>(kPatternFloats, 1.0f));
    DeviceBuffer<float> out(kPatternFloats);
    ProfileScope scope;
    warpdrill::launch(shared_strided, {1, 32}, in.data(), out.data(), 1);
    warpdrill::launch(atomic_sum, {3, 64}, in.data(), out.data());
    warpdrill::check_launch();
    const std::vector<LaunchProfile> profiles = scope.launches();
    REQUIRE(profiles.size() == 2);
    CHECK(profiles[0].kernel == "shared_strided");
    CHECK(profiles[0].static_shared_bytes == 32 * 33 * sizeof(float));
    CHECK(profiles[0].dynamic_shared_bytes == 0);
    CHECK(profiles[1].kernel == "atomic_sum");
    CHECK(profiles[1].grid == std::array<unsigned, 3>{3, 1, 1});
    CHECK(profiles[1].block == std::array<unsigned, 3>{64, 1, 1});
    CHECK(profiles[1].static_shared_bytes == 0);
    CHECK(profiles[1].stats.blocks == 3);
    CHECK(profiles[1].stats.atomics == 3 * 64);
    CHECK(profiles[1].global_loads.requests == 3 * 2);  // two warps a block
}

TEST_CASE("a profile counts the loads and stores of each source line", "[backend][profile]") {
    DeviceBuffer<float> in(std::vector<float>(kPatternFloats, 1.0f));
    DeviceBuffer<float> out(kPatternFloats);
    ProfileScope scope;
    warpdrill::launch(shared_strided, {1, 32}, in.data(), out.data(), 32);
    warpdrill::check_launch();
    const LaunchProfile profile = scope.launches().at(0);
    // cells[t * stride] = in[t]; then out[t] = cells[t * stride];
    REQUIRE(profile.lines.size() == 2);
    const warpdrill::cpu::SourceLineProfile& store = profile.lines[0];
    const warpdrill::cpu::SourceLineProfile& load = profile.lines[1];
    CHECK(store.file == "cpu-cuda/tests/access_patterns.cuh");
    CHECK(load.line > store.line);
    CHECK(store.place() == "cpu-cuda/tests/access_patterns.cuh:" + std::to_string(store.line));
    CHECK(store.global_loads.requests == 1);
    CHECK(store.shared_stores.bank_conflicts == 31);
    CHECK(store.shared_loads.instructions == 0);
    CHECK(load.shared_loads.bank_conflicts == 31);
    CHECK(load.global_stores.sectors == 4);
    CHECK(load.global_loads.requests == 0);
}

// Each block reads its 32 floats `passes` times, with a barrier between the
// passes; every block reads the same floats where `shared_row` is set.
__global__ void read_row(const float* in, float* out, int passes, bool shared_row) {
    const float* row = in + (shared_row ? 0 : blockIdx.x * blockDim.x);
    float sum = 0.0f;
    for (int pass = 0; pass < passes; ++pass) {
        sum += row[threadIdx.x];
        __syncthreads();
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

TEST_CASE("a profile counts the sectors a block loads again, not those another block loaded",
          "[backend][profile]") {
    DeviceBuffer<float> in(std::vector<float>(kPatternFloats, 1.0f));
    DeviceBuffer<float> out(kPatternFloats);
    ProfileScope scope;
    warpdrill::launch(read_row, {2, 32}, in.data(), out.data(), 3, false);
    warpdrill::launch(read_row, {2, 32}, in.data(), out.data(), 1, true);
    warpdrill::check_launch();
    const std::vector<LaunchProfile> profiles = scope.launches();
    REQUIRE(profiles.size() == 2);
    // Two blocks, three passes of 4 sectors: the second and third are again.
    CHECK(profiles[0].global_loads.sectors == 2 * 3 * 4);
    CHECK(profiles[0].global_loads.reloaded_sectors == 2 * 2 * 4);
    CHECK(profiles[0].global_stores.reloaded_sectors == 0);
    // The same 4 sectors, once by each block: never again within a block.
    CHECK(profiles[1].global_loads.sectors == 2 * 4);
    CHECK(profiles[1].global_loads.reloaded_sectors == 0);
}

TEST_CASE("a profile counts the sectors a launch loads that an earlier launch of the profile stored",
          "[backend][profile]") {
    DeviceBuffer<float> in(std::vector<float>(kPatternFloats, 1.0f));
    DeviceBuffer<float> out(kPatternFloats);
    {
        ProfileScope scope;
        // Two blocks write `out`'s first 64 floats (8 sectors); in the next
        // launch each block reads 32 of them twice over: 4 sectors stored
        // earlier, then the same 4 again.
        warpdrill::launch(read_row, {2, 32}, in.data(), out.data(), 1, false);
        warpdrill::launch(read_row, {2, 32}, out.data(), out.data() + 64, 2, false);
        warpdrill::check_launch();
        const std::vector<LaunchProfile> profiles = scope.launches();
        REQUIRE(profiles.size() == 2);
        CHECK(profiles[0].global_loads.stored_earlier_sectors == 0);
        CHECK(profiles[1].global_loads.stored_earlier_sectors == 2 * 4);
        CHECK(profiles[1].global_loads.reloaded_sectors == 2 * 4);
    }
    // A new profile knows nothing of the stores of the one before.
    ProfileScope scope;
    warpdrill::launch(read_row, {2, 32}, out.data(), out.data() + 128, 1, false);
    warpdrill::check_launch();
    REQUIRE(scope.launches().size() == 1);
    CHECK(scope.launches()[0].global_loads.stored_earlier_sectors == 0);
}

TEST_CASE("only launches inside a ProfileScope are profiled, each into the innermost scope",
          "[backend][profile]") {
    DeviceBuffer<float> in(std::vector<float>(kPatternFloats, 1.0f));
    DeviceBuffer<float> out(kPatternFloats);
    {
        ProfileScope outer;
        warpdrill::launch(coalesced_copy, {1, 32}, in.data(), out.data());
        {
            ProfileScope inner;
            warpdrill::launch(broadcast_read, {1, 32}, in.data(), out.data());
            REQUIRE(inner.launches().size() == 1);
            CHECK(inner.launches()[0].kernel == "broadcast_read");
        }
        warpdrill::launch(float4_copy, {1, 32}, reinterpret_cast<const float4*>(in.data()),
                          reinterpret_cast<float4*>(out.data()));
        REQUIRE(outer.launches().size() == 2);
        CHECK(outer.launches()[0].kernel == "coalesced_copy");
        CHECK(outer.launches()[1].kernel == "float4_copy");
    }
    warpdrill::launch(strided_read, {1, 32}, in.data(), out.data(), 2);
    CHECK(warpdrill::cpu::last_launch_profile().kernel == "float4_copy");
}

TEST_CASE("the multiprocessor count can imitate a GPU's", "[backend][profile]") {
    cudaDeviceProp prop{};
    warpdrill::cpu::set_multiprocessor_count(132);
    warpdrill::check_cuda(cudaGetDeviceProperties(&prop, 0));
    CHECK(prop.multiProcessorCount == 132);
    warpdrill::cpu::set_multiprocessor_count(0);
    warpdrill::check_cuda(cudaGetDeviceProperties(&prop, 0));
    CHECK(prop.multiProcessorCount >= 1);
}

TEST_CASE("every access pattern's counts equal Nsight Compute's on the GPU it was measured on",
          "[backend][profile]") {
    const std::filesystem::path file = std::filesystem::path(WARPDRILL_RESULTS_DIR) / "ncu-patterns-h100.csv";
    const auto measured = measured_patterns(file);
    if (measured.empty()) {
        WARN(file.string() << " does not exist yet: scripts/ncu-table.sh measures it on a GPU");
        return;
    }
    const std::vector<PatternLaunch> patterns = pattern_launches();
    const std::vector<LaunchProfile> profiles = profile_patterns();
    const double load_excess = shared_load_excess(measured, patterns, profiles);
    INFO("ncu's shared-load wavefronts on shared_conflict_free exceed the conflict-free count by "
         << 100 * load_excess << "% of its L1 data traffic");
    for (std::size_t p = 0; p < patterns.size(); ++p) {
        INFO(patterns[p].name << " (ncu: " << file.string() << ")");
        REQUIRE(measured.contains(patterns[p].name));
        const std::map<std::string, double>& ncu = measured.at(patterns[p].name);
        const LaunchProfile& got = profiles[p];
        std::map<std::string, std::uint64_t> counts;  // by the table's keys
        for (const auto& [key, count] : warpdrill::profile_record::memory_counts(got)) counts[key] = count;
        // ncu counts a few extra shared-load wavefronts on Hopper (DESIGN.md), and as many extra
        // bank conflicts, never fewer: at most twice the excess it counts on
        // shared_conflict_free, where none is possible, for the same L1 data traffic.
        const double most_excess = 2 * load_excess * l1_traffic(got) + 1;
        for (const Metric& metric : metric_table()) {
            if (metric.agrees.empty() || !ncu.contains(metric.ncu)) continue;
            INFO(metric.key << " (ncu: " << metric.ncu << ")");
            REQUIRE(counts.contains(metric.key));
            const auto count = static_cast<double>(counts.at(metric.key));
            if (metric.agrees == "exactly") {
                CHECK(count == ncu.at(metric.ncu));
            } else {
                REQUIRE(metric.agrees == "with_load_excess");
                CHECK(ncu.at(metric.ncu) >= count);
                CHECK(ncu.at(metric.ncu) <= count + most_excess);
            }
        }
    }
}

namespace {

// Every thread stores its own index to one word, with nothing ordering the stores: a race.
__global__ void racy_store(float* out) { out[0] = static_cast<float>(threadIdx.x); }

}  // namespace

TEST_CASE("a profiled launch goes on past a race and names it, as ncu counts a racy kernel",
          "[backend][profile]") {
    DeviceBuffer<float> out(1);
    ProfileScope scope;
    warpdrill::launch(racy_store, {1, 64}, out.data());
    warpdrill::check_launch();
    const LaunchProfile profile = scope.launches().at(0);
    CHECK(profile.race.find("race on out[0]") != std::string::npos);
    CHECK(profile.race.find("profile_patterns.cu") != std::string::npos);
    CHECK(profile.global_stores.requests == 2);  // one store instruction a warp: the counts are all there
}
