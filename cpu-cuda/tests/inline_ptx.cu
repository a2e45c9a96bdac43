// Inline PTX, asm("..." : outputs : inputs), as public CUDA code writes it:
// special registers, loads and stores with cache hints and memory orders,
// shuffles, atomics, fences and barriers. Each kernel's results are what
// the PTX ISA defines, worked out here on the host. This file compiles with
// nvcc too: on a GPU it holds the hardware to the same answers.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
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
                               int* widened, float4* packs_out, unsigned* flags, unsigned* words) {
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
    unsigned low, high;  // a double's halves, and back (a double shuffled as two words)
    double doubled = 2.0 * value, repacked;
    asm("mov.b64 {%0, %1}, %2;" : "=r"(low), "=r"(high) : "d"(doubled));
    asm("mov.b64 %0, {%1, %2};" : "=d"(repacked) : "r"(low), "r"(high));
    unsigned short half_low, half_high;
    unsigned halves;
    asm("mov.b32 {%0, %1}, %2;" : "=h"(half_low), "=h"(half_high) : "r"(bits));
    asm("mov.b32 %0, {%1, %2};" : "=r"(halves) : "h"(half_high), "h"(half_low));
    words[3 * i] = low;
    words[3 * i + 1] = repacked == doubled ? high : 0u;
    words[3 * i + 2] = halves;
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
    DeviceBuffer<unsigned> words(3 * kThreads);
    load_and_store<<<1, kThreads>>>(d_in.data(), d_bytes.data(), d_packs.data(), out.data(), widened.data(),
                                    packs_out.data(), d_flags.data(), words.data());
    check_cuda(cudaGetLastError());
    const std::vector<float> sums = out.download();
    const std::vector<int> ints = widened.download();
    const std::vector<float4> swapped = packs_out.download();
    const std::vector<unsigned> flags_after = d_flags.download();
    const std::vector<unsigned> packed = words.download();
    for (int i = 0; i < kThreads; ++i) {
        INFO("thread " << i);
        CHECK(sums[i] == in[i] + in[i + 1]);
        CHECK(ints[2 * i] == bytes[i]);
        CHECK(ints[2 * i + 1] == static_cast<unsigned char>(bytes[i]));
        CHECK(swapped[i].x == packs[i].w);
        CHECK(swapped[i].w == packs[i].x);
        CHECK(swapped[i].y == packs[i].z);
        CHECK(flags_after[i] == ((flags[i] ^ std::bit_cast<unsigned>(in[i])) + 1));
        const auto doubled = std::bit_cast<unsigned long long>(2.0 * in[i]);
        CHECK(packed[3 * i] == static_cast<unsigned>(doubled));
        CHECK(packed[3 * i + 1] == static_cast<unsigned>(doubled >> 32));
        const unsigned bits = std::bit_cast<unsigned>(in[i]);
        CHECK(packed[3 * i + 2] == (bits << 16 | bits >> 16));  // the halves swapped
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
    unsigned neighbour;  // c in a register, as CUB's shuffles pass it
    asm volatile("shfl.sync.bfly.b32 %0, %1, %2, %3, %4;"
                 : "=r"(neighbour)
                 : "r"(lane), "r"(1), "r"(0x1f), "r"(0xffffffffu));
    sum += neighbour == (lane ^ 1u) ? 0u : 1000u;
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

namespace {

// Predicates of the asm's own, votes, and instructions under a guard.
__global__ void votes_and_predicates(unsigned* out) {
    const unsigned lane = lane_id();
    unsigned ballot, any_five, all_in_warp, guarded = 7, active;
    asm volatile(
        "{\n\t.reg .pred odd;\n\tsetp.ne.u32 odd, %1, 0;\n\tvote.sync.ballot.b32 %0, odd, 0xffffffff;\n\t}"
        : "=r"(ballot)
        : "r"(lane & 1));
    asm volatile(
        "{ .reg .pred p, q; setp.eq.u32 p, %1, 5; vote.sync.any.pred q, p, -1; selp.u32 %0, 1, 0, q; }"
        : "=r"(any_five)
        : "r"(lane));
    asm volatile(
        "{ .reg .pred %%p<2>; setp.lt.u32 %%p0, %1, 32; vote.sync.all.pred %%p1, %%p0, -1; selp.u32 %0, 1, "
        "0, %%p1; }"
        : "=r"(all_in_warp)
        : "r"(lane));
    asm volatile(
        "{ .reg .pred low; setp.lt.u32 low, %1, 16; @low mov.u32 %0, %1; @!low add.u32 %0, %0, 100; }"
        : "+r"(guarded)
        : "r"(lane));
    asm volatile("activemask.b32 %0;" : "=r"(active));
    unsigned* row = out + 5 * threadIdx.x;
    row[0] = ballot;
    row[1] = any_five;
    row[2] = all_in_warp;
    row[3] = guarded;
    row[4] = active;  // the whole warp: nothing diverges here
}

}  // namespace

TEST_CASE("inline PTX predicates, votes and guards", "[inline_ptx]") {
    DeviceBuffer<unsigned> out(5 * 64);
    votes_and_predicates<<<1, 64>>>(out.data());
    check_cuda(cudaGetLastError());
    const std::vector<unsigned> got = out.download();
    for (unsigned t = 0; t < 64; ++t) {
        INFO("thread " << t);
        CHECK(got[5 * t] == 0xaaaaaaaau);
        CHECK(got[5 * t + 1] == 1u);
        CHECK(got[5 * t + 2] == 1u);
        CHECK(got[5 * t + 3] == (t % 32 < 16 ? t % 32 : 107u));
        CHECK(got[5 * t + 4] == 0xffffffffu);
    }
}

namespace {

// Runs `kernel` with a thread for each pair (as[i], bs[i]), which writes
// `results` words of its own, and returns them all, thread after thread.
template <class T>
std::vector<unsigned> run_over_pairs(void (*kernel)(const T*, const T*, unsigned*), const std::vector<T>& as,
                                     const std::vector<T>& bs, int results) {
    DeviceBuffer<T> d_as{std::span<const T>(as)}, d_bs{std::span<const T>(bs)};
    DeviceBuffer<unsigned> out(results * as.size());
    kernel<<<1, static_cast<unsigned>(as.size())>>>(d_as.data(), d_bs.data(), out.data());
    check_cuda(cudaGetLastError());
    return out.download();
}

constexpr int kIntegerResults = 29;

// Integer arithmetic and bit operations, where C++ and PTX differ most:
// overflow wraps, shifts past the width, high halves and wide products, bit
// fields that reach past the register (positions and lengths are their
// operands' low bytes: b % 300 tries both).
__global__ void integer_arithmetic(const unsigned* as, const unsigned* bs, unsigned* out) {
    const unsigned a = as[threadIdx.x], b = bs[threadIdx.x], shift = b % 40;
    unsigned* r = out + kIntegerResults * threadIdx.x;
    asm("add.u32 %0, %1, %2;" : "=r"(r[0]) : "r"(a), "r"(b));
    asm("sub.s32 %0, %1, %2;" : "=r"(r[1]) : "r"(a), "r"(b));
    asm("mul.lo.u32 %0, %1, %2;" : "=r"(r[2]) : "r"(a), "r"(b));
    asm("mul.hi.u32 %0, %1, %2;" : "=r"(r[3]) : "r"(a), "r"(b));
    asm("mul.hi.s32 %0, %1, %2;" : "=r"(r[4]) : "r"(a), "r"(b));
    unsigned long long wide;
    asm("mul.wide.s32 %0, %1, %2;" : "=l"(wide) : "r"(a), "r"(b));
    r[5] = static_cast<unsigned>(wide);
    r[6] = static_cast<unsigned>(wide >> 32);
    asm("mad.lo.s32 %0, %1, %2, 12345;" : "=r"(r[7]) : "r"(a), "r"(b));
    asm("min.s32 %0, %1, %2;" : "=r"(r[8]) : "r"(a), "r"(b));
    asm("max.u32 %0, %1, %2;" : "=r"(r[9]) : "r"(a), "r"(b));
    asm("and.b32 %0, %1, %2;" : "=r"(r[10]) : "r"(a), "r"(b));
    asm("xor.b32 %0, %1, %2;" : "=r"(r[11]) : "r"(a), "r"(b));
    asm("not.b32 %0, %1;" : "=r"(r[12]) : "r"(a));
    asm("shl.b32 %0, %1, %2;" : "=r"(r[13]) : "r"(a), "r"(shift));
    asm("shr.s32 %0, %1, %2;" : "=r"(r[14]) : "r"(a), "r"(shift));
    asm("shr.u32 %0, %1, %2;" : "=r"(r[15]) : "r"(a), "r"(shift));
    asm("popc.b32 %0, %1;" : "=r"(r[16]) : "r"(a));
    asm("clz.b32 %0, %1;" : "=r"(r[17]) : "r"(a));
    asm("brev.b32 %0, %1;" : "=r"(r[18]) : "r"(a));
    asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r[19]) : "r"(a), "r"(b), "r"(b >> 8));
    asm("{ .reg .pred less; setp.lt.s32 less, %1, %2; selp.u32 %0, 1, 0, less; }"
        : "=r"(r[20])
        : "r"(a), "r"(b));
    asm("{ .reg .pred below; setp.lo.u32 below, %1, %2; selp.u32 %0, 1, 0, below; }"
        : "=r"(r[21])
        : "r"(a), "r"(b));
    unsigned long long a64 = static_cast<unsigned long long>(a) << 32 | b, high;
    asm("mul.hi.u64 %0, %1, %1;" : "=l"(high) : "l"(a64));
    r[22] = static_cast<unsigned>(high ^ (high >> 32));
    asm("{ .reg .b64 t; shl.b64 t, %1, %2; popc.b64 %0, t; }" : "=r"(r[23]) : "l"(a64), "r"(shift + 20));
    const unsigned pos = b % 300, len = (b >> 9) % 300, pos64 = (b >> 3) % 80, len64 = (b >> 17) % 80;
    asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r[24]) : "r"(a), "r"(pos), "r"(len));
    asm("bfe.s32 %0, %1, %2, %3;" : "=r"(r[25]) : "r"(a), "r"(pos), "r"(len));
    asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(r[26]) : "r"(a), "r"(b), "r"(pos), "r"(len));
    long long field;
    asm("bfe.s64 %0, %1, %2, %3;" : "=l"(field) : "l"(a64), "r"(pos64), "r"(len64));
    r[27] = static_cast<unsigned>(field ^ (field >> 32));
    unsigned long long inserted;
    asm("bfi.b64 %0, %1, %2, %3, %4;" : "=l"(inserted) : "l"(a64), "l"(~a64), "r"(pos64), "r"(len64));
    r[28] = static_cast<unsigned>(inserted ^ (inserted >> 32));
}

