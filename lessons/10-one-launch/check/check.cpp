// Lesson 10's checks. Run them with `warpdrill check 10`.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "warpdrill/catch.h"
#include "warpdrill/course/device_sum.h"
#include "warpdrill/course/lesson.h"
#include "warpdrill/data.h"
#include "warpdrill/host.h"
#include "warpdrill/messages.h"
#include "warpdrill/reference.h"

using namespace warpdrill;
using namespace warpdrill::course;

namespace {

constexpr int kBlock = kOneLaunchBlockSize;
constexpr int kPack = 4;
// More blocks than the last block has threads: some of its threads add several partials.
constexpr int kManyBlocks = 300;
// Written to *sum before every launch: a NaN that no addition makes (a GPU
// makes 0x7fffffff, the CPU passes on the NaN it added), so a result with
// these bits was never written.
constexpr std::uint32_t kUnwrittenBits = 0x7fd0d0d0u;

// "-58 (bits 0xc2680000)"
std::string value_text(float value) {
    char digits[32], bits[16];
    std::snprintf(digits, sizeof digits, "%.9g", value);
    std::snprintf(bits, sizeof bits, "0x%08x", std::bit_cast<std::uint32_t>(value));
    return messages::text("lesson10.value", {{"value", digits}, {"bits", bits}});
}

std::string blocks_text(int blocks) { return counted(blocks, "checks.blocks.one", "checks.blocks.many"); }

std::string describe_launch(std::int64_t n, int blocks, std::uint64_t seed) {
    return messages::text("checks.grid_launch", {{"n", n},
                                                 {"tail", n % kPack},
                                                 {"blocks", blocks_text(blocks)},
                                                 {"threads", kBlock},
                                                 {"seed", describe_seed(seed)}});
}

// What a launch leaves behind, with the input it summed.
struct Run {
    float sum = 0;
    std::vector<float> partials;  // as the blocks wrote them (NaN where none did)
    unsigned tickets_after = 0;
    std::optional<LaunchStats> stats;
};

// The partials, the ticket counter and the sum, reused from launch to launch
// as a program would: the counter is set to 0 once, here, and never again.
class Workspace {
  public:
    explicit Workspace(int max_blocks) : tickets_(1), sum_(1) {
        partials_.emplace(static_cast<std::size_t>(max_blocks));
        check_cuda(cudaMemset(tickets_.data(), 0, sizeof(unsigned)));
    }

    Run run(const DeviceBuffer<float>& in, std::int64_t n, int blocks) {
        // A GPU fills more blocks than a laptop imitates: room for each one's partial.
        if (static_cast<std::size_t>(blocks) > partials_->size()) partials_.emplace(static_cast<std::size_t>(blocks));
        partials_->poison();
        const float unwritten = std::bit_cast<float>(kUnwrittenBits);
        sum_.upload(std::span<const float>(&unwritten, 1));
        one_launch_sum(in.data(), n, partials_->data(), tickets_.data(), sum_.data(), blocks);
        check_launch();
        std::vector<float> partials = partials_->download();
        partials.resize(static_cast<std::size_t>(blocks));
        return {sum_.download()[0], std::move(partials), tickets_.download()[0], last_launch_stats()};
    }

