// CUDA's built-in vector types, its atomic functions in their three scopes,
// the integer min and max it names by type, an event that blocks the host
// and a poll of it, clock() and clock64() (the cycle counter in a kernel, the
// C library's clock() on the host), and the include guards that code from
// elsewhere tests (NVIDIA's samples' helper_cuda.h declares checkCudaErrors
// and findCudaDevice only where it sees them), and the integer intrinsics
// against the Math API's definitions. The sizes and alignments are what nvcc 13.0 gives on 64-bit
// Linux: this file compiles with nvcc too, and there the same asserts hold
// CUDA's own headers to them.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <ctime>
#include <random>
#include <span>
#include <vector>

#include "warpdrill/catch.h"
#include "warpdrill/cuda.h"
#include "warpdrill/data.h"
#include "warpdrill/host.h"
#include "warpdrill/testing.h"

#if !defined(__CUDA_RUNTIME_H__) || !defined(__DRIVER_TYPES_H__)
#error "cuda_runtime.h's and driver_types.h's include guards are not defined"
#endif

using warpdrill::check_cuda;
using warpdrill::DeviceBuffer;

// A 2-vector is aligned to its size, a 3-vector to its element, a 4-vector
// to its size up to 16 bytes.
template <class Vector, std::size_t kSize, std::size_t kAlignment>
constexpr bool laid_out_as = sizeof(Vector) == kSize && alignof(Vector) == kAlignment;
static_assert(laid_out_as<char1, 1, 1> && laid_out_as<char2, 2, 2> && laid_out_as<char3, 3, 1> &&
              laid_out_as<char4, 4, 4> && laid_out_as<uchar4, 4, 4>);
static_assert(laid_out_as<short2, 4, 4> && laid_out_as<short3, 6, 2> && laid_out_as<ushort4, 8, 8>);
static_assert(laid_out_as<int1, 4, 4> && laid_out_as<int2, 8, 8> && laid_out_as<int3, 12, 4> &&
              laid_out_as<uint4, 16, 16>);
static_assert(laid_out_as<float2, 8, 8> && laid_out_as<float3, 12, 4> && laid_out_as<float4, 16, 16>);
static_assert(laid_out_as<long2, 16, 16> && laid_out_as<longlong2, 16, 16> && laid_out_as<double2, 16, 16> &&
              laid_out_as<double3, 24, 8> && laid_out_as<ulong3, 24, 8>);
static_assert(laid_out_as<double4_16a, 32, 16> && laid_out_as<double4_32a, 32, 32> &&
              laid_out_as<longlong4_16a, 32, 16> && laid_out_as<ulong4_32a, 32, 32>);
static_assert(laid_out_as<dim3, 12, 4> && laid_out_as<uint3, 12, 4>);

namespace {

// Thread t of 64 sets bit t % 32 of its word by And, Or and Xor (two threads
// a bit, so Xor clears what the pair set), in each of the three scopes.
__global__ void bitwise_atomics(unsigned* words, unsigned long long* wide) {
    const unsigned bit = 1u << (threadIdx.x % 32);
    atomicOr(&words[0], bit);
    atomicAnd_block(&words[1], ~bit);
    atomicXor_system(&words[2], bit);
    atomicOr_block(&wide[0], static_cast<unsigned long long>(bit) << 32);
    atomicXor(reinterpret_cast<int*>(&words[3]), static_cast<int>(bit));
}

// Each thread takes a ticket with atomicCAS on 16 bits (guessing 0 first:
// a plain read of the ticket would race with the others' atomics), and adds
// itself in the block's and the system's scope.
__global__ void cas_and_scoped_adds(unsigned short* ticket, int* sum, float* fsum) {
    unsigned short seen = 0;
    for (unsigned short before; (before = atomicCAS(ticket, seen, seen + 1)) != seen;) seen = before;
    atomicAdd_block(sum, static_cast<int>(threadIdx.x));
    atomicAdd_system(fsum, 1.0f);
}

__global__ void typed_min_max(unsigned long long* out) {
    out[0] = umin(3u, 7u) + umax(3u, 7u);             // 10
    out[1] = static_cast<unsigned long long>(llmin(-5ll, 2ll) + llmax(-5ll, 2ll) + 10);  // 7
    out[2] = ullmin(1ull << 40, 5ull) + ullmax(1ull << 40, 5ull);                          // 2^40 + 5
}

// __activemask() with no sync after it, so that a lane may run ahead of the
// others: where the whole warp runs it, after the lanes from 24 up have
// returned, and on each side of a branch on the lane's parity.
__global__ void active_masks(unsigned* out) {
    const unsigned lane = threadIdx.x % 32;
    unsigned* mine = out + 3 * threadIdx.x;
    mine[0] = __activemask();
    if (lane >= 24) return;
    mine[1] = __activemask();
    if (lane % 2 == 1) {
        mine[2] = __activemask();
    } else {
        mine[2] = ~__activemask();
    }
}

}  // namespace

