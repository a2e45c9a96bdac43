// Lesson 10's grid, measured: the solution's one-launch sum at each size from
// 2^16 to 2^28 floats, launched with every block size of 128 to 1024 threads
// and a range of grids (powers of two, multiples of the SM count, up to what
// is resident at once and what the size can use: one 4-float pack per
// thread), beside cub::DeviceReduce::Sum. The rule lesson 10 launches with
// (one_launch_grid, warpdrill/course/lesson.h) is chosen from this table, and
// each size shows the rule's grid beside the fastest ones (book chapter 10).
// Then where a small sum's time goes, on the rule's grid: an empty kernel's
// launch, the block sums alone (each block writes its partial, no block
// finishes), and the whole one-launch sum.
//   grid_sweep [--csv FILE] [--quick]
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "gpu_measure.cuh"
#include "reduce.cuh"  // lesson 10's solution: reduce_one_launch
#include "warpdrill/course/lesson.h"

namespace {

using namespace warpdrill::bench;

struct Grid {
    unsigned block;  // threads per block
    unsigned blocks;
};

struct Measured {
    std::size_t n;
    std::string kernel;  // "lesson 10", "cub", or one of the floors
    Grid grid;           // {0, 0} for CUB
    Timing time;
    bool correct;
};

// The rule's grid at n floats on this GPU.
Grid rule_grid(std::size_t n, int sms) {
    static const int resident =
        warpdrill::resident_blocks(reduce_one_launch, warpdrill::course::kOneLaunchBlockSize);
    const int blocks = warpdrill::course::one_launch_grid(static_cast<std::int64_t>(n), sms, resident);
    return {warpdrill::course::kOneLaunchBlockSize, static_cast<unsigned>(blocks)};
}

__global__ void empty_kernel() {}

// The one-launch sum without its finish: every block writes its partial.
__global__ void block_sums_only(const float* in, std::int64_t n, float* partials) {
    const float block_sum = warpdrill::block_all_reduce(grid_stride_sum(in, n), warpdrill::Sum{});
    if (threadIdx.x == 0) partials[blockIdx.x] = block_sum;
}

constexpr std::size_t kFloorsUpTo = std::size_t{1} << 20;

// The grids tried at n floats for one block size: powers of two and
// multiples of the SM count, each at most `resident` and at most the blocks
// that n gives one pack of four floats per thread.
std::vector<unsigned> grids_to_try(std::size_t n, unsigned block, int sms, int resident) {
    const auto useful =
        static_cast<unsigned>(std::clamp<std::int64_t>((n / 4 + block - 1) / block, 1, resident));
    std::vector<unsigned> grids = {useful};
    for (unsigned blocks = 1; blocks < useful; blocks *= 2) grids.push_back(blocks);
    for (int multiple : {1, 2, 3, 4, 6, 8, 12, 16})
        if (multiple * sms < static_cast<int>(useful)) grids.push_back(multiple * sms);
    std::ranges::sort(grids);
    const auto repeated = std::ranges::unique(grids);
    grids.erase(repeated.begin(), repeated.end());
    return grids;
}

std::vector<Measured> sweep_size(std::size_t n, int sms, Timer& timer) {
    const RotatingInputs inputs(n, warpdrill::fresh_seed());
    const double tolerance = warpdrill::sum_tolerance(n, inputs.sum_abs, n / 1024 + 64);
    const auto count = static_cast<std::int64_t>(n);
    DeviceBuffer<float> partials(16 * 1024);
    DeviceBuffer<unsigned> tickets(1);
    check_cuda(cudaMemset(tickets.data(), 0, sizeof(unsigned)));
    DeviceBuffer<float> out(1);

    std::vector<Measured> rows;
    // A floor computes no sum: it is timed only.
    auto measure = [&](const std::string& kernel, Grid grid, const SumFn& sum, bool is_sum = true) {
        out.poison();
        sum(inputs.at(0), out.data(), count, partials.data());
        check_launch();
        const bool correct = !is_sum || std::fabs(out.download()[0] - inputs.sum) <= tolerance;
        const Timing time =
            timer.median([&](int run) { sum(inputs.at(run), out.data(), count, partials.data()); });
        rows.push_back({n, kernel, grid, time, correct});
    };
    auto one_launch = [&](Grid grid) {
        return [&, grid](const float* in, float* sum, std::int64_t size, float* scratch) {
            warpdrill::launch(reduce_one_launch, {grid.blocks, grid.block}, in, size, scratch, tickets.data(),
                              sum);
        };
    };
    measure("cub", {0, 0}, cub_sum(inputs.at(0), out.data(), count));
    for (unsigned block : {128u, 256u, 512u, 1024u}) {
        const int resident = warpdrill::resident_blocks(reduce_one_launch, static_cast<int>(block));
        for (unsigned blocks : grids_to_try(n, block, sms, resident))
            measure("lesson 10", {block, blocks}, one_launch({block, blocks}));
    }
    const Grid rule = rule_grid(n, sms);
    measure("lesson 10, the rule's grid", rule, one_launch(rule));
    if (n <= kFloorsUpTo) {
        measure(
            "floor: an empty kernel", rule,
            [&](const float*, float*, std::int64_t, float*) {
                warpdrill::launch(empty_kernel, {rule.blocks, rule.block});
            },
            false);
        measure(
            "floor: block sums only", rule,
            [&](const float* in, float*, std::int64_t size, float* scratch) {
                warpdrill::launch(block_sums_only, {rule.blocks, rule.block}, in, size, scratch);
            },
            false);
    }
    return rows;
}

const Measured& named(const std::vector<Measured>& rows, const std::string& kernel) {
    return *std::ranges::find(rows, kernel, &Measured::kernel);
}

void print_row(const Measured& row, const Measured& cub, const char* label) {
    std::printf("%-28s %6u %6u %9.2f %7.2fx %9.1f %7.2fx%s\n", label, row.grid.block, row.grid.blocks,
                row.time.gpu_ms * 1e3, cub.time.gpu_ms / row.time.gpu_ms, row.time.ms * 1e3,
                cub.time.ms / row.time.ms, row.correct ? "" : "  WRONG RESULT");
}

// One size: CUB, the rule's grid, the five fastest on the GPU alone, and the floors where measured.
void print_size(const std::vector<Measured>& rows) {
    const Measured& cub = named(rows, "cub");
    std::vector<Measured> swept;
    std::ranges::copy_if(rows, std::back_inserter(swept),
                         [](const Measured& row) { return row.kernel == "lesson 10"; });
    std::ranges::sort(swept, {}, [](const Measured& row) { return row.time.gpu_ms; });
    std::printf("\n2^%d floats: cub %.2f us on the GPU, %.1f us as the caller sees it\n",
                static_cast<int>(std::log2(cub.n)), cub.time.gpu_ms * 1e3, cub.time.ms * 1e3);
    std::printf("%-28s %6s %6s %9s %8s %9s %8s\n", "", "block", "blocks", "GPU us", "vs cub", "time us",
                "vs cub");
    print_row(named(rows, "lesson 10, the rule's grid"), cub, "the rule's grid");
    for (std::size_t i = 0; i < std::min<std::size_t>(5, swept.size()); ++i)
        print_row(swept[i], cub, i == 0 ? "the fastest grids" : "");
    for (const Measured& row : rows)
        if (row.kernel.starts_with("floor")) print_row(row, cub, row.kernel.c_str());
}

void write_csv(const std::string& path, const std::vector<Measured>& rows) {
    std::ofstream csv(path);
    csv << "floats,kernel,block,blocks,time_us,gpu_us,correct\n";
    for (const Measured& row : rows) {
        csv << row.n << ",\"" << row.kernel << "\"," << row.grid.block << "," << row.grid.blocks << ","
            << row.time.ms * 1e3 << "," << row.time.gpu_ms * 1e3 << "," << (row.correct ? "yes" : "no")
            << "\n";
    }
}

}  // namespace

int main(int argc, char** argv) {
    const auto [csv_path, quick] = parse_sweep_options(argc, argv);
    try {
        const cudaDeviceProp prop = print_device_and_method("grid_sweep", argc, argv);
        Timer timer;
        std::vector<Measured> all;
        for (int p = 16; p <= (quick ? 20 : 28); ++p) {
            const std::vector<Measured> rows =
                sweep_size(std::size_t{1} << p, prop.multiProcessorCount, timer);
            print_size(rows);
            all.insert(all.end(), rows.begin(), rows.end());
        }
        if (!csv_path.empty()) write_csv(csv_path, all);
        return std::ranges::all_of(all, &Measured::correct) ? 0 : 1;
    } catch (const std::exception& error) {
        std::fprintf(stderr, "grid_sweep: %s\n", error.what());
        return 2;
    }
}
