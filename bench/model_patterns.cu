// What the profile's time model needs to know about a GPU, measured on
// kernels that each do one thing, never on the lessons themselves (issue
// "profile truth"): the GPU's time alone (gpu_measure.cuh) of
//   - launch: an empty kernel, from one block to many waves of them, and two
//     in a row (what one more launch in a call adds);
//   - barriers: blocks that meet at __syncthreads() 0 to 256 times, one or
//     eight blocks an SM;
//   - read: n floats read once (16-byte loads, a grid-stride loop, one
//     float written a block), 2^16 to 2^28 floats;
//   - reread: the same n floats read twice over, the second pass from L2
//     where the whole input fits in it;
//   - write: n floats written, 2^16 to 2^28 (stores that L2 absorbs);
//   - finish: lesson 10's finish alone, each block a partial, a fence and a
//     ticket, the last one adding the partials, on grids of 132 to 1056;
//   - load chain: one thread's chain of 16 or 64 loads, each of which waits
//     for the one before (it holds the next one's index): just after a kernel
//     stored the chain (L2 serves it), or after a kernel wrote twice L2's size
//     elsewhere (DRAM does). The difference of the two lengths is 48 loads'
//     latency, the kernel before them cancelled out.
// Inputs rotate over 512 MB, as in gpu_bench, so that L2 serves none of
// them from an earlier run.
//   model_patterns [--csv FILE] [--quick]
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "gpu_measure.cuh"

namespace {

using namespace warpdrill::bench;

constexpr unsigned kThreads = 256;

struct Measured {
    std::string pattern;
    long long param;  // barriers, floats, or 0
    unsigned blocks;
    double bytes;  // DRAM traffic the pattern asks for, read + written
    Timing time;
};

__global__ void empty_kernel() {}

__global__ void barriers_kernel(int count, float* sink) {
    float value = threadIdx.x;
    for (int i = 0; i < count; ++i) {
        value += 1.0f;
        __syncthreads();
    }
    if (value < 0) sink[0] = value;  // never: keeps the loop
}

// Each thread adds its 16-byte packs; with `passes` = 2 the grid reads the
// whole input again after its first pass. One float a block may leave the
// kernel, so that no load is optimised away.
__global__ void read_kernel(const float4* in, std::int64_t packs, int passes, float* per_block) {
    const std::int64_t threads = std::int64_t{gridDim.x} * blockDim.x;
    float sum = 0.0f;
    for (int pass = 0; pass < passes; ++pass) {
        for (std::int64_t p = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; p < packs; p += threads) {
            const float4 v = in[p];
            sum += v.x + v.y + v.z + v.w;
        }
    }
    if (sum == 12345.678f) per_block[blockIdx.x] = sum;  // almost never: keeps the loads
}

__global__ void write_kernel(float4* out, std::int64_t packs) {
    const std::int64_t threads = std::int64_t{gridDim.x} * blockDim.x;
    for (std::int64_t p = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; p < packs; p += threads)
        out[p] = make_float4(1.0f, 2.0f, 3.0f, 4.0f);
}

// Lesson 10's finish with nothing to read: a partial a block, a fence, a
// ticket; the last block adds the partials.
__global__ void finish_kernel(float* partials, unsigned* tickets, float* sum) {
    __shared__ bool last;
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = 1.0f;
        __threadfence();
        last = atomicInc(tickets, gridDim.x - 1) == gridDim.x - 1;
    }
    __syncthreads();
    if (!last) return;
    const volatile float* written = partials;
    float total = 0.0f;
    for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x) total += written[b];
    if (threadIdx.x == 0) atomicAdd(sum, total);
}

// A chain of `steps` links, `stride` entries apart: next[s * stride] holds
// the index of the link after it.
__global__ void write_chain(unsigned* next, unsigned stride, int steps) {
    for (int s = threadIdx.x; s < steps; s += blockDim.x) next[s * stride] = (s + 1) * stride;
}

// One thread follows the chain: each load waits for the one before.
__global__ void follow_chain(const unsigned* next, int steps, unsigned* sink) {
    unsigned at = 0;
    for (int s = 0; s < steps; ++s) at = next[at];
    if (at == 12345u) sink[0] = at;  // never: keeps the loads
}

// A grid-stride pass over n floats: the SMs' resident blocks, at most.
unsigned stride_blocks(std::int64_t packs) {
    static const unsigned most = warpdrill::resident_blocks(read_kernel, kThreads);
    return static_cast<unsigned>(std::clamp<std::int64_t>((packs + kThreads - 1) / kThreads, 1, most));
}

std::vector<Measured> launches_and_barriers(Timer& timer, int sms) {
    std::vector<Measured> rows;
    DeviceBuffer<float> sink(1);
    for (unsigned blocks : {1u, 132u, 396u, 1056u, 8448u}) {
        rows.push_back({"launch", 0, blocks, 0, timer.median([&](int) {
                            warpdrill::launch(empty_kernel, {blocks, kThreads});
                        })});
    }
    rows.push_back({"two launches", 0, 132, 0, timer.median([&](int) {
                        warpdrill::launch(empty_kernel, {132, kThreads});
                        warpdrill::launch(empty_kernel, {132, kThreads});
                    })});
    for (unsigned per_sm : {1u, 8u}) {
        const unsigned blocks = per_sm * static_cast<unsigned>(sms);
        for (int count : {0, 16, 64, 256}) {
            rows.push_back({"barriers", count, blocks, 0, timer.median([&](int) {
                                warpdrill::launch(barriers_kernel, {blocks, kThreads}, count, sink.data());
                            })});
        }
    }
    return rows;
}

