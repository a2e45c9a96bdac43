// What the GPU benchmarks share: inputs that rotate so L2 cannot serve them,
// CUB's sum as the baseline, and a timer that measures a call two ways, median of kRuns runs after
// kWarmups warm-ups:
//   - "time": as a caller sees one call, the host's time to submit its
//     launches included (events recorded around the call, each run waited for);
//   - "GPU": the GPU's time alone, nvbench's way: the call is queued behind a
//     kernel that holds the stream until the host has queued all of it.
// Used by gpu_bench and grid_sweep, each a single translation unit.
#pragma once

#include <cub/cub.cuh>

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <functional>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "warpdrill/data.h"
#include "warpdrill/host.h"
#include "warpdrill/reference.h"

namespace warpdrill::bench {

using warpdrill::check_cuda;
using warpdrill::check_launch;
using warpdrill::DeviceBuffer;

constexpr int kWarmups = 5;
constexpr int kRuns = 50;
constexpr std::size_t kRotationBytes = std::size_t{512} << 20;  // many times any L2

// Reduces n floats at `in` to one float at `out`, using `scratch` as needed.
using SumFn = std::function<void(const float* in, float* out, std::int64_t n, float* scratch)>;

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

inline SumFn cub_sum(const float* in, float* out, std::int64_t n) {
    return n <= INT_MAX ? cub_sum(in, out, static_cast<int>(n)) : cub_sum<std::int64_t>(in, out, n);
}

// A set of input buffers that together exceed L2 many times over. Each holds
// one random tile of up to 2^24 floats, repeated: the content does not change
// the timing, and 2^32 random floats would take minutes to draw.
struct RotatingInputs {
    static constexpr std::size_t kTile = std::size_t{1} << 24;
    std::size_t n;
    std::vector<float> tile;  // repeated to fill each buffer
    std::vector<std::unique_ptr<DeviceBuffer<float>>> buffers;
    double sum = 0;      // of one buffer's values, for the reference
    double sum_abs = 0;  // for the tolerance

    RotatingInputs(std::size_t count_floats, std::uint64_t seed)
        : n(count_floats), tile(warpdrill::random_floats(std::min(n, kTile), seed)) {
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
    // Every buffer's values, on the host.
    std::vector<float> values() const {
        std::vector<float> all(n);
        for (std::size_t first = 0; first < n; first += tile.size())
            std::copy_n(tile.begin(), std::min(tile.size(), n - first), all.begin() + first);
        return all;
    }
    // The same rotation, for a benchmark that writes.
    float* writable(int run) { return buffers[static_cast<std::size_t>(run) % buffers.size()]->data(); }
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

inline std::string today_utc() {
    const std::time_t now = std::time(nullptr);
    char date[16];
    std::strftime(date, sizeof date, "%Y-%m-%d", std::gmtime(&now));
    return date;
}

// The command, each file named without its folder (a machine's own path).
inline std::string command_line(const std::string& program, int argc, char** argv) {
    std::string line = program;
    for (int a = 1; a < argc; ++a) line += " " + std::filesystem::path(argv[a]).filename().string();
    return line;
}

// The two options the sweeps take: --csv FILE (the table) and --quick (up to 2^20 floats).
struct SweepOptions {
    std::string csv_path;
    bool quick = false;
};

inline SweepOptions parse_sweep_options(int argc, char** argv) {
    SweepOptions options;
    for (int a = 1; a < argc; ++a) {
        if (!std::strcmp(argv[a], "--csv") && a + 1 < argc)
            options.csv_path = argv[++a];
        else if (!std::strcmp(argv[a], "--quick"))
            options.quick = true;
    }
    return options;
}

// The lines every benchmark's output starts with: the device, how it was timed, the date and command.
inline cudaDeviceProp print_device_and_method(const std::string& program, int argc, char** argv) {
    cudaDeviceProp prop{};
    check_cuda(cudaGetDeviceProperties(&prop, 0));
    std::printf(
        "device: %s, %d SMs, L2 %d MB; median of %d runs after %d warm-ups, inputs rotated over %zu MB\n",
        prop.name, prop.multiProcessorCount, prop.l2CacheSize >> 20, kRuns, kWarmups, kRotationBytes >> 20);
    std::printf("date: %s (UTC); command: %s\n", today_utc().c_str(),
                command_line(program, argc, argv).c_str());
    return prop;
}

}  // namespace warpdrill::bench
