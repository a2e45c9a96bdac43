// Lesson 13's benchmark: the ring all-reduce (ring.cuh: the solution's, or
// the learner's for `warpdrill bench 13`) beside ncclAllReduce, in one run,
// on every GPU of the machine, for M = 2^16 to 2^28 floats a GPU. Each figure
// is the median of 30 timed runs after 5 warm-ups, timed with CUDA events:
// the GPUs' streams wait until the host has queued a whole all-reduce, then
// run it, so the time is the GPUs' and not the host's calls. Every result is
// checked first. As nccl-tests defines them (its doc/PERFORMANCE.md):
// algbw = 4 M bytes / time, and busbw = algbw * 2(G - 1)/G, the bytes each GPU's
// busiest link carries per second, which does not change with G for an
// all-reduce that is as good as a ring.
//   allreduce_bench [--csv FILE] [--md FILE] [--svg FILE] [--gpus G] [--slice-log L] [--quick]
// --slice-log: each chunk goes in slices of 2^L floats, at most 8 (default 23).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "line_plot.h"
#include "ring.cuh"  // the ring all-reduce measured: solutions/ or lessons/
#include "warpdrill/course/ring.h"
#include "warpdrill/host.h"
#if WARPDRILL_HAVE_NCCL
#include "nccl_allreduce.h"
#endif

namespace {

using warpdrill::check_cuda;
using warpdrill::course::Ring;
using warpdrill::course::RingBuffers;

constexpr int kWarmups = 5;
constexpr int kRuns = 30;

// A stream and the GPU it belongs to.
using Streams = std::vector<std::pair<cudaStream_t, int>>;

// Spins until the host writes *release, or two seconds have passed (then it
// notes that in *timed_out and lets the streams go: the time then includes
// the host's calls).
__global__ void wait_for_host(const volatile int* release, int* timed_out) {
    unsigned long long start = 0, now = 0;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
    do {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
        if (now - start > 2000000000ull) {
            *timed_out = 1;
            return;
        }
    } while (*release == 0);
}

// Times work that the host queues on several GPUs' streams (nvbench's
// blocking-kernel method): GPU 0 runs wait_for_host and records `start`; every
// stream waits for `start`; the work is queued; GPU 0's stream waits for every
// stream's end and records `stop`; then the host releases the spin.
class Timer {
  public:
    explicit Timer(Streams streams) : streams_(std::move(streams)), ends_(streams_.size()) {
        check_cuda(cudaSetDevice(0));
        check_cuda(cudaStreamCreateWithFlags(&gate_, cudaStreamNonBlocking));
        check_cuda(cudaEventCreate(&start_));
        check_cuda(cudaEventCreate(&stop_));
        check_cuda(cudaHostAlloc(&flags_, 2 * sizeof(int), cudaHostAllocMapped));
        for (std::size_t s = 0; s < streams_.size(); ++s) {
            check_cuda(cudaSetDevice(streams_[s].second));
            check_cuda(cudaEventCreateWithFlags(&ends_[s], cudaEventDisableTiming));
        }
        check_cuda(cudaSetDevice(0));
    }
    ~Timer() {
        for (cudaEvent_t end : ends_) cudaEventDestroy(end);
        cudaEventDestroy(start_);
        cudaEventDestroy(stop_);
        cudaStreamDestroy(gate_);
        cudaFreeHost(flags_);
    }
    Timer(const Timer&) = delete;
    Timer& operator=(const Timer&) = delete;

    // Milliseconds from the first to the last GPU work that `queue` queues.
    double time_once(const std::function<void()>& queue) {
        volatile int* release = flags_;
        *release = 0;
        check_cuda(cudaSetDevice(0));
        warpdrill::launch(wait_for_host, {1, 1, 0, gate_}, flags_, flags_ + 1);
        check_cuda(cudaEventRecord(start_, gate_));
        for (const auto& [stream, gpu] : streams_) check_cuda(cudaStreamWaitEvent(stream, start_));
        queue();
        for (std::size_t s = 0; s < streams_.size(); ++s) {
            check_cuda(cudaSetDevice(streams_[s].second));
            check_cuda(cudaEventRecord(ends_[s], streams_[s].first));
            check_cuda(cudaSetDevice(0));
            check_cuda(cudaStreamWaitEvent(gate_, ends_[s]));
        }
        check_cuda(cudaEventRecord(stop_, gate_));
        *release = 1;
        check_cuda(cudaEventSynchronize(stop_));
        float ms = 0;
        check_cuda(cudaEventElapsedTime(&ms, start_, stop_));
        return ms;
    }