  private:
    std::optional<DeviceBuffer<float>> partials_;
    DeviceBuffer<unsigned> tickets_;
    DeviceBuffer<float> sum_;
};

// Block b's share of the input under lesson 8's grid stride: the packs and
// tail elements of its threads.
std::vector<double> reference_partials(const std::vector<float>& input, int blocks) {
    const std::size_t threads = static_cast<std::size_t>(blocks) * kBlock;
    const std::size_t tail_start = input.size() / kPack * kPack;
    std::vector<double> partials(static_cast<std::size_t>(blocks), 0.0);
    for (std::size_t i = 0; i < input.size(); ++i) {
        const std::size_t thread = i < tail_start ? i / kPack % threads : (i - tail_start) % threads;
        partials[thread / kBlock] += input[i];
    }
    return partials;
}

// Within the tolerance of the reference; an infinite or NaN reference must be met exactly.
bool matches(double got, double want, double tolerance) {
    if (!std::isfinite(want)) return got == want || (std::isnan(got) && std::isnan(want));
    return std::fabs(got - want) <= tolerance;
}

double sum_of(const std::vector<float>& input, std::size_t first, std::size_t end) {
    return reference_sum(std::span<const float>(input).subspan(first, end - first));
}

// Where a wrong sum came from, judged from the partials the blocks wrote.
std::string cause_of_wrong_sum(const Run& run, const std::vector<float>& input, double tolerance) {
    if (std::bit_cast<std::uint32_t>(run.sum) == kUnwrittenBits)
        return messages::text("lesson10.cause.unwritten", {{"tickets", run.tickets_after}});
    const bool input_has_nan = std::ranges::any_of(input, [](float v) { return std::isnan(v); });
    if (std::isnan(run.sum) && !input_has_nan) return messages::text("lesson10.cause.nan");
    const std::vector<double> want = reference_partials(input, static_cast<int>(run.partials.size()));
    for (std::size_t b = 0; b < want.size(); ++b) {
        if (matches(run.partials[b], want[b], tolerance)) continue;
        const std::string partial = messages::text(
            "lesson10.cause.partial_wrong",
            {{"block", b}, {"value", value_text(run.partials[b])}, {"want", stream_text(want[b])}});
        const std::size_t tail_start = input.size() / kPack * kPack;
        const double tail = sum_of(input, tail_start, input.size());
        if (b == 0 && tail_start < input.size() && matches(run.partials[b], want[b] - tail, tolerance)) {
            const std::size_t missing = input.size() - tail_start;
            return messages::text(
                missing == 1 ? "lesson10.cause.lacks_tail_one" : "lesson10.cause.lacks_tail_many",
                {{"partial", partial}, {"missing", missing}, {"first", tail_start}, {"end", input.size()}});
        }
        if (std::isnan(run.partials[b]))
            return messages::text("lesson10.cause.partial_unwritten", {{"partial", partial}});
        return partial;
    }
    double prefix = 0;
    for (std::size_t b = 0; b + 1 < want.size(); ++b) {
        prefix += run.partials[b];
        if (matches(run.sum, prefix, tolerance)) {
            return messages::text("lesson10.cause.total_of_first", {{"last", b}, {"count", want.size()}});
        }
    }
    return messages::text("lesson10.cause.total_wrong");
}

// The error bound of the kernel's order of additions: each thread adds its
// packs and tail one after another, then the last block's threads add their
// partials one after another; the rest are trees (sequential_terms).
double tolerance_of(const std::vector<float>& input, int blocks) {
    return sum_tolerance(input.size(), reference_sum_abs(input),
                         one_launch_sequential_terms(static_cast<std::int64_t>(input.size()), blocks));
}

void expect_sum(const Run& run, const std::vector<float>& input, double tolerance, std::uint64_t seed) {
    const std::int64_t n = static_cast<std::int64_t>(input.size());
    const int blocks = static_cast<int>(run.partials.size());
    const double want = reference_sum(input);
    const bool written = std::bit_cast<std::uint32_t>(run.sum) != kUnwrittenBits;
    if (!written || !matches(run.sum, want, tolerance)) {
        FAIL(messages::text("lesson10.sum_wrong", {{"value", value_text(run.sum)},
                                                   {"want", stream_text(want)},
                                                   {"tolerance", stream_text(tolerance)},
                                                   {"launch", describe_launch(n, blocks, seed)}})
             << likely_cause_line(cause_of_wrong_sum(run, input, tolerance)));
    }
    if (run.tickets_after != 0) {
        FAIL(messages::text("lesson10.counter_not_reset",
                            {{"tickets", run.tickets_after}, {"launch", describe_launch(n, blocks, seed)}}));
    }
    // One block needs no ticket to know it is the last; more blocks need one each.
    if (blocks > 1 && run.stats && run.stats->atomics != static_cast<std::uint64_t>(blocks)) {
        FAIL(messages::text("lesson10.atomics", {{"atomics", run.stats->atomics},
                                                 {"blocks", blocks_text(blocks)},
                                                 {"launch", describe_launch(n, blocks, seed)}}));
    }
    SUCCEED();  // one passed check per launch, in Catch2's count
}

void check_sum(Workspace& workspace, const std::vector<float>& input, int blocks, std::uint64_t seed) {
    const DeviceBuffer<float> d_in{std::span<const float>(input)};
    const Run run = workspace.run(d_in, static_cast<std::int64_t>(input.size()), blocks);
    expect_sum(run, input, tolerance_of(input, blocks), seed);
}

std::string order_name(int run) {
    switch (run) {
        case 0: return messages::text("lesson10.order.first");
        case 1: return messages::text("lesson10.order.second");
        case 2: return messages::text("lesson10.order.descending");
        default: return messages::text("lesson10.order.shuffled");
    }
}

// Four launches of the same input and grid: twice as they come, then (on the
// CPU backend) with each block's threads in descending order, and with the
// blocks started in a shuffled order (another block takes the last ticket)
// and each block's threads run in one.
std::vector<Run> runs_in_every_order(Workspace& workspace, const DeviceBuffer<float>& in, std::int64_t n,
                                     int blocks, std::uint64_t seed) {
    std::vector<Run> runs;
    runs.push_back(workspace.run(in, n, blocks));
    runs.push_back(workspace.run(in, n, blocks));
#if defined(WARPDRILL_BACKEND_CPU)
    {
        cpu::ScopedThreadOrder order(cpu::ThreadOrder::descending);
        runs.push_back(workspace.run(in, n, blocks));
    }
    {
        cpu::ScopedThreadOrder order(cpu::ThreadOrder::shuffled, seed);
        runs.push_back(workspace.run(in, n, blocks));
    }
#else
    (void)seed;
#endif
    return runs;
}

// A device buffer of (2^31 + 7) zeros but for a few whole numbers, some of
// them past index 2^31 and in the last n % 4 elements: their sum is exact.
struct PastIntInput {
    static constexpr std::int64_t n = (std::int64_t{1} << 31) + 7;
    static constexpr std::int64_t marked[] = {5, (std::int64_t{1} << 31) + 2, n - 3, n - 1};
    static constexpr float marks[] = {1.0f, 2.0f, 4.0f, 8.0f};
    static constexpr float sum = 15.0f;
    DeviceBuffer<float> values{static_cast<std::size_t>(n)};

