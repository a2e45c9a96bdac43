// The GPU benchmark: every lesson's sum kernel, cub::DeviceReduce::Sum and a
// device-to-device copy at 2^16 to 2^28 floats (and lesson 10, whose count is
// 64-bit, at 2^32 where the GPU has the memory), and ReduceScale on a
// (442368, 128) matrix against a cub::BlockReduce block-per-row baseline.
// Inputs rotate over enough buffers that L2 cannot serve them, and every
// kernel's result is checked against a double-precision reference first.
// Each kernel is timed twice with CUDA events, median of 50 runs after 5
// warm-ups each:
//   - "time": as a caller sees one call, the host's time to submit its
//     launches included (events recorded around the call, each run waited for);
//   - "GPU": the GPU's time alone, nvbench's way: the call is queued behind a
//     kernel that holds the stream until the host has queued all of it.
// Where a sum takes a few microseconds the two differ most, and the first
// moves with the host from run to run.
//   gpu_bench [--csv FILE] [--svg FILE] [--quick] [--lessons 8,10]
// --lessons keeps only those lessons' sum kernels (CUB and the copy always run).
#include <cub/cub.cuh>

#include <algorithm>
#include <atomic>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "bench_kernels.h"  // the lessons' kernels: solutions/, or one lesson from lessons/
#include "line_plot.h"
#include "warpdrill/data.h"
#include "warpdrill/host.h"
#include "warpdrill/reference.h"