// A program's own fmax, for its own type: a kernel's fmax of that type is
// this one (found by the argument's type), not the math library's.
namespace geometry {
struct Extent {
    float width, height;
};
__host__ __device__ inline Extent fmax(Extent a, Extent b) {
    return {a.width > b.width ? a.width : b.width, a.height > b.height ? a.height : b.height};
}
}  // namespace geometry

namespace {

__global__ void larger_extent(geometry::Extent* extents) { extents[0] = fmax(extents[0], extents[1]); }

// Spins until clock64() has counted `cycles`, and says what clock64() and
// clock() (its low 32 bits) counted meanwhile.
__global__ void spin_cycles(long long cycles, long long* counted) {
    const long long start = clock64();
    const clock_t start32 = clock();
    while (clock64() - start < cycles) {
    }
    counted[0] = clock64() - start;
    counted[1] = static_cast<unsigned>(clock() - start32);  // modulo 2^32: the counter wraps
}

// A GPU loads an object with accesses as wide as its type's alignment
// allows: a struct of a pointer and a size (16 bytes, aligned to 8) as two
// 8-byte words, so it may lie at any multiple of 8; and a float4's member
// alone as 4 bytes. Thread t reads spans[t] and the .x of the float4 at
// in + 2 (a multiple of 8, not of 16).
struct Span {
    const float* first;
    long long count;
};
__global__ void read_by_alignment(const Span* spans, const float* in, float* out) {
    const Span span = spans[threadIdx.x];
    out[threadIdx.x] = span.first[span.count - 1] + reinterpret_cast<const float4*>(in + 2)->x;
}

// A value and its index, 16 bytes of which 4 are padding, as
// cub::KeyValuePair<long long, int>. Thread t of 32 writes its pair member
// by member to shared memory and to pairs[t], then copies its neighbour's
// whole pair from each: the copy also moves the padding, which nothing
// wrote, and no GPU tool reports that.
struct IndexedValue {
    long long index;
    int value;
};
__global__ void copy_padded_pairs(IndexedValue* pairs, IndexedValue* copies) {
    __shared__ IndexedValue shared[32];
    const int t = threadIdx.x;
    shared[t].index = pairs[t].index = t;
    shared[t].value = pairs[t].value = 10 * t;
    __syncthreads();
    const IndexedValue from_shared = shared[(t + 1) % 32];
    const IndexedValue from_global = pairs[(t + 1) % 32];
    copies[t] = {from_shared.index + from_global.index, from_shared.value + from_global.value};
}

// CUDA's integer intrinsics of bytes and halves, funnel shifts, absolute
// differences and averages, and the halves of a double: thread t applies
// each to its operands a[t], b[t], c[t], one result a slot.
constexpr int kIntrinsics = 22;
__global__ void integer_intrinsics(const unsigned* a, const unsigned* b, const unsigned* c, unsigned* out) {
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned x = a[t], y = b[t], z = c[t];
    const int sx = static_cast<int>(x), sy = static_cast<int>(y), sz = static_cast<int>(z);
    unsigned* const r = out + t * kIntrinsics;
    r[0] = __byte_perm(x, y, z);
    r[1] = __funnelshift_l(x, y, z);
    r[2] = __funnelshift_lc(x, y, z % 64);
    r[3] = __funnelshift_r(x, y, z);
    r[4] = __funnelshift_rc(x, y, z % 64);
    r[5] = static_cast<unsigned>(__dp4a(sx, sy, sz));
    r[6] = __dp4a(x, y, z);
    r[7] = static_cast<unsigned>(__dp2a_lo(sx, sy, sz));
    r[8] = static_cast<unsigned>(__dp2a_hi(sx, sy, sz));
    r[9] = __dp2a_lo(x, y, z);
    r[10] = __dp2a_hi(x, y, z);
    r[11] = __sad(sx, sy, z);
    r[12] = __usad(x, y, z);
    r[13] = static_cast<unsigned>(__hadd(sx, sy));
    r[14] = static_cast<unsigned>(__rhadd(sx, sy));
    r[15] = __uhadd(x, y);
    r[16] = __urhadd(x, y);
    const double d = __hiloint2double(sx, sy);
    r[17] = static_cast<unsigned>(__double2hiint(d));
    r[18] = static_cast<unsigned>(__double2loint(d));
    r[19] = static_cast<unsigned>(__dp4a(make_char4(1, -2, 3, -4), make_char4(-5, 6, -7, 8), 9));
    r[20] = __dp4a(make_uchar4(1, 2, 3, 250), make_uchar4(5, 6, 7, 8), 9u);
    __nanosleep(z % 1000);
    __threadfence_system();
    r[21] = __float_as_uint(__frcp_rn(__uint_as_float(x)));
}

}  // namespace