    PastIntInput() {
        check_cuda(cudaMemset(values.data(), 0, static_cast<std::size_t>(n) * sizeof(float)));
        for (std::size_t k = 0; k < std::size(marked); ++k) {
            check_cuda(
                cudaMemcpy(values.data() + marked[k], &marks[k], sizeof(float), cudaMemcpyHostToDevice));
        }
    }
};

}  // namespace

TEST_CASE("lesson 10: reduce_one_launch sums random floats of every size", "[lesson10][reduce]") {
    INFO(describe_backend());
    const int sizes[] = {
        0, 1, 2, 3, 4, 5, 7, 31, 32, 33, 255, 1000, 1023, 4099, (1 << 16) + 3, (1 << 20) + 1};
    Workspace workspace(one_launch_blocks(sizes[std::size(sizes) - 1]));
    for (int n : sizes) {
        const std::uint64_t seed = fresh_seed();
        check_sum(workspace, random_floats(static_cast<std::size_t>(n), seed), one_launch_blocks(n), seed);
    }
}

TEST_CASE("lesson 10: grids of one block and of many; no element lost or counted twice",
          "[lesson10][reduce]") {
    // Whole numbers sum exactly in float: any difference is a lost or doubled element.
    Workspace workspace(kManyBlocks);
    for (int n : {7, 1021, 4099, (1 << 20) + 5}) {
        for (int blocks : {1, 2, one_launch_blocks(n), kManyBlocks}) {
            const std::uint64_t seed = fresh_seed();
            const std::vector<float> input = random_small_integers(static_cast<std::size_t>(n), seed);
            const DeviceBuffer<float> d_in{std::span<const float>(input)};
            expect_sum(workspace.run(d_in, n, blocks), input, 0.0, seed);
        }
    }
}

