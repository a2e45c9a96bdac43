// Lesson 13's checks. Run them with `warpdrill check 13`. They use as many
// GPUs as there are, up to 4: the CPU backend imitates 4 (WARPDRILL_CPU_DEVICES).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "warpdrill/catch.h"
#include "warpdrill/course/lesson.h"
#include "warpdrill/course/ring.h"
#include "warpdrill/data.h"
#include "warpdrill/host.h"
#include "warpdrill/messages.h"
#include "warpdrill/reference.h"

using namespace warpdrill;
using namespace warpdrill::course;

namespace {

int ring_gpus_here() {
    int count = 0;
    check_cuda(cudaGetDeviceCount(&count));
    return std::min(count, 4);
}

// ---- add_into --------------------------------------------------------------------

// dst and src hold n floats and two more each, which must stay as they are.
void check_add_into(std::int64_t n) {
    const std::uint64_t seed = fresh_seed();
    const std::size_t size = static_cast<std::size_t>(n) + 2;
    const std::vector<float> dst = random_floats(size, seed), src = random_floats(size, seed + 1);
    DeviceBuffer<float> d_dst{std::span<const float>(dst)}, d_src{std::span<const float>(src)};
    const std::string input =
        messages::text("lesson13.add_input", {{"n", n}, {"tail", n % 4}, {"seed", describe_seed(seed)}});
    launch_or_fail("add_into", input, [&] {
        add_into_on_device(d_dst.data(), d_src.data(), n);
        check_launch();
    });
    const std::vector<float> got = d_dst.download();
    for (std::size_t i = 0; i < size; ++i) {
        const float want = static_cast<std::int64_t>(i) < n ? dst[i] + src[i] : dst[i];
        if (got[i] == want) continue;
        std::string why;
        if (static_cast<std::int64_t>(i) >= n) {
            why = messages::text("lesson13.add_reason.past_n");
        } else if (got[i] == dst[i]) {
            why = messages::text(static_cast<std::int64_t>(i) >= n / 4 * 4
                                     ? "lesson13.add_reason.tail_not_added"
                                     : "lesson13.add_reason.not_added");
        }
        FAIL(messages::text("lesson13.add_wrong", {{"element", i},
                                                   {"got", number_text(got[i])},
                                                   {"want", number_text(want)},
                                                   {"before", number_text(dst[i])},
                                                   {"why", why},
                                                   {"input", input}}));
    }
    if (const auto stats = last_launch_stats(); stats && n >= 4 && stats->wide_accesses == 0)
        FAIL(messages::text("lesson13.add_not_wide", {{"input", input}}));
    SUCCEED();
}

// ---- the ring's inputs, runs and results ----------------------------------------------

struct RingShape {
    int gpus;
    std::int64_t floats;
    int slices;
};

std::string describe(const RingShape& shape) {
    const Ring ring{shape.gpus, shape.floats, shape.slices};
    return messages::text(
        "lesson13.shape",
        {{"gpus", counted(static_cast<std::uint64_t>(shape.gpus), "lesson13.gpus.one", "lesson13.gpus.many")},
         {"floats",
          counted(static_cast<std::uint64_t>(shape.floats), "lesson13.floats.one", "lesson13.floats.many")},
         {"chunk", ring.chunk_floats()},
         {"slices",
          counted(static_cast<std::uint64_t>(shape.slices), "lesson13.slices.one", "lesson13.slices.many")}});
}

// Where element i lies: "chunk 1 (elements [12, 24)), slice 0".
std::string place_of(const Ring& ring, std::int64_t i) {
    const int c = static_cast<int>(i / std::max<std::int64_t>(ring.chunk_floats(), 1));
    int k = 0;
    while (k + 1 < ring.slices && i >= ring.slice(c, k).end) ++k;
    const Span chunk = ring.chunk(c);
    return messages::text("lesson13.place",
                          {{"chunk", c}, {"first", chunk.begin}, {"end", chunk.end}, {"slice", k}});
}

using Vectors = std::vector<std::vector<float>>;  // one per GPU

struct RingRun {
    Vectors results;
    std::uint64_t host_waits = 0;  // inside ring_allreduce, on the CPU backend
};

// Enables peer access, runs the learner's all-reduce, waits for every GPU and
// reads their vectors. `prepare` may fill the inboxes first.
RingRun run_ring(const RingShape& shape, const Vectors& inputs, const std::string& input,
                 const std::function<void(RingBuffers&)>& prepare = {}) {
    RingRun run;
    launch_or_fail("ring_allreduce", input, [&] {
        RingBuffers buffers(shape.gpus, shape.floats, shape.slices);
        for (int g = 0; g < shape.gpus; ++g) buffers.upload(g, inputs[g]);
        if (prepare) prepare(buffers);
        enable_ring_peer_access(shape.gpus);
        check_cuda(cudaGetLastError());
        const std::uint64_t waits_before = host_waits().value_or(0);
        run_ring_allreduce(buffers.ring());
        run.host_waits = host_waits().value_or(0) - waits_before;
        check_cuda(cudaGetLastError());
        buffers.synchronize();
        for (int g = 0; g < shape.gpus; ++g) run.results.push_back(buffers.download(g));
    });
    return run;
}

// The first GPU and element where two sets of vectors differ in their bits.
std::optional<std::pair<int, std::size_t>> first_difference(const Vectors& a, const Vectors& b) {
    for (std::size_t g = 0; g < a.size(); ++g) {
        for (std::size_t i = 0; i < a[g].size(); ++i) {
            if (std::bit_cast<std::uint32_t>(a[g][i]) != std::bit_cast<std::uint32_t>(b[g][i])) {
                return std::pair{static_cast<int>(g), i};
            }
        }
    }
    return std::nullopt;
}

// ---- random inputs: the sum within its tolerance, the same bits every run -------------------

// On the CPU backend, runs `run` with the streams' queued work latest first,
// then in the order queued; on a GPU, twice.
template <class Run>
std::pair<RingRun, RingRun> run_in_both_orders(Run run) {
#if defined(WARPDRILL_BACKEND_CPU)
    RingRun latest_first = run(), in_order;
    {
        cpu::ScopedStreamOrder order(cpu::StreamOrder::queued);
        in_order = run();
    }
    return {std::move(latest_first), std::move(in_order)};
#else
    RingRun first = run();
    return {std::move(first), run()};
#endif
}

std::string stream_order_text(int run) {
    if (!cpu_backend)
        return messages::text(run == 0 ? "lesson13.order.first_run" : "lesson13.order.second_run");
    return messages::text(run == 0 ? "lesson13.order.latest_first" : "lesson13.order.in_order");
}

void expect_sums(const RingShape& shape, const Vectors& inputs, const RingRun& run, const std::string& input,
                 int run_index) {
    const Ring ring{shape.gpus, shape.floats, shape.slices};
    for (std::size_t i = 0; i < static_cast<std::size_t>(shape.floats); ++i) {
        double want = 0.0, sum_abs = 0.0;
        for (const auto& vector : inputs) {
            want += vector[i];
            sum_abs += std::fabs(vector[i]);
        }
        const double tolerance = sum_tolerance(static_cast<std::size_t>(shape.gpus), sum_abs,
                                               static_cast<std::size_t>(shape.gpus));
        for (int g = 0; g < shape.gpus; ++g) {
            const float got = run.results[g][i];
            if (std::fabs(got - want) <= tolerance) continue;
            std::string cause;
            if (std::isnan(got)) {
                cause = messages::text("lesson13.cause.nan");
            } else if (got == inputs[g][i]) {
                cause = messages::text("lesson13.cause.own_input", {{"gpu", g}});
            }
            FAIL(
                messages::text("lesson13.sum_wrong", {{"gpu", g},
                                                      {"element", i},
                                                      {"got", number_text(got)},
                                                      {"want", number_text(want)},
                                                      {"tolerance", number_text(tolerance)},
                                                      {"place", place_of(ring, static_cast<std::int64_t>(i))},
                                                      {"input", input},
                                                      {"order", stream_order_text(run_index)}})
                << likely_cause_line(cause));
        }
    }
}

void check_ring_sums(const RingShape& shape) {
    const std::uint64_t seed = fresh_seed();
    Vectors inputs;
    for (int g = 0; g < shape.gpus; ++g) {
        inputs.push_back(random_floats(static_cast<std::size_t>(shape.floats), seed + static_cast<std::uint64_t>(g)));
    }
    const std::string input =
        messages::text("checks.input_seed", {{"input", describe(shape)}, {"seed", describe_seed(seed)}});
    const auto [first, second] = run_in_both_orders([&] { return run_ring(shape, inputs, input); });
    expect_sums(shape, inputs, first, input, 0);
    expect_sums(shape, inputs, second, input, 1);
    if (const auto difference = first_difference(first.results, second.results)) {
        const auto [g, i] = *difference;
        FAIL(messages::text("lesson13.runs_differ", {{"gpu", g},
                                                     {"element", i},
                                                     {"first", number_text(first.results[g][i])},
                                                     {"second", number_text(second.results[g][i])},
                                                     {"input", input}}));
    }
    if (first.host_waits > 0)
        FAIL(messages::text("lesson13.host_waits", {{"waits", first.host_waits}, {"input", input}}));
    SUCCEED();
}

// ---- whose shares each sum holds --------------------------------------------------------

// In this check GPU g's input is 4^g at every element, so that a sum tells
// whose shares it holds (a base-4 digit each), and reduce-scatter step s's
// inbox on GPU q starts filled with 4^G * (1 + q (G - 1) + s), so that a sum
// that read it before its copy arrived tells which one.
struct Shares {
    std::vector<int> count;  // per GPU: how many times its share is in the sum
    int early_inbox = -1;    // q (G - 1) + s of an inbox read before its copy, or -1
};

std::optional<Shares> shares_in(float value, int gpus) {
    const double base = std::pow(4.0, gpus);
    if (!std::isfinite(value) || value < 0 || value != std::floor(value)) return std::nullopt;
    const auto high = static_cast<std::int64_t>(value / base);
    auto low = static_cast<std::int64_t>(value - static_cast<double>(high) * base);
    Shares shares;
    for (int g = 0; g < gpus; ++g, low /= 4) shares.count.push_back(static_cast<int>(low % 4));
    if (high > 0) shares.early_inbox = static_cast<int>(high - 1);
    return shares;
}

// "GPU 1", "GPUs 0, 2 and 3"
std::string gpu_list(const std::vector<int>& gpus) {
    if (gpus.size() == 1) return "GPU " + std::to_string(gpus[0]);  // the same in both languages
    std::string list = std::to_string(gpus[0]);
    for (std::size_t k = 1; k + 1 < gpus.size(); ++k)
        list = messages::text("lesson13.gpu_list.more", {{"list", list}, {"gpu", gpus[k]}});
    return messages::text("lesson13.gpu_list.many", {{"list", list}, {"gpu", gpus.back()}});
}

std::string describe(const Shares& shares) {
    std::vector<int> once, twice, missing;
    for (int g = 0; g < static_cast<int>(shares.count.size()); ++g) {
        (shares.count[g] == 0 ? missing : shares.count[g] == 1 ? once : twice).push_back(g);
    }
    std::string text = once.empty() ? messages::text("lesson13.shares.none_once")
                                    : messages::text("lesson13.shares.once", {{"gpus", gpu_list(once)}});
    if (!twice.empty())
        text = messages::text("lesson13.shares.twice", {{"shares", text}, {"gpus", gpu_list(twice)}});
    if (!missing.empty())
        text = messages::text("lesson13.shares.missing", {{"shares", text}, {"gpus", gpu_list(missing)}});
    if (shares.early_inbox >= 0) text = messages::text("lesson13.shares.inbox", {{"shares", text}});
    return text;
}

// The GPUs a chunk's sum passes in the reduce-scatter: c, c + 1, ..., c - 1.
int gpu_at(int c, int position, int gpus) { return (c + position) % gpus; }

// Whether exactly the shares of the first `length` GPUs of chunk c's path have
// count `wanted`, and every other share count 1.
bool path_prefix(const Shares& shares, int c, int length, int wanted) {
    const int gpus = static_cast<int>(shares.count.size());
    for (int position = 0; position < gpus; ++position) {
        const int expected = position < length ? wanted : 1;
        if (shares.count[gpu_at(c, position, gpus)] != expected) return false;
    }
    return shares.early_inbox < 0;
}

// What went wrong in the reduce-scatter of chunk c, read from the sum its last GPU holds.
std::string reduce_scatter_cause(const Shares& shares, int c) {
    const int gpus = static_cast<int>(shares.count.size());
    if (shares.early_inbox >= 0) {
        const int q = shares.early_inbox / (gpus - 1), s = shares.early_inbox % (gpus - 1);
        return messages::text("lesson13.cause.early_inbox",
                              {{"step", s}, {"gpu", q}, {"sender", (q + gpus - 1) % gpus}});
    }
    const int last = gpu_at(c, gpus - 1, gpus);
    if (path_prefix(shares, c, gpus - 1, 0)) {
        return messages::text(
            "lesson13.cause.never_added",
            {{"step", gpus - 2}, {"gpu", last}, {"chunk", c}, {"sender", gpu_at(c, gpus - 2, gpus)}});
    }
    for (int length = 1; length < gpus; ++length) {
        const int gpu = gpu_at(c, length, gpus);
        if (path_prefix(shares, c, length, 0) && length + 1 < gpus) {
            return messages::text("lesson13.cause.sent_early", {{"step", length},
                                                                {"gpu", gpu},
                                                                {"chunk", c},
                                                                {"receiver", gpu_at(c, length + 1, gpus)},
                                                                {"previous", length - 1}});
        }
        if (path_prefix(shares, c, length, 2)) {
            return messages::text(
                "lesson13.cause.added_twice",
                {{"step", length - 1}, {"gpu", gpu}, {"chunk", c}, {"sender", gpu_at(c, length - 1, gpus)}});
        }
    }
    return "";
}

// What went wrong when chunk c went from GPU `from` to GPU `to` in all-gather step `step`,
// read from what `to` holds.
std::string all_gather_cause(const Shares& shares, int c, int to, int step) {
    const int gpus = static_cast<int>(shares.count.size());
    const int from = (to + gpus - 1) % gpus;
    const int position = (to - c + gpus) % gpus;  // `to`'s place on chunk c's reduce-scatter path
    const auto cause = [&](const char* id) {
        return messages::text(id, {{"step", step}, {"gpu", to}, {"chunk", c}, {"sender", from}});
    };
    if (path_prefix(shares, c, position + 1, 2)) return cause("lesson13.cause.gather_added");
    bool partial = shares.early_inbox < 0;
    for (int p = 0; p < gpus; ++p) partial = partial && shares.count[gpu_at(c, p, gpus)] == (p <= position ? 1 : 0);
    if (partial) return cause("lesson13.cause.gather_missing");
    return cause("lesson13.cause.gather_early");
}

void check_ring_shares(const RingShape& shape, int run_index, const std::function<RingRun()>& run_it) {
    const RingRun run = run_it();
    const int gpus = shape.gpus;
    const Ring ring{gpus, shape.floats, shape.slices};
    const float everyone = static_cast<float>((std::pow(4.0, gpus) - 1) / 3);
    for (std::int64_t i = 0; i < shape.floats; ++i) {
        for (int g = 0; g < gpus; ++g) {
            const float got = run.results[g][static_cast<std::size_t>(i)];
            if (got == everyone) continue;
            const int c = static_cast<int>(i / ring.chunk_floats());
            const int last = (c + gpus - 1) % gpus;  // holds chunk c's sum after the reduce-scatter
            const float at_last = run.results[last][static_cast<std::size_t>(i)];
            std::string cause;
            // The first GPU on chunk c's all-gather path that holds a wrong sum.
            int wrong = last, step = -1;
            while (run.results[wrong][static_cast<std::size_t>(i)] == everyone) wrong = (wrong + 1) % gpus, ++step;
            const std::optional<Shares> held = shares_in(run.results[wrong][static_cast<std::size_t>(i)], gpus);
            if (held) cause = step < 0 ? reduce_scatter_cause(*held, c) : all_gather_cause(*held, c, wrong, step);
            const auto shares = shares_in(got, gpus);
            const std::string got_text =
                shares ? messages::text("lesson13.shares_value",
                                        {{"value", number_text(got)}, {"shares", describe(*shares)}})
                       : number_text(got);
            const std::string holds = at_last == everyone ? ""
                                                          : messages::text("lesson13.last_holds",
                                                                           {{"value", number_text(at_last)}});
            FAIL(messages::text("lesson13.shares_wrong", {{"gpu", g},
                                                          {"element", i},
                                                          {"got", got_text},
                                                          {"everyone", number_text(everyone)},
                                                          {"place", place_of(ring, i)},
                                                          {"last", last},
                                                          {"holds", holds},
                                                          {"shape", describe(shape)},
                                                          {"order", stream_order_text(run_index)}})
                 << likely_cause_line(cause));
        }
    }
    SUCCEED();
}

void check_ring_shares(const RingShape& shape) {
    const int gpus = shape.gpus;
    Vectors inputs;
    for (int g = 0; g < gpus; ++g) {
        inputs.emplace_back(static_cast<std::size_t>(shape.floats), static_cast<float>(std::pow(4.0, g)));
    }
    const auto mark_inboxes = [gpus](RingBuffers& buffers) {
        buffers.fill_inboxes([gpus](int gpu, int step) {
            return static_cast<float>(std::pow(4.0, gpus) * (1 + gpu * (gpus - 1) + step));
        });
    };
    const auto run = [&] { return run_ring(shape, inputs, describe(shape), mark_inboxes); };
    check_ring_shares(shape, 0, run);
#if defined(WARPDRILL_BACKEND_CPU)
    cpu::ScopedStreamOrder order(cpu::StreamOrder::queued);
    check_ring_shares(shape, 1, run);
#endif
}

// ---- peer access -----------------------------------------------------------------

void check_peer_access(int gpus) {
    enable_ring_peer_access(gpus);
    if (const cudaError_t left = cudaGetLastError(); left != cudaSuccess) {
        FAIL(messages::text("lesson13.peer_error_left", {{"gpus", gpus}, {"error", cudaGetErrorName(left)}}));
    }
    for (int g = 0; g < gpus; ++g) {
        for (const int peer : {(g + 1) % gpus, (g + gpus - 1) % gpus}) {
            int possible = 0;
            check_cuda(cudaDeviceCanAccessPeer(&possible, g, peer));
            if (!possible || peer == g) continue;
            check_cuda(cudaSetDevice(g));
            const cudaError_t again = cudaDeviceEnablePeerAccess(peer, 0);
            cudaGetLastError();
            check_cuda(cudaSetDevice(0));
            if (again != cudaErrorPeerAccessAlreadyEnabled) {
                FAIL(messages::text("lesson13.no_peer_access", {{"gpus", gpus}, {"gpu", g}, {"peer", peer}}));
            }
        }
    }
    SUCCEED();
}

// ---- the warp ring ------------------------------------------------------------------

void check_warp_ring(int width) {
    constexpr int kThreads = 64;
    constexpr int kValues = kWarpRingValues;
    const std::uint64_t seed = fresh_seed();
    const std::vector<int> in = random_ints(kThreads * kValues, seed, -1000, 1000);
    DeviceBuffer<int> d_in{std::span<const int>(in)};
    DeviceBuffer<int> d_out(in.size());
    d_out.poison();
    const std::string input = messages::text(
        "checks.input_seed", {{"input", "width = " + std::to_string(width)}, {"seed", describe_seed(seed)}});
    launch_or_fail("warp_ring_sums", input, [&] {
        launch_warp_ring(d_in.data(), d_out.data(), kThreads, width);
        check_launch();
    });
    const std::vector<int> got = d_out.download();
    for (int t = 0; t < kThreads; ++t) {
        const int first = t - t % width;
        for (int v = 0; v < kValues; ++v) {
            int want = 0;
            for (int lane = first; lane < first + width; ++lane) want += in[lane * kValues + v];
            const int value = got[t * kValues + v];
            if (value == want) continue;
            std::string why;
            if (value == in[t * kValues + v]) why += messages::text("lesson13.warp_ring.own_value");
            if (value == -1) why += messages::text("lesson13.warp_ring.never_written");
            FAIL(messages::text("lesson13.warp_ring_wrong", {{"input", input},
                                                             {"lane", t % 32},
                                                             {"warp", t / 32},
                                                             {"value", value},
                                                             {"index", v},
                                                             {"chunk", v / (kValues / width)},
                                                             {"width", width},
                                                             {"first", first % 32},
                                                             {"last", first % 32 + width - 1},
                                                             {"want", want},
                                                             {"why", why}}));
        }
    }
    const int ring_moves = 2 * (width - 1) * (kValues / width);  // shuffles per warp
    if (const auto stats = last_launch_stats(); stats && stats->shuffles != 2u * ring_moves) {
        FAIL(messages::text(
            "lesson13.warp_ring_shuffles",
            {{"input", input}, {"shuffles", stats->shuffles / 2}, {"width", width}, {"moves", ring_moves}}));
    }
    SUCCEED();
}

}  // namespace