    double median_ms(const std::function<void()>& queue, int runs) {
        for (int run = 0; run < kWarmups; ++run) time_once(queue);
        std::vector<double> times;
        for (int run = 0; run < runs; ++run) times.push_back(time_once(queue));
        std::ranges::sort(times);
        return times[times.size() / 2];
    }

    bool gate_timed_out() const { return flags_[1] != 0; }

  private:
    Streams streams_;
    std::vector<cudaEvent_t> ends_;
    cudaStream_t gate_ = nullptr;
    cudaEvent_t start_ = nullptr, stop_ = nullptr;
    int* flags_ = nullptr;  // [0]: release, [1]: timed out; host memory the GPU reads
};

// GPU g's element i is (i % 8) + g: whole numbers, so every sum is exact.
void fill(RingBuffers& buffers) {
    std::vector<float> values(static_cast<std::size_t>(buffers.ring().floats));
    for (int g = 0; g < buffers.ring().gpus; ++g) {
        for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i % 8 + g);
        buffers.upload(g, values);
    }
}

bool holds_sums(const RingBuffers& buffers) {
    const int gpus = buffers.ring().gpus;
    for (int g = 0; g < gpus; ++g) {
        const std::vector<float> got = buffers.download(g);
        for (std::size_t i = 0; i < got.size(); ++i) {
            if (got[i] != static_cast<float>(gpus * (i % 8) + gpus * (gpus - 1) / 2)) return false;
        }
    }
    return true;
}

// One slice per 2^slice_log floats of a chunk, from 1 to 8. Each slice lets
// the add of one overlap the copy of the next, and costs a copy, an add's
// launch and their events: about 18 us on H200s joined by NVLink. Of slices
// of 2^20 to 2^24 floats, 2^23 (32 MB) held the ring best on two and four
// H200s (results/allreduce-h200-runs/slices/).
constexpr int kSliceLog = 23;

int slices_for(int gpus, std::int64_t floats, int slice_log) {
    const std::int64_t chunk = (floats + gpus - 1) / gpus;
    return static_cast<int>(std::clamp<std::int64_t>(chunk >> slice_log, 1, warpdrill::course::kMaxSlices));
}

struct Row {
    std::string what;  // "lesson 13" or "ncclAllReduce"
    std::string idea;
    int gpus;
    std::size_t floats;
    double ms;
    bool correct;
    double algbw() const { return static_cast<double>(floats) * sizeof(float) / (ms * 1e6); }
    double busbw() const { return algbw() * 2 * (gpus - 1) / gpus; }
};

// An all-reduce measured: what it queues on a Ring's vectors, and on which streams.
struct Contender {
    std::string what;
    std::function<std::string(const Ring&)> idea;
    std::function<Streams(const Ring&)> streams;
    std::function<void(const Ring&)> queue;
};

Contender the_ring() {
    return {"lesson 13", [](const Ring& ring) { return "ring all-reduce, " + std::to_string(ring.slices) + " slices"; },
            [](const Ring& ring) {
                Streams streams;
                for (int g = 0; g < ring.gpus; ++g) {
                    streams.emplace_back(ring.copies[g], g);
                    streams.emplace_back(ring.adds[g], g);
                }
                return streams;
            },
            [](const Ring& ring) { ring_allreduce(ring); }};
}

// Checks, then times each contender at one size.
std::vector<Row> measure_size(int gpus, std::int64_t floats, int slice_log, int runs,
                              const std::vector<Contender>& contenders) {
    RingBuffers buffers(gpus, floats, slices_for(gpus, floats, slice_log));
    const Ring& ring = buffers.ring();
    std::vector<Row> rows;
    for (const Contender& contender : contenders) {
        const auto queue = [&] { contender.queue(ring); };
        fill(buffers);
        queue();
        buffers.synchronize();
        const bool correct = holds_sums(buffers);
        Timer timer(contender.streams(ring));
        const double ms = timer.median_ms(queue, runs);
        if (timer.gate_timed_out()) {
            std::printf("(%s: queueing took over 2 s, so some times include the host's calls)\n",
                        contender.what.c_str());
        }
        rows.push_back({contender.what, contender.idea(ring), gpus, static_cast<std::size_t>(floats), ms, correct});
    }
    return rows;
}