// bfe and bfi as the PTX ISA defines them, bit by bit, over `bits` bits.
unsigned long long bit_field(unsigned long long a, unsigned pos, unsigned len, int bits, bool is_signed) {
    pos &= 0xffu;
    len &= 0xffu;
    const unsigned msb = bits - 1;
    const unsigned long long sign = !is_signed || len == 0 ? 0 : a >> std::min(pos + len - 1, msb) & 1u;
    unsigned long long d = 0;
    for (unsigned i = 0; i <= msb; ++i) d |= (i < len && pos + i <= msb ? a >> (pos + i) & 1u : sign) << i;
    return d;
}
unsigned long long insert_field(unsigned long long a, unsigned long long b, unsigned pos, unsigned len,
                                int bits) {
    pos &= 0xffu;
    len &= 0xffu;
    for (unsigned i = 0; i < len && pos + i < static_cast<unsigned>(bits); ++i)
        b = (b & ~(1ull << (pos + i))) | ((a >> i & 1u) << (pos + i));
    return b;
}

// The PTX ISA's definitions, written out on the host.
std::vector<unsigned> integer_reference(unsigned a, unsigned b) {
    const unsigned shift = b % 40;
    const int sa = static_cast<int>(a), sb = static_cast<int>(b);
    const long long wide = static_cast<long long>(sa) * sb;
    std::vector<unsigned> r(kIntegerResults);
    r[0] = a + b;
    r[1] = a - b;
    r[2] = a * b;
    r[3] = static_cast<unsigned>(static_cast<unsigned long long>(a) * b >> 32);
    r[4] = static_cast<unsigned>(static_cast<unsigned long long>(wide) >> 32);
    r[5] = static_cast<unsigned>(wide);
    r[6] = static_cast<unsigned>(static_cast<unsigned long long>(wide) >> 32);
    r[7] = a * b + 12345u;
    r[8] = static_cast<unsigned>(std::min(sa, sb));
    r[9] = std::max(a, b);
    r[10] = a & b;
    r[11] = a ^ b;
    r[12] = ~a;
    r[13] = shift >= 32 ? 0u : a << shift;
    r[14] = static_cast<unsigned>(sa >> std::min(shift, 31u));
    r[15] = shift >= 32 ? 0u : a >> shift;
    r[16] = static_cast<unsigned>(std::popcount(a));
    r[17] = static_cast<unsigned>(std::countl_zero(a));
    unsigned reversed = 0;
    for (int bit = 0; bit < 32; ++bit) reversed |= (a >> bit & 1u) << (31 - bit);
    r[18] = reversed;
    const unsigned long long bytes = static_cast<unsigned long long>(b) << 32 | a;
    r[19] = 0;
    for (int n = 0; n < 4; ++n) {
        const unsigned nibble = (b >> 8) >> (4 * n) & 0xfu;
        unsigned byte = static_cast<unsigned>(bytes >> (8 * (nibble & 7u))) & 0xffu;
        if (nibble & 8u) byte = byte & 0x80u ? 0xffu : 0u;
        r[19] |= byte << (8 * n);
    }
    r[20] = sa < sb;
    r[21] = a < b;
    const unsigned long long a64 = static_cast<unsigned long long>(a) << 32 | b;
    const unsigned long long high =
        static_cast<unsigned long long>((static_cast<unsigned __int128>(a64) * a64) >> 64);
    r[22] = static_cast<unsigned>(high ^ (high >> 32));
    const unsigned shift64 = shift + 20;
    r[23] = static_cast<unsigned>(std::popcount(shift64 >= 64 ? 0ull : a64 << shift64));
    const unsigned pos = b % 300, len = (b >> 9) % 300, pos64 = (b >> 3) % 80, len64 = (b >> 17) % 80;
    r[24] = static_cast<unsigned>(bit_field(a, pos, len, 32, false));
    r[25] = static_cast<unsigned>(bit_field(a, pos, len, 32, true));
    r[26] = static_cast<unsigned>(insert_field(a, b, pos, len, 32));
    const unsigned long long field = bit_field(a64, pos64, len64, 64, true);
    r[27] = static_cast<unsigned>(field ^ (field >> 32));
    const unsigned long long inserted = insert_field(a64, ~a64, pos64, len64, 64);
    r[28] = static_cast<unsigned>(inserted ^ (inserted >> 32));
    return r;
}

}  // namespace