namespace {

using warpdrill::check_cuda;
using warpdrill::check_launch;
using warpdrill::DeviceBuffer;

constexpr int kWarmups = 5;
constexpr int kRuns = 50;
constexpr unsigned kBlock = 256;
constexpr std::size_t kRotationBytes = std::size_t{512} << 20;  // many times any L2

// Reduces n floats at `in` to one float at `out`, using `scratch` as needed.
using SumFn = std::function<void(const float* in, float* out, std::int64_t n, float* scratch)>;

struct SumKernel {
    std::string lesson;
    std::string idea;
    SumFn run;
    bool counts_past_int = false;  // takes a 64-bit element count
};

// Applies a block-sum kernel to its own output until one value is left, as
// the classic reduction samples do. Lessons 1 to 8 count elements in an int.
template <class Kernel>
SumFn repeat_until_one(Kernel kernel, int elements_per_thread, bool dynamic_shared) {
    return [=](const float* in, float* out, std::int64_t count, float* scratch) {
        int n = static_cast<int>(count);
        const int span = static_cast<int>(kBlock) * elements_per_thread;
        const float* from = in;
        float* buffers[2] = {scratch, scratch + (n + span - 1) / span};
        for (int pass = 0;; ++pass) {
            const int blocks = (n + span - 1) / span;
            float* to = blocks == 1 ? out : buffers[pass % 2];
            warpdrill::launch(
                kernel, {static_cast<unsigned>(blocks), kBlock, dynamic_shared ? kBlock * sizeof(float) : 0},
                from, to, n);
            if (blocks == 1) return;
            from = to;
            n = blocks;
        }
    };
}

// Lesson 10: one launch. Its partials live in the scratch buffer; its ticket
// counter is set to 0 once, here, and every launch leaves it at 0.
SumFn one_launch() {
    auto tickets = std::make_shared<DeviceBuffer<unsigned>>(1);
    check_cuda(cudaMemset(tickets->data(), 0, sizeof(unsigned)));
    const int resident = warpdrill::resident_blocks(reduce_one_launch, kBlock);
    return [tickets, resident](const float* in, float* out, std::int64_t n, float* scratch) {
        const std::int64_t needed = (n / 4 + kBlock - 1) / kBlock;
        const auto blocks = static_cast<unsigned>(std::clamp<std::int64_t>(needed, 1, resident));
        warpdrill::launch(reduce_one_launch, {blocks, kBlock}, in, n, scratch, tickets->data(), out);
    };
}

// Lesson 11: one cooperative launch, as many blocks as are resident at once
// (fewer for small inputs: one pack of four per thread).
void sum_cooperative(const float* in, float* out, std::int64_t n, float* scratch) {
    static const int resident = warpdrill::resident_blocks(reduce_cooperative, kBlock);
    const auto blocks =
        static_cast<unsigned>(std::clamp<std::int64_t>((n / 4 + kBlock - 1) / kBlock, 1, resident));
    std::int64_t count = n;
    void* args[] = {&in, &scratch, &out, &count};
    check_cuda(cudaLaunchCooperativeKernel(reduce_cooperative, dim3(blocks), dim3(kBlock), args));
}

// Lesson 12: the same, cooperative and in clusters of kClusterBlocks.
void sum_in_clusters(const float* in, float* out, std::int64_t n, float* scratch) {
    cudaLaunchAttribute attributes[2] = {};
    attributes[0].id = cudaLaunchAttributeClusterDimension;
    attributes[0].val.clusterDim = {kClusterBlocks, 1, 1};
    attributes[1].id = cudaLaunchAttributeCooperative;
    attributes[1].val.cooperative = 1;
    static const int resident_clusters = [&] {
        const cudaLaunchConfig_t one_cluster{dim3(kClusterBlocks), dim3(kBlock), 0, nullptr, attributes, 1};
        int clusters = 0;
        check_cuda(cudaOccupancyMaxActiveClusters(&clusters, reduce_cluster, &one_cluster));
        return clusters;
    }();
    const std::int64_t needed = (n / 4 + kBlock * kClusterBlocks - 1) / (kBlock * kClusterBlocks);
    const auto blocks =
        kClusterBlocks * static_cast<unsigned>(std::clamp<std::int64_t>(needed, 1, resident_clusters));
    const cudaLaunchConfig_t config{dim3(blocks), dim3(kBlock), 0, nullptr, attributes, 2};
    check_cuda(cudaLaunchKernelEx(&config, reduce_cluster, in, scratch, out, n));
}

bool has_clusters() {
    int supported = 0;
    check_cuda(cudaDeviceGetAttribute(&supported, cudaDevAttrClusterLaunch, 0));
    return supported != 0;
}

std::vector<SumKernel> sum_kernels() {
    std::vector<SumKernel> kernels = {
        {"1", "interleaved, divergent", repeat_until_one(reduce_interleaved_divergent, 1, true)},
        {"2", "interleaved, strided index", repeat_until_one(reduce_interleaved_strided, 1, true)},
        {"3", "sequential addressing", repeat_until_one(reduce_sequential, 1, true)},
        {"4", "first add during load", repeat_until_one(reduce_first_add, 2, true)},
        {"5", "last warp unrolled", repeat_until_one(reduce_unroll_last_warp, 2, true)},
        {"6", "complete unroll", repeat_until_one(reduce_complete_unroll<kBlock>, 2, false)},
        {"7", "warp shuffles", repeat_until_one(reduce_warp_shuffle, 2, false)},
        {"8", "grid-stride, 16-byte loads",
         [](const float* in, float* out, std::int64_t elements, float* scratch) {
             const int n = static_cast<int>(elements);
             const int sms = [] {
                 int count = 0;
                 check_cuda(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, 0));
                 return count;
             }();
             const int blocks =
                 std::clamp((n / 4 + static_cast<int>(kBlock) - 1) / static_cast<int>(kBlock), 1, 4 * sms);
             warpdrill::launch(reduce_grid_stride, {static_cast<unsigned>(blocks), kBlock}, in, scratch, n);
             warpdrill::launch(reduce_grid_stride, {1, kBlock}, scratch, out, blocks);
         }},
        {"10", "one launch, the last block finishes", one_launch(), true},
        {"11", "cooperative launch, grid.sync()", sum_cooperative},
    };
    if (has_clusters()) kernels.push_back({"12", "clusters, distributed shared memory", sum_in_clusters});
    return kernels;
}

