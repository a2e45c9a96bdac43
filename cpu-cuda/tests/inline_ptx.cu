// Inline PTX, asm("..." : outputs : inputs), as public CUDA code writes it:
// special registers, loads and stores with cache hints and memory orders,
// shuffles, atomics, fences and barriers. Each kernel's results are what
// the PTX ISA defines, worked out here on the host. This file compiles with
// nvcc too: on a GPU it holds the hardware to the same answers.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <numeric>
#include <vector>

#include "warpdrill/catch.h"
#include "warpdrill/cuda.h"
#include "warpdrill/host.h"

using warpdrill::check_cuda;
using warpdrill::DeviceBuffer;

namespace {

__device__ unsigned lane_id() {
    unsigned lane;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
    return lane;
}

// What each thread reads of its special registers, one row of kRegisters a thread.
constexpr int kRegisters = 16;

__global__ void read_special_registers(unsigned* rows) {
    const unsigned rank = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    const unsigned block = blockIdx.x + gridDim.x * blockIdx.y;
    unsigned* row = rows + (block * blockDim.x * blockDim.y * blockDim.z + rank) * kRegisters;
    row[0] = lane_id();
    asm("mov.u32 %0, %%lanemask_lt;" : "=r"(row[1]));
    asm("mov.u32 %0, %%lanemask_le;" : "=r"(row[2]));
    asm("mov.u32 %0, %%lanemask_eq;" : "=r"(row[3]));
    asm("mov.u32 %0, %%lanemask_ge;" : "=r"(row[4]));
    asm("mov.u32 %0, %%lanemask_gt;" : "=r"(row[5]));
    asm("mov.u32 %0, %%tid.x;\n\tmov.u32 %1, %%tid.y;\n\tmov.u32 %2, %%tid.z;"
        : "=r"(row[6]), "=r"(row[7]), "=r"(row[8]));
    asm("mov.u32 %0, %%ctaid.x; mov.u32 %1, %%ctaid.y;" : "=r"(row[9]), "=r"(row[10]));
    asm("mov.u32 %0, %%ntid.x;" : "=r"(row[11]));
    asm("mov.u32 %0, %%nctaid.y;" : "=r"(row[12]));
    unsigned sm, sms, dynamic_bytes;
    asm("mov.u32 %0, %%smid;" : "=r"(sm));
    asm("mov.u32 %0, %%nsmid;" : "=r"(sms));
    asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(dynamic_bytes));
    row[13] = sm < sms;
    row[14] = dynamic_bytes;
    unsigned long long first, second;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(first));
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(second));
    row[15] = second >= first;
}

}  // namespace

TEST_CASE("inline PTX reads the special registers", "[inline_ptx]") {
    const dim3 grid(2, 3), block(8, 4, 2);
    const unsigned threads_per_block = block.x * block.y * block.z, blocks = grid.x * grid.y;
    DeviceBuffer<unsigned> rows(blocks * threads_per_block * kRegisters);
    read_special_registers<<<grid, block, 100>>>(rows.data());
    check_cuda(cudaGetLastError());
    const std::vector<unsigned> read = rows.download();
    for (unsigned b = 0; b < blocks; ++b) {
        for (unsigned rank = 0; rank < threads_per_block; ++rank) {
            const unsigned* row = &read[(b * threads_per_block + rank) * kRegisters];
            const unsigned lane = rank % 32, eq = 1u << lane;
            INFO("block " << b << ", thread " << rank);
            CHECK(row[0] == lane);
            CHECK(row[1] == eq - 1);
            CHECK(row[2] == (eq | (eq - 1)));
            CHECK(row[3] == eq);
            CHECK(row[4] == ~(eq - 1));
            CHECK(row[5] == ~(eq | (eq - 1)));
            CHECK(row[6] == rank % block.x);
            CHECK(row[7] == rank / block.x % block.y);
            CHECK(row[8] == rank / (block.x * block.y));
            CHECK(row[9] == b % grid.x);
            CHECK(row[10] == b / grid.x);
            CHECK(row[11] == block.x);
            CHECK(row[12] == grid.y);
            CHECK(row[13] == 1u);
            CHECK(row[14] == 100u);
            CHECK(row[15] == 1u);
        }
    }
}