TEST_CASE("clock64() and clock() count cycles in a kernel; clock() on the host is the C library's",
          "[builtins][clock]") {
    constexpr long long kCycles = 2'000'000;  // 1 ms at 1.98 GHz
    DeviceBuffer<long long> counted(2);
    spin_cycles<<<1, 1>>>(kCycles, counted.data());
    check_cuda(cudaDeviceSynchronize());
    const std::vector<long long> got = counted.download();
    CHECK(got[0] >= kCycles);
    CHECK(got[1] >= kCycles);
    // The host's clock() counts the process's CPU time in CLOCKS_PER_SEC:
    // a few milliseconds of it, not billions of cycles.
    const clock_t host_start = clock();
    volatile double sink = 0;
    for (int i = 0; i < 1'000'000; ++i) sink = sink + i;
    const clock_t host_counted = clock() - host_start;
    CHECK(host_counted >= 0);
    CHECK(host_counted < CLOCKS_PER_SEC);
}

TEST_CASE("umin, umax, llmin, llmax, ullmin and ullmax", "[builtins]") {
    DeviceBuffer<unsigned long long> out(3);
    typed_min_max<<<1, 1>>>(out.data());
    check_cuda(cudaDeviceSynchronize());
    CHECK(out.download() == std::vector<unsigned long long>{10, 7, (1ull << 40) + 5});
}

TEST_CASE("__activemask(): the lanes that run the call together, not those that ran ahead or returned",
          "[builtins]") {
    constexpr unsigned kThreads = 80;  // a last warp of 16 lanes
    DeviceBuffer<unsigned> out(std::vector<unsigned>(3 * kThreads, 0xdeadbeefu));
    active_masks<<<1, kThreads>>>(out.data());
    check_cuda(cudaDeviceSynchronize());
    const std::vector<unsigned> got = out.download();
    for (unsigned t = 0; t < kThreads; ++t) {
        INFO("thread " << t);
        const unsigned lane = t % 32;
        const unsigned warp_lanes = t < 64 ? 0xffffffffu : 0xffffu;
        CHECK(got[3 * t] == warp_lanes);
        if (lane >= 24) continue;
        CHECK(got[3 * t + 1] == (warp_lanes & 0x00ffffffu));
        CHECK(got[3 * t + 2] == (lane % 2 == 1 ? warp_lanes & 0x00aaaaaau : ~(warp_lanes & 0x00555555u)));
    }
}

TEST_CASE("fmax of a program's own type is the program's; fmin of long doubles in host code the C library's",
          "[builtins]") {
    DeviceBuffer<geometry::Extent> extents(std::vector<geometry::Extent>{{1.0f, 4.0f}, {3.0f, 2.0f}});
    larger_extent<<<1, 1>>>(extents.data());
    check_cuda(cudaDeviceSynchronize());
    const geometry::Extent larger = extents.download()[0];
    CHECK(larger.width == 3.0f);
    CHECK(larger.height == 4.0f);
    const long double a = 1.0L, b = 2.0L;
    CHECK(fmin(a, b) == 1.0L);
}

TEST_CASE("an event that blocks the host while it waits is timed as any other, and a poll of it ends",
          "[builtins]") {
    cudaEvent_t start = nullptr, stop = nullptr;
    check_cuda(cudaEventCreateWithFlags(&start, cudaEventBlockingSync));
    check_cuda(cudaEventCreateWithFlags(&stop, cudaEventBlockingSync));
    check_cuda(cudaEventRecord(start));
    check_cuda(cudaEventRecord(stop));
    while (cudaEventQuery(stop) == cudaErrorNotReady) {
    }  // a poll ends: the recorded work runs, on a GPU as here
    CHECK(cudaStreamQuery(nullptr) == cudaSuccess);
    float ms = -1.0f;
    check_cuda(cudaEventElapsedTime(&ms, start, stop));
    CHECK(ms >= 0.0f);
    check_cuda(cudaEventDestroy(start));
    check_cuda(cudaEventDestroy(stop));
}

