// The GPU benchmark: every lesson's sum kernel, cub::DeviceReduce::Sum and a
// device-to-device copy at 2^16 to 2^28 floats (and lesson 10, whose count is
// 64-bit, at 2^32 where the GPU has the memory), and ReduceScale on a
// (442368, 128) matrix against a cub::BlockReduce block-per-row baseline.
// Inputs rotate over enough buffers that L2 cannot serve them, and every
// kernel's result is checked against a double-precision reference first.
// Each kernel is timed twice, as a caller sees it and on the GPU alone
// (gpu_measure.cuh).
//   gpu_bench [--csv FILE] [--svg FILE] [--quick] [--lessons 8,10]
// --lessons keeps only those lessons' sum kernels (CUB and the copy always run).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "bench_kernels.h"  // the lessons' kernels: solutions/, or one lesson from lessons/
#include "gpu_measure.cuh"
#include "line_plot.h"

namespace {

using namespace warpdrill::bench;

constexpr unsigned kBlock = 256;

// The blocks of each launch a sum makes at n floats.
using GridFn = std::function<std::vector<unsigned>(std::int64_t n)>;

struct SumKernel {
    std::string lesson;
    std::string idea;
    SumFn run;
    GridFn grids;
    bool counts_past_int = false;  // takes a 64-bit element count
    unsigned threads = kBlock;     // per block, in every launch
};

unsigned blocks_to_cover(std::int64_t n, std::int64_t per_block) {
    return static_cast<unsigned>((n + per_block - 1) / per_block);
}

// Lessons 1 to 7: a block-sum kernel applied to its own output until one
// value is left (sum_in_passes, warpdrill/course/lesson.h), each block
// reducing kBlock * elements_per_thread elements to one. They count elements
// in an int.
template <class Kernel>
SumKernel repeat_until_one(std::string lesson, std::string idea, Kernel kernel, int elements_per_thread,
                           bool dynamic_shared) {
    const int span = static_cast<int>(kBlock) * elements_per_thread;
    SumFn run = [=](const float* in, float* out, std::int64_t count, float* scratch) {
        const int n = static_cast<int>(count);
        float* const buffers[2] = {scratch, scratch + blocks_to_cover(n, span)};
        warpdrill::course::sum_in_passes(
            in, out, n, span, buffers, [&](const float* from, float* to, int items) {
                warpdrill::launch(
                    kernel,
                    {blocks_to_cover(items, span), kBlock, dynamic_shared ? kBlock * sizeof(float) : 0}, from,
                    to, items);
            });
    };
    // The same passes, counted instead of launched.
    GridFn grids = [span](std::int64_t n) {
        std::vector<unsigned> passes;
        float* const nowhere[2] = {nullptr, nullptr};
        warpdrill::course::sum_in_passes(
            nullptr, nullptr, static_cast<int>(n), span, nowhere,
            [&](const float*, float*, int items) { passes.push_back(blocks_to_cover(items, span)); });
        return passes;
    };
    return {std::move(lesson), std::move(idea), run, grids};
}

// Lesson 8: four blocks per SM at most, one pack of four per thread for
// small inputs; a second launch of one block adds their sums.
unsigned grid_stride_blocks(std::int64_t n) {
    static const unsigned sms = warpdrill::multiprocessor_count();
    return std::clamp(blocks_to_cover(n / 4, kBlock), 1u, 4 * sms);
}

void sum_grid_stride(const float* in, float* out, std::int64_t count, float* scratch) {
    const int n = static_cast<int>(count);
    const unsigned blocks = grid_stride_blocks(n);
    warpdrill::launch(reduce_grid_stride, {blocks, kBlock}, in, scratch, n);
    warpdrill::launch(reduce_grid_stride, {1, kBlock}, scratch, out, static_cast<int>(blocks));
}

// Lesson 10: one launch, through the lesson's own launcher and grid
// (lessons/10-one-launch/check/launch.cu). Its partials live in the scratch
// buffer; its ticket counter is set to 0 once, here, and every launch leaves
// it at 0.
SumFn one_launch() {
    auto tickets = std::make_shared<DeviceBuffer<unsigned>>(1);
    check_cuda(cudaMemset(tickets->data(), 0, sizeof(unsigned)));
    return [tickets](const float* in, float* out, std::int64_t n, float* scratch) {
        warpdrill::course::one_launch_sum(in, n, scratch, tickets->data(), out,
                                          warpdrill::course::one_launch_blocks(n));
    };
}

// Lesson 11: one cooperative launch, as many blocks as are resident at once
// (fewer for small inputs: one pack of four per thread).
unsigned cooperative_blocks(std::int64_t n) {
    static const int resident = warpdrill::resident_blocks(reduce_cooperative, kBlock);
    return std::clamp<unsigned>(blocks_to_cover(n / 4, kBlock), 1, resident);
}

void sum_cooperative(const float* in, float* out, std::int64_t n, float* scratch) {
    const unsigned blocks = cooperative_blocks(n);
    std::int64_t count = n;
    void* args[] = {&in, &scratch, &out, &count};
    check_cuda(cudaLaunchCooperativeKernel(reduce_cooperative, dim3(blocks), dim3(kBlock), args));
}

// Lesson 12: the same, cooperative and in clusters of kClusterBlocks.
struct ClusterLaunch {
    cudaLaunchAttribute attributes[2] = {};
    ClusterLaunch() {
        attributes[0].id = cudaLaunchAttributeClusterDimension;
        attributes[0].val.clusterDim = {kClusterBlocks, 1, 1};
        attributes[1].id = cudaLaunchAttributeCooperative;
        attributes[1].val.cooperative = 1;
    }
    cudaLaunchConfig_t config(unsigned blocks, unsigned attribute_count = 2) {
        return {dim3(blocks), dim3(kBlock), 0, nullptr, attributes, attribute_count};
    }
};

unsigned cluster_blocks(std::int64_t n) {
    static const int resident_clusters = [] {
        ClusterLaunch launch;
        const cudaLaunchConfig_t one_cluster = launch.config(kClusterBlocks, 1);
        int clusters = 0;
        check_cuda(cudaOccupancyMaxActiveClusters(&clusters, reduce_cluster, &one_cluster));
        return clusters;
    }();
    return kClusterBlocks *
           std::clamp<unsigned>(blocks_to_cover(n / 4, kBlock * kClusterBlocks), 1, resident_clusters);
}

void sum_in_clusters(const float* in, float* out, std::int64_t n, float* scratch) {
    ClusterLaunch launch;
    const cudaLaunchConfig_t config = launch.config(cluster_blocks(n));
    check_cuda(cudaLaunchKernelEx(&config, reduce_cluster, in, scratch, out, n));
}

bool has_clusters() {
    int supported = 0;
    check_cuda(cudaDeviceGetAttribute(&supported, cudaDevAttrClusterLaunch, 0));
    return supported != 0;
}

// A sum that makes one launch of blocks(n) blocks.
GridFn one_grid(unsigned (*blocks)(std::int64_t)) {
    return [blocks](std::int64_t n) { return std::vector<unsigned>{blocks(n)}; };
}

unsigned lesson_10_blocks(std::int64_t n) {
    return static_cast<unsigned>(warpdrill::course::one_launch_blocks(n));
}

std::vector<SumKernel> sum_kernels() {
    std::vector<SumKernel> kernels = {
        repeat_until_one("1", "interleaved, divergent", reduce_interleaved_divergent, 1, true),
        repeat_until_one("2", "interleaved, strided index", reduce_interleaved_strided, 1, true),
        repeat_until_one("3", "sequential addressing", reduce_sequential, 1, true),
        repeat_until_one("4", "first add during load", reduce_first_add, 2, true),
        repeat_until_one("5", "last warp unrolled", reduce_unroll_last_warp, 2, true),
        repeat_until_one("6", "complete unroll", reduce_complete_unroll<kBlock>, 2, false),
        repeat_until_one("7", "warp shuffles", reduce_warp_shuffle, 2, false),
        {"8", "grid-stride, 16-byte loads", sum_grid_stride,
         [](std::int64_t n) {
             return std::vector<unsigned>{grid_stride_blocks(n), 1};
         }},
        {"10", "one launch, the last block finishes", one_launch(), one_grid(lesson_10_blocks), true,
         warpdrill::course::kOneLaunchBlockSize},
        {"11", "cooperative launch, grid.sync()", sum_cooperative, one_grid(cooperative_blocks)},
    };
    if (has_clusters())
        kernels.push_back(
            {"12", "clusters, distributed shared memory", sum_in_clusters, one_grid(cluster_blocks)});
    return kernels;
}

// "1024+4+1 x 256": each launch's blocks, then the threads per block.
std::string grid_text(const std::vector<unsigned>& launches, unsigned threads) {
    std::string text;
    for (unsigned blocks : launches) text += (text.empty() ? "" : "+") + std::to_string(blocks);
    return text + " x " + std::to_string(threads);
}

struct Row {
    std::string what;  // "lesson 3", "cub::DeviceReduce::Sum", "copy"
    std::string idea;
    std::size_t n;
    Timing time;
    double gbps;  // bytes read (and written, for copy and ReduceScale) per second, by time.ms
    bool correct;
    std::string grid = "";  // each launch's blocks x threads; empty where CUB or the driver chooses
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
        rows.push_back({"lesson " + kernel.lesson, kernel.idea, n, time, bytes / time.ms / 1e6, ok,
                        grid_text(kernel.grids(count), kernel.threads)});
    }