namespace {

// Loads and stores of each width and form; every thread copies its slot.
__global__ void load_and_store(const float* in, const signed char* bytes, const float4* packs, float* out,
                               int* widened, float4* packs_out, unsigned* flags) {
    const unsigned i = threadIdx.x;
    float value;
    asm("ld.global.nc.f32 %0, [%1];" : "=f"(value) : "l"(in + i));
    float next;
    asm("ld.global.ca.f32 %0, [%1+4];" : "=f"(next) : "l"(in + i));
    asm volatile("st.global.cs.f32 [%0], %1;" ::"l"(out + i), "f"(value + next));
    int sign_extended;
    unsigned zero_extended;
    asm("ld.global.s8 %0, [%1];" : "=r"(sign_extended) : "l"(bytes + i));
    asm("ld.global.u8 %0, [%1];" : "=r"(zero_extended) : "l"(bytes + i));
    widened[2 * i] = sign_extended;
    widened[2 * i + 1] = static_cast<int>(zero_extended);
    float x, y, z, w;
    asm("ld.global.nc.L1::no_allocate.v4.f32 {%0, %1, %2, %3}, [%4];"
        : "=f"(x), "=f"(y), "=f"(z), "=f"(w)
        : "l"(packs + i));
    asm volatile("st.global.v4.f32 [%0], {%1, %2, %3, %4};" ::"l"(packs_out + i), "f"(w), "f"(z), "f"(y),
                 "f"(x)
                 : "memory");
    unsigned bits;
    asm("mov.b32 %0, %1;" : "=r"(bits) : "f"(value));
    unsigned loaded;
    asm volatile("ld.volatile.global.u32 %0, [%1];" : "=r"(loaded) : "l"(flags + i));
    asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(flags + i), "r"(loaded ^ bits) : "memory");
    unsigned acquired;
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(acquired) : "l"(flags + i) : "memory");
    asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" ::"l"(flags + i), "r"(acquired + 1) : "memory");
}

}  // namespace

TEST_CASE("inline PTX loads and stores as the GPU does", "[inline_ptx]") {
    constexpr int kThreads = 64;
    std::vector<float> in(kThreads + 1);
    std::iota(in.begin(), in.end(), 0.5f);
    std::vector<signed char> bytes(kThreads);
    for (int i = 0; i < kThreads; ++i) bytes[i] = static_cast<signed char>(i * 5 - 100);
    std::vector<float4> packs(kThreads);
    for (int i = 0; i < kThreads; ++i) packs[i] = make_float4(i, i + 0.25f, i + 0.5f, i + 0.75f);
    std::vector<unsigned> flags(kThreads);
    std::iota(flags.begin(), flags.end(), 1000u);
    DeviceBuffer<float> d_in{std::span<const float>(in)}, out(kThreads);
    DeviceBuffer<signed char> d_bytes{std::span<const signed char>(bytes)};
    DeviceBuffer<float4> d_packs{std::span<const float4>(packs)}, packs_out(kThreads);
    DeviceBuffer<int> widened(2 * kThreads);
    DeviceBuffer<unsigned> d_flags{std::span<const unsigned>(flags)};
    load_and_store<<<1, kThreads>>>(d_in.data(), d_bytes.data(), d_packs.data(), out.data(), widened.data(),
                                    packs_out.data(), d_flags.data());
    check_cuda(cudaGetLastError());
    const std::vector<float> sums = out.download();
    const std::vector<int> ints = widened.download();
    const std::vector<float4> swapped = packs_out.download();
    const std::vector<unsigned> flags_after = d_flags.download();
    for (int i = 0; i < kThreads; ++i) {
        INFO("thread " << i);
        CHECK(sums[i] == in[i] + in[i + 1]);
        CHECK(ints[2 * i] == bytes[i]);
        CHECK(ints[2 * i + 1] == static_cast<unsigned char>(bytes[i]));
        CHECK(swapped[i].x == packs[i].w);
        CHECK(swapped[i].w == packs[i].x);
        CHECK(swapped[i].y == packs[i].z);
        CHECK(flags_after[i] == ((flags[i] ^ std::bit_cast<unsigned>(in[i])) + 1));
    }
}

namespace {

// Shuffles with the c operand __shfl_*_sync would make: ((32 - width) << 8) | clamp.
__global__ void shuffles(unsigned* out) {
    const unsigned lane = lane_id();
    unsigned sum = lane;
    for (unsigned offset = 16; offset > 0; offset /= 2) {
        unsigned other;
        asm volatile("shfl.sync.bfly.b32 %0, %1, %2, 0x1f, 0xffffffff;"
                     : "=r"(other)
                     : "r"(sum), "r"(offset));
        sum += other;
    }
    unsigned down, up, broadcast;
    asm volatile("shfl.sync.down.b32 %0, %1, 3, 0x101f, %2;" : "=r"(down) : "r"(lane * 10), "r"(0xffffffffu));
    asm volatile("shfl.sync.up.b32 %0, %1, 2, 0x1800, -1;" : "=r"(up) : "r"(lane * 10));
    asm volatile("shfl.sync.idx.b32 %0, %1, %2, %3, -1;"
                 : "=r"(broadcast)
                 : "r"(lane * 10), "r"(5), "n"(0x1f));
    __syncwarp();
    asm volatile("bar.warp.sync %0;" ::"r"(0xffffffffu));
    out[4 * threadIdx.x] = sum;
    out[4 * threadIdx.x + 1] = down;
    out[4 * threadIdx.x + 2] = up;
    out[4 * threadIdx.x + 3] = broadcast;
}

}  // namespace