// cub::DeviceReduce::Sum with its temporary storage. The count's type picks
// CUB's offsets: an int below 2^31, as a program would pass, else 64 bits.
template <class Count>
SumFn cub_sum(const float* in, float* out, Count count) {
    std::size_t temp_bytes = 0;
    check_cuda(cub::DeviceReduce::Sum(nullptr, temp_bytes, in, out, count));
    auto temp = std::make_shared<DeviceBuffer<unsigned char>>(temp_bytes);
    return [temp, temp_bytes](const float* from, float* result, std::int64_t n, float*) {
        std::size_t bytes = temp_bytes;
        check_cuda(cub::DeviceReduce::Sum(temp->data(), bytes, from, result, static_cast<Count>(n)));
    };
}

// A set of input buffers that together exceed L2 many times over. Each holds
// one random tile of up to 2^24 floats, repeated: the content does not change
// the timing, and 2^32 random floats would take minutes to draw.
struct RotatingInputs {
    static constexpr std::size_t kTile = std::size_t{1} << 24;
    std::vector<std::unique_ptr<DeviceBuffer<float>>> buffers;
    double sum = 0;      // of one buffer's values, for the reference
    double sum_abs = 0;  // for the tolerance

    RotatingInputs(std::size_t n, std::uint64_t seed) {
        const std::vector<float> tile = warpdrill::random_floats(std::min(n, kTile), seed);
        const std::size_t count = std::clamp<std::size_t>(kRotationBytes / (n * sizeof(float)), 2, 4096);
        for (std::size_t b = 0; b < count; ++b) {
            buffers.push_back(std::make_unique<DeviceBuffer<float>>(n));
            for (std::size_t first = 0; first < n; first += tile.size()) {
                const std::size_t size = std::min(tile.size(), n - first);
                check_cuda(cudaMemcpy(buffers.back()->data() + first, tile.data(), size * sizeof(float),
                                      cudaMemcpyHostToDevice));
                if (b > 0) continue;
                sum += warpdrill::reference_sum(std::span(tile).first(size));
                sum_abs += warpdrill::reference_sum_abs(std::span(tile).first(size));
            }
        }
    }
    const float* at(int run) const { return buffers[static_cast<std::size_t>(run) % buffers.size()]->data(); }
};

__device__ long long globaltimer_ns() {
    long long ns;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
    return ns;
}

// Spins until *released, for at most two seconds (a host that never releases
// must not hang the GPU), and says so in *timed_out if it gave up.
__global__ void hold_stream(const volatile int* released, volatile int* timed_out) {
    constexpr long long kTimeoutNs = 2'000'000'000;
    const long long start = globaltimer_ns();
    while (!*released) {
        if (globaltimer_ns() - start > kTimeoutNs) {
            *timed_out = 1;
            return;
        }
    }
}

// Holds the stream, as nvbench does, so that the GPU's time alone can be
// measured: while the hold kernel spins, the host queues the timed work
// behind it, and release() lets the GPU run it all without waiting for the
// host between launches.
class StreamHold {
  public:
    StreamHold() {
        check_cuda(cudaHostAlloc(&flags_, 2 * sizeof(int), cudaHostAllocMapped));
        flags_[kReleased] = flags_[kTimedOut] = 0;
    }
    ~StreamHold() { cudaFreeHost(flags_); }
    StreamHold(const StreamHold&) = delete;
    StreamHold& operator=(const StreamHold&) = delete;

    void hold() {
        std::atomic_ref(flags_[kReleased]).store(0);
        warpdrill::launch(hold_stream, {1, 1}, flags_ + kReleased, flags_ + kTimedOut);
    }
    void release() { std::atomic_ref(flags_[kReleased]).store(1); }
    // After the stream has drained: did the hold give up before release()?
    void check_not_timed_out() const {
        if (std::atomic_ref(flags_[kTimedOut]).load())
            throw std::runtime_error("the stream hold timed out before the host had queued the timed work");
    }