TEST_CASE("lesson 10: the same bits on every run, in every thread order, for each grid size",
          "[lesson10][reduce][determinism]") {
    INFO(describe_backend());
    const std::int64_t n = 50003;
    const std::uint64_t seed = fresh_seed();
    const std::vector<float> input = random_floats(static_cast<std::size_t>(n), seed);
    const DeviceBuffer<float> d_in{std::span<const float>(input)};
    Workspace workspace(kManyBlocks);
    for (int blocks : {1, 7, one_launch_blocks(n), kManyBlocks}) {
        const std::vector<Run> runs = runs_in_every_order(workspace, d_in, n, blocks, seed);
        for (std::size_t r = 0; r < runs.size(); ++r) {
            expect_sum(runs[r], input, tolerance_of(input, blocks), seed);
            if (std::bit_cast<std::uint32_t>(runs[r].sum) != std::bit_cast<std::uint32_t>(runs[0].sum)) {
                FAIL(messages::text("lesson10.bits_differ", {{"first", value_text(runs[0].sum)},
                                                             {"first_run", order_name(0)},
                                                             {"other", value_text(runs[r].sum)},
                                                             {"other_run", order_name(static_cast<int>(r))},
                                                             {"launch", describe_launch(n, blocks, seed)}}));
            }
        }
    }
}

TEST_CASE("lesson 10: NaN and infinity reach the sum", "[lesson10][reduce]") {
    const std::int64_t n = 5001;
    Workspace workspace(one_launch_blocks(n));
    const float inf = std::numeric_limits<float>::infinity();
    struct Special {
        std::int64_t index;
        float value;
    };
    const std::vector<std::vector<Special>> cases = {
        {{n / 3, std::numeric_limits<float>::quiet_NaN()}},  // NaN
        {{n - 1, inf}},                                      // +inf, in the last n % 4 elements
        {{7, -inf}},                                         // -inf
        {{n / 2, inf}, {n - 1, -inf}},                       // both: NaN
    };
    for (const auto& specials : cases) {
        for (int blocks : {1, one_launch_blocks(n)}) {
            const std::uint64_t seed = fresh_seed();
            std::vector<float> input = random_floats(static_cast<std::size_t>(n), seed);
            for (const Special& special : specials)
                input[static_cast<std::size_t>(special.index)] = special.value;
            const DeviceBuffer<float> d_in{std::span<const float>(input)};
            expect_sum(workspace.run(d_in, n, blocks), input, tolerance_of(input, blocks), seed);
        }
    }
}

TEST_CASE("lesson 10: a misaligned input and a negative count are refused", "[lesson10][reduce]") {
    DeviceBuffer<float> buffer(64);
    DeviceBuffer<float> partials(1);
    DeviceBuffer<unsigned> tickets(1);
    CHECK_THROWS_AS(one_launch_sum(buffer.data() + 1, 60, partials.data(), tickets.data(), buffer.data(), 1),
                    std::invalid_argument);
    CHECK_THROWS_AS(one_launch_sum(buffer.data(), -1, partials.data(), tickets.data(), buffer.data(), 1),
                    std::invalid_argument);
}