TEST_CASE("lesson 13: add_into adds four floats at a time, and the tail", "[lesson13][add]") {
    for (const std::int64_t n : {0, 1, 2, 3, 4, 5, 7, 8, 1023, 1024, 4097, 100003}) check_add_into(n);
}

TEST_CASE("lesson 13: enable_peer_access between ring neighbours", "[lesson13][peer]") {
    check_peer_access(ring_gpus_here());
}

TEST_CASE("lesson 13: each GPU's share reaches every GPU once", "[lesson13][ring]") {
    for (int gpus = 2; gpus <= ring_gpus_here(); ++gpus) check_ring_shares({gpus, 12 * gpus + 5, 2});
}

TEST_CASE("lesson 13: ring_allreduce leaves every GPU with the sum", "[lesson13][ring]") {
    for (int gpus = 1; gpus <= ring_gpus_here(); ++gpus) {
        for (const auto& [floats, slices] : std::vector<std::pair<std::int64_t, int>>{
                 {0, 1}, {1, 1}, {2, 2}, {3, 1}, {5, 3}, {4 * gpus + 1, 1}, {1001, 2}, {4099, 3}}) {
            check_ring_sums({gpus, floats, slices});
        }
    }
    check_ring_sums({ring_gpus_here(), (1 << 16) + 13, 4});
}

TEST_CASE("lesson 13: warp_ring_sums, the ring inside a warp", "[lesson13][shuffle]") {
    for (int width = 1; width <= 32; width *= 2) check_warp_ring(width);
}