std::vector<Measured> memory(Timer& timer, int max_log) {
    std::vector<Measured> rows;
    DeviceBuffer<float> per_block(1 << 16);
    for (int log = 16; log <= max_log; log += 2) {
        const std::size_t n = std::size_t{1} << log;
        const auto packs = static_cast<std::int64_t>(n / 4);
        const unsigned blocks = stride_blocks(packs);
        RotatingInputs inputs(n, 1);
        const double bytes = static_cast<double>(n) * sizeof(float);
        auto read = [&](int passes) {
            return timer.median([&](int run) {
                warpdrill::launch(read_kernel, {blocks, kThreads},
                                  reinterpret_cast<const float4*>(inputs.at(run)), packs, passes,
                                  per_block.data());
            });
        };
        rows.push_back({"read", static_cast<long long>(n), blocks, bytes, read(1)});
        rows.push_back({"reread", static_cast<long long>(n), blocks, bytes, read(2)});
        rows.push_back({"write", static_cast<long long>(n), blocks, bytes, timer.median([&](int run) {
                            warpdrill::launch(write_kernel, {blocks, kThreads},
                                              reinterpret_cast<float4*>(inputs.writable(run)), packs);
                        })});
    }
    return rows;
}

std::vector<Measured> finishes(Timer& timer) {
    std::vector<Measured> rows;
    DeviceBuffer<float> partials(4096), sum(1);
    DeviceBuffer<unsigned> tickets(1);
    check_cuda(cudaMemset(tickets.data(), 0, sizeof(unsigned)));
    for (unsigned blocks : {132u, 396u, 1056u}) {
        rows.push_back({"finish", 0, blocks, 0, timer.median([&](int) {
                            warpdrill::launch(finish_kernel, {blocks, kThreads}, partials.data(),
                                              tickets.data(), sum.data());
                        })});
    }
    return rows;
}

// The links lie 16 KiB apart, each in a line of its own.
std::vector<Measured> load_chains(Timer& timer, const cudaDeviceProp& prop) {
    constexpr unsigned kStride = 4096;
    constexpr int kLongest = 64;
    DeviceBuffer<unsigned> chain(std::size_t{kStride} * kLongest + 1), sink(1);
    const std::int64_t evicting_packs = 2 * std::int64_t{prop.l2CacheSize} / sizeof(float4);
    DeviceBuffer<float4> elsewhere(static_cast<std::size_t>(evicting_packs));
    std::vector<Measured> rows;
    for (const int steps : {16, kLongest}) {
        rows.push_back({"L2 load chain", steps, 1, 0, timer.median([&](int) {
                            warpdrill::launch(write_chain, {1, kThreads}, chain.data(), kStride, kLongest);
                            warpdrill::launch(follow_chain, {1, 1}, chain.data(), steps, sink.data());
                        })});
    }
    warpdrill::launch(write_chain, {1, kThreads}, chain.data(), kStride, kLongest);
    for (const int steps : {16, kLongest}) {
        rows.push_back({"DRAM load chain", steps, 1, 0, timer.median([&](int) {
                            warpdrill::launch(write_kernel, {stride_blocks(evicting_packs), kThreads},
                                              elsewhere.data(), evicting_packs);
                            warpdrill::launch(follow_chain, {1, 1}, chain.data(), steps, sink.data());
                        })});
    }
    return rows;
}

void print(const std::vector<Measured>& rows) {
    std::printf("\n%-21s %12s %8s %10s %12s\n", "pattern", "param", "blocks", "GPU us", "GB/s");
    for (const Measured& row : rows) {
        const double gbps = row.bytes > 0 ? row.bytes / row.time.gpu_ms / 1e6 : 0.0;
        std::printf("%-21s %12lld %8u %10.2f %12s\n", row.pattern.c_str(), row.param, row.blocks,
                    row.time.gpu_ms * 1e3,
                    gbps > 0 ? std::to_string(static_cast<long long>(gbps)).c_str() : "");
    }
}

void write_csv(const std::string& path, const std::vector<Measured>& rows) {
    std::ofstream csv(path);
    csv << "pattern,param,blocks,threads,bytes,gpu_us,time_us\n";
    for (const Measured& row : rows) {
        csv << row.pattern << "," << row.param << "," << row.blocks << "," << kThreads << "," << row.bytes
            << "," << row.time.gpu_ms * 1e3 << "," << row.time.ms * 1e3 << "\n";
    }
}

}  // namespace

int main(int argc, char** argv) {
    const auto [csv_path, quick] = parse_sweep_options(argc, argv);
    try {
        const cudaDeviceProp prop = print_device_and_method("model_patterns", argc, argv);
        std::printf("GPU us: the GPU's time alone; GB/s: the bytes the pattern reads or writes over it\n");
        Timer timer;
        std::vector<Measured> all = launches_and_barriers(timer, prop.multiProcessorCount);
        for (const Measured& row : memory(timer, quick ? 20 : 28)) all.push_back(row);
        for (const Measured& row : finishes(timer)) all.push_back(row);
        for (const Measured& row : load_chains(timer, prop)) all.push_back(row);
        print(all);
        if (!csv_path.empty()) write_csv(csv_path, all);
        return 0;
    } catch (const std::exception& error) {
        std::fprintf(stderr, "model_patterns: %s\n", error.what());
        return 2;
    }
}