  private:
    static constexpr int kReleased = 0;
    static constexpr int kTimedOut = 1;

    int* flags_ = nullptr;  // mapped host memory, read by the hold kernel
};

struct Timing {
    double ms;      // as a caller sees it: the host's submission included
    double gpu_ms;  // the GPU's time alone
};

// Times calls both ways. Each run is numbered, and the numbers go on from
// one call of median() to the next, so that a run's input (its number in
// the rotation) is never one that the last kernel measured has just left in L2.
class Timer {
  public:
    Timer() {
        check_cuda(cudaEventCreate(&start_));
        check_cuda(cudaEventCreate(&stop_));
    }
    ~Timer() {
        cudaEventDestroy(start_);
        cudaEventDestroy(stop_);
    }
    Timer(const Timer&) = delete;
    Timer& operator=(const Timer&) = delete;

    // Median of kRuns runs of body(run), after kWarmups, each way.
    Timing median(const std::function<void(int run)>& body) {
        const double ms = median_of_runs(body, false);
        return {ms, median_of_runs(body, true)};
    }

  private:
    double median_of_runs(const std::function<void(int run)>& body, bool held) {
        for (int warmup = 0; warmup < kWarmups; ++warmup) body(next_run_++);
        check_launch();
        std::vector<double> times;
        for (int timed = 0; timed < kRuns; ++timed) {
            if (held) hold_.hold();
            check_cuda(cudaEventRecord(start_));
            body(next_run_++);
            check_cuda(cudaEventRecord(stop_));
            if (held) hold_.release();
            check_cuda(cudaEventSynchronize(stop_));
            float ms = 0;
            check_cuda(cudaEventElapsedTime(&ms, start_, stop_));
            times.push_back(ms);
        }
        check_launch();
        hold_.check_not_timed_out();
        std::ranges::sort(times);
        return times[times.size() / 2];
    }

    cudaEvent_t start_{}, stop_{};
    StreamHold hold_;
    int next_run_ = 0;
};

struct Row {
    std::string what;  // "lesson 3", "cub::DeviceReduce::Sum", "copy"
    std::string idea;
    std::size_t n;
    Timing time;
    double gbps;  // bytes read (and written, for copy and ReduceScale) per second, by time.ms
    bool correct;
};

// Sum kernels, CUB and the copy at one size.
std::vector<Row> measure_size(std::size_t n, const std::vector<SumKernel>& kernels, Timer& timer) {
    const RotatingInputs inputs(n, warpdrill::fresh_seed());
    const double want = inputs.sum;
    const double tolerance = warpdrill::sum_tolerance(n, inputs.sum_abs, n / 1024 + 64);
    const double bytes = static_cast<double>(n) * sizeof(float);
    DeviceBuffer<float> scratch(n / 256 + 4096);
    DeviceBuffer<float> out(1);
    const auto count = static_cast<std::int64_t>(n);

    auto correct = [&](const SumFn& run) {
        out.poison();
        run(inputs.at(0), out.data(), count, scratch.data());
        check_launch();
        return std::fabs(out.download()[0] - want) <= tolerance;
    };
    std::vector<Row> rows;
    for (const SumKernel& kernel : kernels) {
        const bool ok = correct(kernel.run);
        const Timing time =
            timer.median([&](int run) { kernel.run(inputs.at(run), out.data(), count, scratch.data()); });
        rows.push_back({"lesson " + kernel.lesson, kernel.idea, n, time, bytes / time.ms / 1e6, ok});
    }

    const SumFn cub = count <= INT_MAX ? cub_sum(inputs.at(0), out.data(), static_cast<int>(count))
                                       : cub_sum(inputs.at(0), out.data(), count);
    const bool cub_ok = correct(cub);
    const Timing cub_time = timer.median([&](int run) { cub(inputs.at(run), out.data(), count, nullptr); });
    rows.push_back({"cub", "cub::DeviceReduce::Sum", n, cub_time, bytes / cub_time.ms / 1e6, cub_ok});

    DeviceBuffer<float> copy_to(n);
    const Timing copy_time = timer.median([&](int run) {
        check_cuda(
            cudaMemcpyAsync(copy_to.data(), inputs.at(run), n * sizeof(float), cudaMemcpyDeviceToDevice));
    });
    rows.push_back(
        {"copy", "device-to-device copy (read + write)", n, copy_time, 2 * bytes / copy_time.ms / 1e6, true});
    return rows;
}