std::string power_of_two(std::size_t n) {
    const int log = static_cast<int>(std::log2(static_cast<double>(n)));
    return (std::size_t{1} << log) == n ? "2^" + std::to_string(log) : std::to_string(n);
}

void print_rows(const std::vector<Row>& rows) {
    for (const Row& row : rows) {
        std::printf("%-6s floats  %-14s %10.1f us  algbw %7.1f GB/s  busbw %7.1f GB/s%s\n",
                    power_of_two(row.floats).c_str(), row.what.c_str(), row.ms * 1e3, row.algbw(), row.busbw(),
                    row.correct ? "" : "  WRONG RESULT");
    }
    // One GPU moves nothing: its bus bandwidth is 0, and there is no ratio to show.
    if (rows.size() == 2 && rows[1].busbw() > 0)
        std::printf("%31s ring / NCCL busbw: %.0f%%\n", "", 100 * rows[0].busbw() / rows[1].busbw());
    std::fflush(stdout);
}

// "NVIDIA H200 x2 (driver 580.95, CUDA runtime 13.0, NCCL 2.28.3, peer access 0-1: yes)"
std::string describe_machine(int gpus) {
    cudaDeviceProp prop{};
    check_cuda(cudaGetDeviceProperties(&prop, 0));
    int driver = 0, runtime = 0;
    check_cuda(cudaDriverGetVersion(&driver));
    check_cuda(cudaRuntimeGetVersion(&runtime));
    std::ostringstream text;
    text << prop.name << " x" << gpus << " (driver API " << driver / 1000 << "." << driver % 1000 / 10
         << ", CUDA runtime " << runtime / 1000 << "." << runtime % 1000 / 10;
#if WARPDRILL_HAVE_NCCL
    text << ", NCCL " << warpdrill::bench::nccl_version();
#endif
    if (gpus > 1) {
        int peer = 0;
        check_cuda(cudaDeviceCanAccessPeer(&peer, 0, 1));
        text << ", peer access 0-1: " << (peer ? "yes" : "no");
    }
    return text.str() + ")";
}

std::string today() {
    const std::time_t now = std::time(nullptr);
    char text[16];
    std::strftime(text, sizeof text, "%Y-%m-%d", std::gmtime(&now));
    return text;
}

// '# ' lines first: device, date, command; then the table. The runner reads the
// "lesson 13" rows' last two fields: the bus bandwidth and whether it was right.
void write_csv(const std::string& path, const std::vector<Row>& rows, const std::string& machine,
               const std::string& command) {
    std::ofstream csv(path);
    csv << "# device: " << machine << "\n# date: " << today() << "\n# command: " << command << "\n";
    csv << "kernel,idea,gpus,floats,time_us,algbw_gbps,gbps,correct\n";
    for (const Row& row : rows) {
        csv << row.what << ",\"" << row.idea << "\"," << row.gpus << "," << row.floats << "," << row.ms * 1e3 << ","
            << row.algbw() << "," << row.busbw() << "," << (row.correct ? "yes" : "no") << "\n";
    }
}

// One line per size: each contender's time and bandwidths, and the ring's busbw against the last one's.
void write_markdown(const std::string& path, const std::vector<Row>& rows, int contenders, const std::string& machine,
                    const std::string& command) {
    std::ofstream md(path);
    md << "# Ring all-reduce against ncclAllReduce\n\n"
       << "Device: " << machine << "; date: " << today() << "; command: `" << command << "`.\n\n"
       << "Median of " << kRuns << " runs after " << kWarmups
       << " warm-ups, CUDA events, the host's calls outside the time. algbw = 4 M bytes / time; busbw = algbw "
          "* 2(G - 1)/G (nccl-tests). GB/s.\n\n| floats a GPU |";
    for (int c = 0; c < contenders; ++c) {
        md << " " << rows[c].what << ", us | algbw | busbw |";
    }
    md << (contenders > 1 ? " ring / " + rows[contenders - 1].what + " busbw |" : "") << "\n|";
    for (int c = 0; c < 1 + 3 * contenders + (contenders > 1); ++c) md << " --- |";
    md << "\n";
    for (std::size_t r = 0; r + contenders <= rows.size(); r += contenders) {
        md << "| " << power_of_two(rows[r].floats) << " |";
        char cells[128];
        for (int c = 0; c < contenders; ++c) {
            const Row& row = rows[r + c];
            std::snprintf(cells, sizeof cells, " %.1f | %.1f | %.1f |", row.ms * 1e3, row.algbw(), row.busbw());
            md << cells;
        }
        if (contenders > 1) {
            std::snprintf(cells, sizeof cells, " %.0f%% |", 100 * rows[r].busbw() / rows[r + contenders - 1].busbw());
            md << cells;
        }
        md << "\n";
    }
}