TEST_CASE("inline PTX integer arithmetic wraps, clamps and widens as the PTX ISA says", "[inline_ptx]") {
    constexpr unsigned kThreads = 256;
    std::vector<unsigned> as(kThreads), bs(kThreads);
    unsigned state = 12345;
    const auto next = [&state] { return state = state * 1664525u + 1013904223u; };
    for (unsigned i = 0; i < kThreads; ++i) {
        as[i] = i < 8 ? std::vector<unsigned>{0, 1, 0x7fffffffu, 0x80000000u, 0xffffffffu, 31, 32, 33}[i]
                      : next();
        bs[i] = i % 8 == 0 ? 0xffffffffu : next();
    }
    const std::vector<unsigned> got = run_over_pairs(integer_arithmetic, as, bs, kIntegerResults);
    for (unsigned i = 0; i < kThreads; ++i) {
        const std::vector<unsigned> expected = integer_reference(as[i], bs[i]);
        for (int k = 0; k < kIntegerResults; ++k) {
            INFO("a = " << as[i] << ", b = " << bs[i] << ", result " << k);
            CHECK(got[kIntegerResults * i + k] == expected[k]);
        }
    }
}

namespace {

constexpr int kFloatResults = 18;

// Float arithmetic, comparisons with NaN, and conversions that saturate.
__global__ void float_arithmetic(const float* as, const float* bs, unsigned* out) {
    const float a = as[threadIdx.x], b = bs[threadIdx.x];
    unsigned* r = out + kFloatResults * threadIdx.x;
    float f;
    asm("add.rn.f32 %0, %1, %2;" : "=f"(f) : "f"(a), "f"(b));
    r[0] = __float_as_uint(f);
    asm("mul.f32 %0, %1, %2;" : "=f"(f) : "f"(a), "f"(b));
    r[1] = __float_as_uint(f);
    asm("fma.rn.f32 %0, %1, %2, 0f3F800000;" : "=f"(f) : "f"(a), "f"(b));
    r[2] = __float_as_uint(f);
    asm("max.f32 %0, %1, %2;" : "=f"(f) : "f"(a), "f"(b));
    r[3] = __float_as_uint(f);
    asm("{ .reg .pred p; setp.ne.f32 p, %1, %2; selp.u32 %0, 1, 0, p; }" : "=r"(r[4]) : "f"(a), "f"(b));
    asm("{ .reg .pred p; setp.neu.f32 p, %1, %2; selp.u32 %0, 1, 0, p; }" : "=r"(r[5]) : "f"(a), "f"(b));
    asm("{ .reg .pred p; setp.equ.f32 p, %1, %2; selp.u32 %0, 1, 0, p; }" : "=r"(r[6]) : "f"(a), "f"(b));
    asm("{ .reg .pred p; setp.num.f32 p, %1, %2; selp.u32 %0, 1, 0, p; }" : "=r"(r[7]) : "f"(a), "f"(b));
    asm("{ .reg .pred p; setp.gtu.f32 p, %1, %2; selp.u32 %0, 1, 0, p; }" : "=r"(r[8]) : "f"(a), "f"(b));
    asm("cvt.rzi.s32.f32 %0, %1;" : "=r"(r[9]) : "f"(a));
    asm("cvt.rni.s32.f32 %0, %1;" : "=r"(r[10]) : "f"(a));
    asm("cvt.rmi.u32.f32 %0, %1;" : "=r"(r[11]) : "f"(a));
    asm("cvt.rpi.s32.f32 %0, %1;" : "=r"(r[12]) : "f"(a));
    asm("cvt.rn.f32.s32 %0, %1;" : "=f"(f) : "r"(__float_as_uint(b)));
    r[13] = __float_as_uint(f);
    double d;
    asm("cvt.f64.f32 %0, %1;" : "=d"(d) : "f"(a));
    asm("cvt.rn.f32.f64 %0, %1;" : "=f"(f) : "d"(d * 3.0));
    r[14] = __float_as_uint(f);
    asm("min.f32 %0, %1, %2;" : "=f"(f) : "f"(a), "f"(b));
    r[15] = __float_as_uint(f);
    asm("max.f64 %0, %1, %2;" : "=d"(d) : "d"(static_cast<double>(a)), "d"(static_cast<double>(b)));
    r[16] = static_cast<unsigned>(__double_as_longlong(d));
    r[17] = static_cast<unsigned>(__double_as_longlong(d) >> 32);
}

// min and max as an H200 computes them: a NaN loses to a number, and -0 is
// less than +0. (Of two NaNs, f32's give the canonical NaN: the caller's.)
template <class T>
T ptx_min_max(T a, T b, bool larger) {
    if (std::isnan(a) && std::isnan(b)) return std::numeric_limits<T>::quiet_NaN();
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) ? b : a;
    if (a == b)
        return std::signbit(a) == larger ? b : a;  // of two zeros, the one with the sign (min) or without
    return (a < b) == larger ? b : a;
}