// ---- ReduceScale -------------------------------------------------------------

// The baseline the lesson is measured against: one block per row, CUB's
// BlockReduce for the abs-max, the row read twice.
template <int kThreads>
__global__ void reduce_scale_cub_block_per_row(const float* x, float* y, int cols) {
    using BlockReduce = cub::BlockReduce<float, kThreads>;
    __shared__ typename BlockReduce::TempStorage temp;
    __shared__ float row_scale;
    const float* x_row = x + static_cast<std::size_t>(blockIdx.x) * cols;
    float* y_row = y + static_cast<std::size_t>(blockIdx.x) * cols;
    float abs_max = 0.0f;
    for (int c = threadIdx.x; c < cols; c += kThreads) abs_max = fmaxf(abs_max, fabsf(x_row[c]));
    abs_max = BlockReduce(temp).Reduce(abs_max, [](float a, float b) { return fmaxf(a, b); });
    if (threadIdx.x == 0) row_scale = abs_max > 0.0f ? 1.0f / abs_max : 0.0f;
    __syncthreads();
    for (int c = threadIdx.x; c < cols; c += kThreads) y_row[c] = x_row[c] * row_scale;
}

std::vector<Row> measure_reduce_scale(int rows, int cols, Timer& timer) {
    const std::size_t n = static_cast<std::size_t>(rows) * cols;
    const std::vector<float> x = warpdrill::random_floats(n, warpdrill::fresh_seed(), -3.0f, 3.0f);
    DeviceBuffer<float> d_x{std::span<const float>(x)};
    DeviceBuffer<float> d_y(n);
    const double bytes = 2.0 * static_cast<double>(n) * sizeof(float);

    auto correct = [&](const std::function<void()>& run) {
        d_y.poison();
        run();
        check_launch();
        const std::vector<float> y = d_y.download();
        for (int r = 0; r < rows; r += 997) {
            double abs_max = 0;
            for (int c = 0; c < cols; ++c) abs_max = std::fmax(abs_max, std::fabs(x[r * cols + c]));
            for (int c = 0; c < cols; ++c) {
                const double want = x[r * cols + c] / abs_max;
                if (std::fabs(y[r * cols + c] - want) > 3e-7 * std::fabs(want) + 1e-30) return false;
            }
        }
        return true;
    };
    const std::vector<std::pair<std::string, std::function<void()>>> variants = {
        {"block per row, cub::BlockReduce",
         [&] {
             warpdrill::launch(reduce_scale_cub_block_per_row<128>, {static_cast<unsigned>(rows), 128},
                               d_x.data(), d_y.data(), cols);
         }},
        {"lesson 9 baseline, block per row",
         [&] {
             warpdrill::launch(reduce_scale_block_per_row_kernel, {static_cast<unsigned>(rows), 128},
                               d_x.data(), d_y.data(), cols);
         }},
        {"lesson 9, warp per row, float4",
         [&] {
             constexpr int kWarpsPerBlock = 4;
             warpdrill::launch(
                 reduce_scale_warp_per_row_kernel<4, 1>,
                 {static_cast<unsigned>((rows + kWarpsPerBlock - 1) / kWarpsPerBlock), kWarpsPerBlock * 32},
                 d_x.data(), d_y.data(), rows, cols);
         }},
    };
    std::vector<Row> result;
    for (const auto& [name, run] : variants) {
        const bool ok = correct(run);
        const Timing time = timer.median([&](int) { run(); });
        result.push_back({name, "ReduceScale (" + std::to_string(rows) + ", " + std::to_string(cols) + ")", n,
                          time, bytes / time.ms / 1e6, ok});
    }
    const Timing copy_time = timer.median([&](int) {
        check_cuda(cudaMemcpyAsync(d_y.data(), d_x.data(), n * sizeof(float), cudaMemcpyDeviceToDevice));
    });
    result.push_back(
        {"copy", "device-to-device copy (read + write)", n, copy_time, bytes / copy_time.ms / 1e6, true});
    return result;
}