TEST_CASE("atomicAnd, atomicOr and atomicXor, in the device's, the block's and the system's scope",
          "[builtins][atomics]") {
    DeviceBuffer<unsigned> words(std::vector<unsigned>{0u, 0xffffffffu, 0u, 0u});
    DeviceBuffer<unsigned long long> wide(std::vector<unsigned long long>{1ull});
    bitwise_atomics<<<1, 64>>>(words.data(), wide.data());
    check_cuda(cudaDeviceSynchronize());
    CHECK(words.download() == std::vector<unsigned>{0xffffffffu, 0u, 0u, 0u});
    CHECK(wide.download()[0] == 0xffffffff00000001ull);
}

TEST_CASE("atomicCAS on 16 bits, and atomicAdd in the block's and the system's scope",
          "[builtins][atomics]") {
    DeviceBuffer<unsigned short> ticket(std::vector<unsigned short>{0});
    DeviceBuffer<int> sum(std::vector<int>{0});
    DeviceBuffer<float> fsum(std::vector<float>{0.0f});
    cas_and_scoped_adds<<<1, 256>>>(ticket.data(), sum.data(), fsum.data());
    check_cuda(cudaDeviceSynchronize());
    CHECK(ticket.download()[0] == 256);
    CHECK(sum.download()[0] == 255 * 256 / 2);
    CHECK(fsum.download()[0] == 256.0f);
}

TEST_CASE("the make_ functions of the vector types", "[builtins][vectors]") {
    const uchar4 pixel = make_uchar4(1, 2, 3, 250);
    CHECK(pixel.w == 250);
    const double4_32a wide = make_double4_32a(1.0, 2.0, 3.0, 4.0);
    CHECK(wide.w == 4.0);
    const longlong3 triple = make_longlong3(-1, 0, 1ll << 40);
    CHECK(triple.z == 1ll << 40);
    CHECK(make_float3(1.0f, 2.0f, 3.0f).y == 2.0f);
}

TEST_CASE(
    "a 16-byte struct aligned to 8 at an odd multiple of 8, and a misaligned float4's .x alone, load as on a "
    "GPU",
    "[builtins][alignment]") {
    const std::vector<float> values = {1, 2, 3, 4, 5, 6, 7, 8};
    DeviceBuffer<float> in{std::span<const float>(values)};
    const std::vector<Span> spans = {{in.data(), 1}, {in.data(), 4}, {in.data() + 1, 2}};
    // The spans 8 bytes into a cudaMalloc'd buffer (which starts at a multiple of 256).
    DeviceBuffer<long long> storage(1 + 2 * spans.size());
    Span* const odd_spans = reinterpret_cast<Span*>(storage.data() + 1);
    check_cuda(cudaMemcpy(odd_spans, spans.data(), spans.size() * sizeof(Span), cudaMemcpyHostToDevice));
    DeviceBuffer<float> out(spans.size());
    read_by_alignment<<<1, static_cast<unsigned>(spans.size())>>>(odd_spans, in.data(), out.data());
    warpdrill::check_launch();
    CHECK(out.download() == std::vector<float>{1 + 3, 4 + 3, 3 + 3});
}

TEST_CASE("a padded struct written member by member and copied whole is no read of an unwritten value",
          "[builtins][alignment]") {
    DeviceBuffer<IndexedValue> pairs(32), copies(32);
    copy_padded_pairs<<<1, 32>>>(pairs.data(), copies.data());
    warpdrill::check_launch();
    const std::vector<IndexedValue> got = copies.download();
    for (int t = 0; t < 32; ++t) {
        CHECK(got[t].index == 2 * ((t + 1) % 32));
        CHECK(got[t].value == 20 * ((t + 1) % 32));
    }
#if defined(WARPDRILL_BACKEND_CPU)
    CHECK(warpdrill::cpu::take_warnings().empty());
#endif
}