TEST_CASE("lesson 10: the given atomicAdd(float*) version is right, but not the same bits every run",
          "[lesson10][atomic]") {
    // Many blocks, so that many block sums race to *sum.
    constexpr int kRuns = 20;
    constexpr int kBlocks = 64;
    const std::int64_t n = kBlocks * kBlock * 4 + 3;
    const std::uint64_t seed = fresh_seed();
    const std::vector<float> input = random_floats(static_cast<std::size_t>(n), seed);
    const DeviceBuffer<float> d_in{std::span<const float>(input)};
    DeviceBuffer<float> sum(1);
    const double want = reference_sum(input);
    const double tolerance =
        sum_tolerance(input.size(), reference_sum_abs(input), n / (kBlocks * kBlock) + 1 + kBlocks);

    std::vector<float> results;
    for (int run = 0; run < kRuns; ++run) {
#if defined(WARPDRILL_BACKEND_CPU)
        // A GPU's blocks finish in an order nothing fixes. The CPU backend
        // runs them in index order on each worker, unless the shuffled order
        // starts them in an order drawn from its seed: another one each run.
        cpu::ScopedThreadOrder order(cpu::ThreadOrder::shuffled, seed + static_cast<std::uint64_t>(run));
#endif
        check_cuda(cudaMemset(sum.data(), 0, sizeof(float)));
        atomic_add_sum(d_in.data(), n, sum.data(), kBlocks);
        check_launch();
        results.push_back(sum.download()[0]);
        CHECK(std::fabs(results.back() - want) <= tolerance);
    }
    const auto bits = [](float value) { return std::bit_cast<std::uint32_t>(value); };
    std::vector<std::uint32_t> distinct;
    for (float result : results) distinct.push_back(bits(result));
    std::ranges::sort(distinct);
    distinct.erase(std::ranges::unique(distinct).begin(), distinct.end());

    const std::string summary = messages::text(
        "lesson10.atomic.summary",
        {{"n", n}, {"runs", kRuns}, {"blocks", kBlocks}, {"seed", seed}, {"want", number_text(want)}});
    const auto run_gave = [](std::int64_t run, float result) {
        return messages::text("lesson10.atomic.run_gave", {{"run", run}, {"value", value_text(result)}});
    };
    const auto other = std::ranges::find_if(results, [&](float r) { return bits(r) != bits(results[0]); });
    if (other != results.end()) {
        const std::uint32_t a = bits(results[0]), b = bits(*other);
        const std::int64_t other_run = (other - results.begin()) + 1;
        const std::string other_line =
            (a ^ b) >> 31 == 0
                ? messages::text(
                      "lesson10.atomic.run_gave_apart",
                      {{"run", other_run}, {"value", value_text(*other)}, {"ulps", a > b ? a - b : b - a}})
                : run_gave(other_run, *other);
        WARN(summary << "\n  " << run_gave(1, results[0]) << "\n  " << other_line << "\n"
                     << messages::text(
                            cpu_backend ? "lesson10.atomic.differ_cpu" : "lesson10.atomic.differ_gpu",
                            {{"distinct", distinct.size()}, {"runs", kRuns}}));
    } else {
        WARN(messages::text(cpu_backend ? "lesson10.atomic.same_cpu" : "lesson10.atomic.same_gpu",
                            {{"summary", summary}, {"value", value_text(results[0])}}));
    }
}

TEST_CASE("lesson 10: more than 2^31 floats, on a GPU with the memory", "[lesson10][reduce][large]") {
    if (cpu_backend) {
        WARN(messages::text("lesson10.large.skipped_cpu"));
        return;
    }
    std::optional<PastIntInput> input;
    try {
        input.emplace();
    } catch (const CudaError& error) {
        (void)cudaGetLastError();  // the failed allocation is not the next launch's error
        WARN(messages::text("lesson10.large.no_room", {{"error", error.what()}}));
        return;
    }
    const int blocks = one_launch_blocks(PastIntInput::n);
    Workspace workspace(blocks);
    std::optional<Run> finished;
    try {
        finished = workspace.run(input->values, PastIntInput::n, blocks);
    } catch (const CudaError& error) {
        FAIL(
            messages::text("lesson10.large.failed",
                           {{"n", PastIntInput::n}, {"blocks", blocks_text(blocks)}, {"error", error.what()}})
            << likely_cause_line(messages::text("lesson10.large.index_wrapped")));
    }
    const Run& run = *finished;
    if (run.sum != PastIntInput::sum) {
        FAIL(messages::text("lesson10.large.sum_wrong", {{"value", value_text(run.sum)},
                                                         {"n", PastIntInput::n},
                                                         {"blocks", blocks_text(blocks)},
                                                         {"threads", kBlock}}));
    }
    CHECK(run.tickets_after == 0);
}