// ---- output -------------------------------------------------------------------

// One size: every kernel's time and bandwidth, against the copy and against CUB.
void print_size_table(const std::vector<Row>& rows) {
    const Row& cub = *std::ranges::find(rows, std::string("cub"), &Row::what);
    const Row& copy = rows.back();
    std::printf("\n2^%d floats (%.1f MB)\n", static_cast<int>(std::log2(rows.front().n)),
                rows.front().n * 4 / 1e6);
    std::printf("%-10s %-38s %8s %8s %7s %7s %7s %7s\n", "kernel", "idea", "time us", "GPU us", "GB/s",
                "% copy", "vs cub", "on GPU");
    for (const Row& row : rows) {
        std::printf("%-10s %-38s %8.1f %8.1f %7.0f %6.0f%% %6.2fx %6.2fx%s\n", row.what.c_str(),
                    row.idea.c_str(), row.time.ms * 1e3, row.time.gpu_ms * 1e3, row.gbps,
                    100 * row.gbps / copy.gbps, cub.time.ms / row.time.ms, cub.time.gpu_ms / row.time.gpu_ms,
                    row.correct ? "" : "  WRONG RESULT");
    }
}

void write_csv(const std::string& path, const std::vector<Row>& rows) {
    std::ofstream csv(path);
    csv << "kernel,idea,floats,time_us,gpu_us,gbps,correct\n";
    for (const Row& row : rows) {
        csv << '"' << row.what << "\",\"" << row.idea << "\"," << row.n << "," << row.time.ms * 1e3 << ","
            << row.time.gpu_ms * 1e3 << "," << row.gbps << "," << (row.correct ? "yes" : "no") << "\n";
    }
}

// The plot's sums: 2^16 to 2^28 floats.
bool on_plot(const Row& row) {
    return row.idea.rfind("ReduceScale", 0) != 0 && row.n <= (std::size_t{1} << 28);
}

// GB/s against size, one line per kernel.
void write_svg(const std::string& path, const std::vector<Row>& rows, const std::string& device) {
    std::vector<warpdrill::bench::Series> series;
    for (const Row& row : rows) {
        if (!on_plot(row)) continue;
        auto line = std::ranges::find(series, row.what, &warpdrill::bench::Series::name);
        if (line == series.end()) line = series.insert(series.end(), {row.what, {}});
        line->points.emplace_back(row.n, row.gbps);
    }
    warpdrill::bench::write_line_plot(path, "Sum of n floats: GB/s read (copy: read + write), " + device,
                                      "floats (n)", series, 16, 28);
}

// "8,10" -> {"8", "10"}
std::vector<std::string> split_list(const std::string& list) {
    std::vector<std::string> items;
    std::istringstream in(list);
    for (std::string item; std::getline(in, item, ',');) items.push_back(item);
    return items;
}

// Room on the GPU for two rotating inputs of n floats, a copy's target and some.
std::string today_utc() {
    const std::time_t now = std::time(nullptr);
    char date[16];
    std::strftime(date, sizeof date, "%Y-%m-%d", std::gmtime(&now));
    return date;
}

// The command, each file named without its folder (a machine's own path).
std::string command_line(int argc, char** argv) {
    std::string line = "gpu_bench";
    for (int a = 1; a < argc; ++a) line += " " + std::filesystem::path(argv[a]).filename().string();
    return line;
}