namespace {

// The bytes of x (0-3) and y (4-7) as the intrinsics' documentation numbers them.
unsigned byte_of(unsigned x, unsigned y, unsigned n) { return ((n < 4 ? x : y) >> (8 * (n % 4))) & 0xffu; }

// What each of integer_intrinsics' results should be, by the Math API's words.
std::vector<unsigned> documented_results(unsigned x, unsigned y, unsigned z) {
    const int sx = static_cast<int>(x), sy = static_cast<int>(y), sz = static_cast<int>(z);
    const unsigned long long joined = static_cast<unsigned long long>(y) << 32 | x;  // hi:lo
    unsigned perm = 0;
    for (unsigned n = 0; n < 4; ++n) perm |= byte_of(x, y, (z >> (4 * n)) & 7u) << (8 * n);
    const auto signed_byte = [](unsigned v, int i) {
        return static_cast<int>(static_cast<std::int8_t>(v >> (8 * i)));
    };
    const auto signed_half = [](unsigned v, int i) {
        return static_cast<int>(static_cast<std::int16_t>(v >> (16 * i)));
    };
    int dp4 = sz, dp2_lo = sz, dp2_hi = sz;
    unsigned udp4 = z, udp2_lo = z, udp2_hi = z;
    for (int i = 0; i < 4; ++i) {
        dp4 += signed_byte(x, i) * signed_byte(y, i);
        udp4 += ((x >> (8 * i)) & 0xffu) * ((y >> (8 * i)) & 0xffu);
    }
    for (int i = 0; i < 2; ++i) {
        dp2_lo += signed_half(x, i) * signed_byte(y, i);
        dp2_hi += signed_half(x, i) * signed_byte(y, i + 2);
        udp2_lo += ((x >> (16 * i)) & 0xffffu) * ((y >> (8 * i)) & 0xffu);
        udp2_hi += ((x >> (16 * i)) & 0xffffu) * ((y >> (8 * (i + 2))) & 0xffu);
    }
    const long long sum = static_cast<long long>(sx) + sy;
    const unsigned long long usum = static_cast<unsigned long long>(x) + y;
    const unsigned shift_c_l = std::min(z % 64, 32u), shift_c_r = std::min(z % 64, 32u);
    return {perm,
            static_cast<unsigned>(joined << (z % 32) >> 32),
            static_cast<unsigned>(shift_c_l == 32 ? x : joined << shift_c_l >> 32),
            static_cast<unsigned>(joined >> (z % 32)),
            static_cast<unsigned>(shift_c_r == 32 ? y : joined >> shift_c_r),
            static_cast<unsigned>(dp4),
            udp4,
            static_cast<unsigned>(dp2_lo),
            static_cast<unsigned>(dp2_hi),
            udp2_lo,
            udp2_hi,
            static_cast<unsigned>(std::llabs(static_cast<long long>(sx) - sy)) + z,
            (x > y ? x - y : y - x) + z,
            static_cast<unsigned>(static_cast<int>(sum >> 1)),
            static_cast<unsigned>(static_cast<int>((sum + 1) >> 1)),
            static_cast<unsigned>(usum >> 1),
            static_cast<unsigned>((usum + 1) >> 1),
            x,
            y,
            static_cast<unsigned>(1 * -5 + -2 * 6 + 3 * -7 + -4 * 8 + 9),
            1 * 5 + 2 * 6 + 3 * 7 + 250 * 8 + 9,
            std::bit_cast<unsigned>(1.0f / std::bit_cast<float>(x))};
}

}  // namespace

TEST_CASE("the integer intrinsics of bytes and halves, funnel shifts, differences and averages",
          "[builtins][intrinsics]") {
    const std::uint64_t seed = warpdrill::fresh_seed();
    INFO(warpdrill::describe_seed(seed));
    constexpr int kThreads = 4096;
    std::vector<unsigned> a(kThreads), b(kThreads), c(kThreads);
    std::mt19937 random(seed);
    for (int t = 0; t < kThreads; ++t) {
        a[t] = random(), b[t] = random(), c[t] = random();
        if (t % 4 == 0) c[t] %= 40;               // shifts near and past 32 in the clamped forms
        if (t % 16 == 1) a[t] = 0x3f800000u + t;  // floats near 1 for the reciprocal
    }
    DeviceBuffer<unsigned> da(a), db(b), dc(c), out(kThreads * kIntrinsics);
    out.poison();
    integer_intrinsics<<<kThreads / 256, 256>>>(da.data(), db.data(), dc.data(), out.data());
    check_cuda(cudaDeviceSynchronize());
    const std::vector<unsigned> got = out.download();
    for (int t = 0; t < kThreads; ++t) {
        const std::vector<unsigned> want = documented_results(a[t], b[t], c[t]);
        for (int i = 0; i < kIntrinsics; ++i) {
            if (i == kIntrinsics - 1 && std::isnan(std::bit_cast<float>(want[i]))) continue;  // any NaN
            INFO("thread " << t << ", result " << i << ": a " << a[t] << ", b " << b[t] << ", c " << c[t]);
            CHECK(got[t * kIntrinsics + i] == want[i]);
        }
    }
}