TEST_CASE("inline PTX shuffles as __shfl_*_sync do", "[inline_ptx]") {
    DeviceBuffer<unsigned> out(4 * 64);
    shuffles<<<1, 64>>>(out.data());
    check_cuda(cudaGetLastError());
    const std::vector<unsigned> got = out.download();
    for (unsigned t = 0; t < 64; ++t) {
        const unsigned lane = t % 32;
        INFO("thread " << t);
        CHECK(got[4 * t] == 496u);  // 0 + 1 + ... + 31
        // width 16: lanes read 3 below in their half, or keep their own value past its end
        CHECK(got[4 * t + 1] == (lane % 16 + 3 < 16 ? lane + 3 : lane) * 10);
        // width 8: lanes read 2 above in their eighth, or keep their own value before its start
        CHECK(got[4 * t + 2] == (lane % 8 >= 2 ? lane - 2 : lane) * 10);
        CHECK(got[4 * t + 3] == 50u);
    }
}

namespace {

// Atomics and reductions of each kind, a fence, and a block barrier.
__global__ void atomics(unsigned* counters, float* total, int* lowest, unsigned* block_sums) {
    __shared__ unsigned partial[128];
    const unsigned i = threadIdx.x;
    unsigned ticket;
    asm volatile("atom.global.add.u32 %0, [%1], 1;" : "=r"(ticket) : "l"(counters));
    asm volatile("red.global.add.f32 [%0], %1;" ::"l"(total), "f"(0.5f) : "memory");
    asm volatile("red.relaxed.gpu.global.min.s32 [%0], %1;" ::"l"(lowest), "r"(static_cast<int>(i) - 7));
    unsigned wrapped;
    asm volatile("atom.global.inc.u32 %0, [%1], 9;" : "=r"(wrapped) : "l"(counters + 1));
    unsigned swapped = 0;
    if (i == 3)
        asm volatile("atom.global.cas.b32 %0, [%1], %2, %3;"
                     : "=r"(swapped)
                     : "l"(counters + 2), "r"(0u), "r"(77u));
    unsigned added = 2;
    asm volatile("atom.acq_rel.gpu.global.add.u32 %0, [%1], %0;"
                 : "+r"(added)
                 : "l"(counters + 3)
                 : "memory");
    asm volatile("red.cta.global.add.u32 [%0], 1;" ::"l"(counters + 4));
    partial[i] = ticket < 1000 && wrapped <= 9 && (i != 3 || swapped == 0 || swapped == 77) && added % 2 == 0;
    asm volatile("membar.gl;\n\tbar.sync 0;" ::: "memory");
    if (i == 0) {
        unsigned all = 0;
        for (unsigned k = 0; k < blockDim.x; ++k) all += partial[k];
        block_sums[blockIdx.x] = all;
    }
    asm volatile("fence.acq_rel.gpu;" ::: "memory");
}

}  // namespace

TEST_CASE("inline PTX atomics, fences and bar.sync", "[inline_ptx]") {
    constexpr unsigned kBlocks = 4, kThreads = 128;
    const std::vector<unsigned> zeros(5, 0);
    DeviceBuffer<unsigned> counters{std::span<const unsigned>(zeros)}, block_sums(kBlocks);
    const float zero = 0.0f;
    const int large = 1 << 20;
    DeviceBuffer<float> total{std::span<const float>(&zero, 1)};
    DeviceBuffer<int> lowest{std::span<const int>(&large, 1)};
    atomics<<<kBlocks, kThreads>>>(counters.data(), total.data(), lowest.data(), block_sums.data());
    check_cuda(cudaGetLastError());
    const std::vector<unsigned> counted = counters.download();
    CHECK(counted[0] == kBlocks * kThreads);
    CHECK(counted[1] == kBlocks * kThreads % 10);  // inc wraps past 9 to 0
    CHECK(counted[2] == 77u);
    CHECK(counted[3] == 2 * kBlocks * kThreads);
    CHECK(counted[4] == kBlocks * kThreads);
    CHECK(total.download()[0] == 0.5f * kBlocks * kThreads);
    CHECK(lowest.download()[0] == -7);
    for (const unsigned sum : block_sums.download()) CHECK(sum == kThreads);
}