    const SumFn cub = cub_sum(inputs.at(0), out.data(), count);
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
    constexpr int kWarpsPerBlock = 4;
    const auto row_blocks = static_cast<unsigned>(rows);
    const auto warp_blocks = static_cast<unsigned>((rows + kWarpsPerBlock - 1) / kWarpsPerBlock);
    struct Variant {
        std::string name;
        std::string grid;
        std::function<void()> run;
    };
    const std::vector<Variant> variants = {
        {"block per row, cub::BlockReduce", std::to_string(row_blocks) + " x 128",
         [&] {
             warpdrill::launch(reduce_scale_cub_block_per_row<128>, {row_blocks, 128}, d_x.data(), d_y.data(),
                               cols);
         }},
        {"lesson 9 baseline, block per row", std::to_string(row_blocks) + " x 128",
         [&] {
             warpdrill::launch(reduce_scale_block_per_row_kernel, {row_blocks, 128}, d_x.data(), d_y.data(),
                               cols);
         }},
        {"lesson 9, warp per row, float4",
         std::to_string(warp_blocks) + " x " + std::to_string(kWarpsPerBlock * 32),
         [&] {
             warpdrill::launch(reduce_scale_warp_per_row_kernel<4, 1>, {warp_blocks, kWarpsPerBlock * 32},
                               d_x.data(), d_y.data(), rows, cols);
         }},
    };
    std::vector<Row> result;
    for (const Variant& variant : variants) {
        const bool ok = correct(variant.run);
        const Timing time = timer.median([&](int) { variant.run(); });
        result.push_back({variant.name,
                          "ReduceScale (" + std::to_string(rows) + ", " + std::to_string(cols) + ")", n, time,
                          bytes / time.ms / 1e6, ok, variant.grid});
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
    std::printf("%-10s %-38s %8s %8s %7s %7s %7s %7s  %s\n", "kernel", "idea", "time us", "GPU us", "GB/s",
                "% copy", "vs cub", "on GPU", "grid");
    for (const Row& row : rows) {
        std::printf("%-10s %-38s %8.1f %8.1f %7.0f %6.0f%% %6.2fx %6.2fx  %s%s\n", row.what.c_str(),
                    row.idea.c_str(), row.time.ms * 1e3, row.time.gpu_ms * 1e3, row.gbps,
                    100 * row.gbps / copy.gbps, cub.time.ms / row.time.ms, cub.time.gpu_ms / row.time.gpu_ms,
                    row.grid.c_str(), row.correct ? "" : "  WRONG RESULT");
    }
}

void write_csv(const std::string& path, const std::vector<Row>& rows) {
    std::ofstream csv(path);
    csv << "kernel,idea,floats,time_us,gpu_us,gbps,correct,grid\n";
    for (const Row& row : rows) {
        csv << '"' << row.what << "\",\"" << row.idea << "\"," << row.n << "," << row.time.ms * 1e3 << ","
            << row.time.gpu_ms * 1e3 << "," << row.gbps << "," << (row.correct ? "yes" : "no") << ",\""
            << row.grid << "\"\n";
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
        const cudaDeviceProp prop = print_device_and_method("gpu_bench", argc, argv);
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
                std::printf("%-36s %10.1f us %8.1f us on GPU %9.0f GB/s %8.0f%% of copy  %s%s\n",
                            row.what.c_str(), row.time.ms * 1e3, row.time.gpu_ms * 1e3, row.gbps,
                            100 * row.gbps / scale.back().gbps, row.grid.c_str(),
                            row.correct ? "" : "  WRONG RESULT");
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