void write_svg(const std::string& path, const std::vector<Row>& rows, const std::string& machine) {
    std::vector<warpdrill::bench::Series> series;
    for (const Row& row : rows) {
        const std::string name = row.what == "lesson 13" ? "ring (lesson 13)" : row.what;
        auto line = std::ranges::find(series, name, &warpdrill::bench::Series::name);
        if (line == series.end()) line = series.insert(series.end(), {name, {}});
        line->points.emplace_back(row.floats, row.busbw());
    }
    warpdrill::bench::write_line_plot(path, "All-reduce bus bandwidth, GB/s, " + machine, "floats a GPU (M)",
                                      series, 16, 28);
}

}  // namespace

int main(int argc, char** argv) {
    std::string csv_path, md_path, svg_path, command = "allreduce_bench";
    int gpus = 0;
    int slice_log = kSliceLog;
    bool quick = false;
    for (int a = 1; a < argc; ++a) command += std::string(" ") + argv[a];
    for (int a = 1; a < argc; ++a) {
        if (!std::strcmp(argv[a], "--csv") && a + 1 < argc)
            csv_path = argv[++a];
        else if (!std::strcmp(argv[a], "--md") && a + 1 < argc)
            md_path = argv[++a];
        else if (!std::strcmp(argv[a], "--svg") && a + 1 < argc)
            svg_path = argv[++a];
        else if (!std::strcmp(argv[a], "--gpus") && a + 1 < argc)
            gpus = std::atoi(argv[++a]);
        else if (!std::strcmp(argv[a], "--slice-log") && a + 1 < argc)
            slice_log = std::clamp(std::atoi(argv[++a]), 0, 30);
        else if (!std::strcmp(argv[a], "--quick"))
            quick = true;
    }
    try {
        int present = 0;
        check_cuda(cudaGetDeviceCount(&present));
        gpus = std::clamp(gpus > 0 ? gpus : present, 1, std::min(present, warpdrill::course::kMaxRingGpus));
        if (gpus < 2) std::printf("one GPU only: an all-reduce moves nothing; the figures are fixed costs\n");
        const std::string machine = describe_machine(gpus);
        std::printf("%s; median of %d runs after %d warm-ups\n", machine.c_str(), kRuns, kWarmups);
        enable_peer_access(gpus);
        std::vector<Contender> contenders{the_ring()};
#if WARPDRILL_HAVE_NCCL
        const warpdrill::bench::NcclComms comms(gpus);
        Streams nccl_streams;
        std::vector<cudaStream_t> streams(static_cast<std::size_t>(gpus));
        for (int g = 0; g < gpus; ++g) {
            check_cuda(cudaSetDevice(g));
            check_cuda(cudaStreamCreateWithFlags(&streams[g], cudaStreamNonBlocking));
            nccl_streams.emplace_back(streams[g], g);
        }
        check_cuda(cudaSetDevice(0));
        contenders.push_back({"ncclAllReduce", [](const Ring&) { return "NCCL " + warpdrill::bench::nccl_version(); },
                              [&](const Ring&) { return nccl_streams; },
                              [&](const Ring& ring) {
                                  comms.all_reduce(ring.data, static_cast<std::size_t>(ring.floats), streams.data());
                              }});
#else
        std::printf("ncclAllReduce: not measured: %s\n", WARPDRILL_NCCL_WHY);
#endif
        std::vector<Row> all;
        for (int p = 16; p <= (quick ? 22 : 28); ++p) {
            const std::vector<Row> rows =
                measure_size(gpus, std::int64_t{1} << p, slice_log, quick ? 10 : kRuns, contenders);
            print_rows(rows);
            all.insert(all.end(), rows.begin(), rows.end());
        }
        if (!csv_path.empty()) write_csv(csv_path, all, machine, command);
        if (!md_path.empty()) write_markdown(md_path, all, static_cast<int>(contenders.size()), machine, command);
        if (!svg_path.empty()) write_svg(svg_path, all, machine);
        return std::ranges::all_of(all, &Row::correct) ? 0 : 1;
    } catch (const std::exception& error) {
        std::fprintf(stderr, "allreduce_bench: %s\n", error.what());
        return 2;
    }
}