bool room_for(std::size_t n) {
    std::size_t free_bytes = 0, total_bytes = 0;
    check_cuda(cudaMemGetInfo(&free_bytes, &total_bytes));
    return free_bytes > 3 * n * sizeof(float) + (std::size_t{1} << 30);
}

}  // namespace

int main(int argc, char** argv) {
    std::string csv_path, svg_path;
    std::vector<std::string> lessons;  // empty: all
    bool quick = false;
    for (int a = 1; a < argc; ++a) {
        if (!std::strcmp(argv[a], "--csv") && a + 1 < argc)
            csv_path = argv[++a];
        else if (!std::strcmp(argv[a], "--svg") && a + 1 < argc)
            svg_path = argv[++a];
        else if (!std::strcmp(argv[a], "--lessons") && a + 1 < argc)
            lessons = split_list(argv[++a]);
        else if (!std::strcmp(argv[a], "--quick"))
            quick = true;
    }
    auto selected = [&](const std::string& lesson) {
        return lessons.empty() || std::ranges::count(lessons, lesson);
    };
    try {
        cudaDeviceProp prop{};
        check_cuda(cudaGetDeviceProperties(&prop, 0));
        std::printf(
            "device: %s, %d SMs, L2 %d MB; median of %d runs after %d warm-ups, inputs rotated over %zu MB\n",
            prop.name, prop.multiProcessorCount, prop.l2CacheSize >> 20, kRuns, kWarmups,
            kRotationBytes >> 20);
        std::printf("date: %s (UTC); command: %s\n", today_utc().c_str(), command_line(argc, argv).c_str());
        std::printf(
            "time: one call as its caller sees it, the host's submission included; GPU: the GPU's time\n"
            "alone (the stream held while the host queues the call, as nvbench does). GB/s, %% copy and\n"
            "vs cub come from time; on GPU is CUB's GPU time over the kernel's.\n");
        Timer timer;
        std::vector<SumKernel> kernels = sum_kernels();
        std::erase_if(kernels, [&](const SumKernel& kernel) { return !selected(kernel.lesson); });
        std::vector<Row> all;
        auto measure = [&](std::size_t n, const std::vector<SumKernel>& at_this_size) {
            const std::vector<Row> rows = measure_size(n, at_this_size, timer);
            print_size_table(rows);
            all.insert(all.end(), rows.begin(), rows.end());
        };
        for (int p = 16; p <= (quick ? 20 : 28); p += 2) measure(std::size_t{1} << p, kernels);

        // Past an int's range: the kernels with a 64-bit count, where the GPU
        // has the memory. 2^32 floats, twice what an int can count or index.
        const std::size_t past_int = std::size_t{1} << 32;
        std::vector<SumKernel> wide = kernels;
        std::erase_if(wide, [](const SumKernel& kernel) { return !kernel.counts_past_int; });
        if (!quick && !wide.empty()) {
            if (room_for(past_int))
                measure(past_int, wide);
            else
                std::printf("\n2^32 floats: skipped, the GPU has no room for them\n");
        }

        if (selected("9")) {
            const std::vector<Row> scale = measure_reduce_scale(442368, 128, timer);
            std::printf("\nReduceScale on (442368, 128) floats: GB/s read + write\n");
            for (const Row& row : scale) {
                std::printf("%-36s %10.1f us %8.1f us on GPU %9.0f GB/s %8.0f%% of copy%s\n",
                            row.what.c_str(), row.time.ms * 1e3, row.time.gpu_ms * 1e3, row.gbps,
                            100 * row.gbps / scale.back().gbps, row.correct ? "" : "  WRONG RESULT");
            }
            all.insert(all.end(), scale.begin(), scale.end());
        }
        if (!csv_path.empty()) write_csv(csv_path, all);
        if (!svg_path.empty()) write_svg(svg_path, all, prop.name);
        return std::ranges::all_of(all, &Row::correct) ? 0 : 1;
    } catch (const std::exception& error) {
        std::fprintf(stderr, "gpu_bench: %s\n", error.what());
        return 2;
    }
}