// A float rounded as cvt's .rzi, .rni, .rmi or .rpi does, then held to the integer's range (NaN: 0).
template <class Integer>
unsigned saturated(float value, float (*round)(float)) {
    if (std::isnan(value)) return 0;
    const double rounded = round(value);
    const double low = std::numeric_limits<Integer>::min(), high = std::numeric_limits<Integer>::max();
    return static_cast<unsigned>(static_cast<Integer>(std::clamp(rounded, low, high)));
}

std::vector<unsigned> float_reference(float a, float b) {
    const bool unordered = std::isnan(a) || std::isnan(b);
    const auto bits = [](float x) { return std::bit_cast<unsigned>(x); };
    std::vector<unsigned> r(kFloatResults);
    r[0] = bits(a + b);
    r[1] = bits(a * b);
    r[2] = bits(std::fma(a, b, 1.0f));
    const auto canonical = [](float x) { return std::isnan(x) ? 0x7fffffffu : std::bit_cast<unsigned>(x); };
    r[3] = canonical(ptx_min_max(a, b, true));
    r[4] = !unordered && a != b;
    r[5] = unordered || a != b;
    r[6] = unordered || a == b;
    r[7] = !unordered;
    r[8] = unordered || a > b;
    r[9] = saturated<int>(a, [](float x) { return std::trunc(x); });
    r[10] = saturated<int>(a, [](float x) { return std::nearbyint(x); });
    r[11] = saturated<unsigned>(a, [](float x) { return std::floor(x); });
    r[12] = saturated<int>(a, [](float x) { return std::ceil(x); });
    r[13] = bits(static_cast<float>(static_cast<int>(bits(b))));
    r[14] = bits(static_cast<float>(static_cast<double>(a) * 3.0));
    r[15] = canonical(ptx_min_max(a, b, false));
    const double larger = ptx_min_max<double>(a, b, true);
    const unsigned long long larger_bits =
        std::bit_cast<unsigned long long>(larger);  // two NaNs: the one both are
    r[16] = static_cast<unsigned>(larger_bits);
    r[17] = static_cast<unsigned>(larger_bits >> 32);
    return r;
}

}  // namespace

TEST_CASE("inline PTX float arithmetic, NaN comparisons and saturating conversions", "[inline_ptx]") {
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    const std::vector<float> values = {0.0f, -0.0f, 0.5f, -0.5f, 1.5f,  2.5f,   -2.5f,     3.5f,
                                       nan,  inf,   -inf, 3e9f,  -3e9f, 1e-40f, 123456.7f, 1.0f};
    std::vector<float> as, bs;
    for (const float a : values) {
        for (const float b : values) {
            as.push_back(a);
            bs.push_back(b);
        }
    }
    const std::vector<unsigned> got = run_over_pairs(float_arithmetic, as, bs, kFloatResults);
    for (std::size_t i = 0; i < as.size(); ++i) {
        const std::vector<unsigned> expected = float_reference(as[i], bs[i]);
        for (int k = 0; k < kFloatResults; ++k) {
            INFO("a = " << as[i] << ", b = " << bs[i] << ", result " << k);
            if (k <= 2 &&
                (std::isnan(as[i]) || std::isnan(bs[i]) || std::isnan(std::bit_cast<float>(expected[k])))) {
                CHECK(std::isnan(std::bit_cast<float>(got[kFloatResults * i + k])));  // any NaN
            } else {
                CHECK(got[kFloatResults * i + k] == expected[k]);
            }
        }
    }
}
