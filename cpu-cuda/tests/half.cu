// <cuda_fp16.h> and <cuda_bf16.h> on the CPU backend, held to what an H100
// computes: kernels convert and compute, the host checks the bits against
// references that do not share the backend's code (GCC's _Float16, the
// classic bit formulas for bfloat16) or against values worked out by hand.
// The kernels use only CUDA's API, so this file compiles with nvcc as well.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "warpdrill/catch.h"
#include "warpdrill/cuda.h"
#include "warpdrill/host.h"

using warpdrill::check_launch;
using warpdrill::DeviceBuffer;
using warpdrill::launch;

static_assert(sizeof(__half) == 2 && alignof(__half) == 2 && sizeof(__half2) == 4 && alignof(__half2) == 4);
static_assert(sizeof(__nv_bfloat16) == 2 && alignof(__nv_bfloat16) == 2);
static_assert(sizeof(__nv_bfloat162) == 4 && alignof(__nv_bfloat162) == 4);
static_assert(std::is_trivially_copyable_v<__half> && std::is_trivially_copyable_v<__nv_bfloat16>);
#if defined(WARPDRILL_BACKEND_CPU)
// The backend's shuffles take any trivially copyable type; CUDA's __half2 has a copy constructor of
// its own (and shuffle overloads for it).
static_assert(std::is_trivially_copyable_v<__half2> && std::is_trivially_copyable_v<__nv_bfloat162>);
#endif

namespace {

constexpr int all_patterns = 1 << 16;

// ---- running a device function on many inputs ------------------------------------------------
template <class Function, class In>
__global__ void map_kernel(Function function, const In* in, std::uint32_t* out, int n) {
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i < n) out[i] = function(in[i]);
}

// function(x) for each input, computed in a kernel.
template <class Function, class In>
std::vector<std::uint32_t> on_device(Function function, const std::vector<In>& inputs) {
    const int n = static_cast<int>(inputs.size());
    DeviceBuffer<In> in{std::span<const In>(inputs)};
    DeviceBuffer<std::uint32_t> out(inputs.size());
    launch(map_kernel<Function, In>, {dim3((n + 255) / 256), 256}, function, in.data(), out.data(), n);
    check_launch();
    return out.download();
}

std::vector<std::uint16_t> every_pattern() {
    std::vector<std::uint16_t> patterns(all_patterns);
    for (int i = 0; i < all_patterns; ++i) patterns[i] = static_cast<std::uint16_t>(i);
    return patterns;
}

// ---- the references -----------------------------------------------------------------------------
float half_value(std::uint16_t bits) { return static_cast<float>(std::bit_cast<_Float16>(bits)); }
bool is_half_nan(std::uint16_t bits) { return (bits & 0x7fff) > 0x7c00; }

// The next 16-bit number up or down, from its bits (sign and magnitude): the same for both formats.
std::uint16_t next_up(std::uint16_t bits) {
    if (bits == 0x8000) return 0x0001;
    return static_cast<std::uint16_t>((bits & 0x8000) != 0 ? bits - 1 : bits + 1);
}
std::uint16_t next_down(std::uint16_t bits) {
    if (bits == 0x0000) return 0x8001;
    return static_cast<std::uint16_t>((bits & 0x8000) != 0 ? bits + 1 : bits - 1);
}

// The halves on either side of x (the same half where x is one), from GCC's
// conversion to _Float16, which rounds to nearest even.
struct Bracket {
    std::uint16_t below, above;
};
Bracket half_bracket(float x) {
    const auto nearest = std::bit_cast<std::uint16_t>(static_cast<_Float16>(x));
    if (half_value(nearest) == x) return {nearest, nearest};
    return half_value(nearest) < x ? Bracket{nearest, next_up(nearest)}
                                   : Bracket{next_down(nearest), nearest};
}

// bfloat16 is float's upper half: rounding is integer arithmetic on float's bits.
std::uint16_t bfloat16_toward_zero(float x) {
    return static_cast<std::uint16_t>(std::bit_cast<std::uint32_t>(x) >> 16);
}
std::uint16_t bfloat16_nearest_even(float x) {
    const std::uint32_t bits = std::bit_cast<std::uint32_t>(x);
    return static_cast<std::uint16_t>((bits + 0x7fff + ((bits >> 16) & 1)) >> 16);
}
// Rounding away from zero where anything was dropped: down for negatives, up for positives.
std::uint16_t bfloat16_away_from_zero(float x) {
    const std::uint32_t bits = std::bit_cast<std::uint32_t>(x);
    return static_cast<std::uint16_t>((bits >> 16) + ((bits & 0xffff) != 0 ? 1 : 0));
}

// Floats that test a conversion to 16 bits: every 16-bit number of the format (from `value`), the
// midpoints to its neighbour, and the floats next to those; then what lies beyond the format:
// float subnormals, overflow, infinities and NaNs.
template <class Value>
std::vector<float> conversion_inputs(Value value) {
    std::vector<float> inputs;
    for (std::uint16_t bits = 0; bits < 0x7f80; ++bits) {
        const float low = value(bits), high = value(static_cast<std::uint16_t>(bits + 1));
        if (!std::isfinite(low) || !std::isfinite(high)) break;
        const float midpoint = low + (high - low) / 2;  // exact in float
        for (const float x :
             {low, midpoint, std::nextafter(midpoint, 0.0f), std::nextafter(midpoint, high)}) {
            inputs.push_back(x);
            inputs.push_back(-x);
        }
    }
    for (const std::uint32_t bits :
         {0x00000001u, 0x007fffffu, 0x33000000u, 0x33000001u, 0x477fefffu, 0x477ff000u, 0x477ff001u,
          0x7f7f7fffu, 0x7f7f8000u, 0x7f7fffffu, 0x7f800000u, 0x7f800001u, 0x7fc00000u, 0x7fffffffu}) {
        inputs.push_back(std::bit_cast<float>(bits));
        inputs.push_back(-std::bit_cast<float>(bits));
    }
    return inputs;
}

// ---- the device functions -------------------------------------------------------------------------
struct HalfToFloat {
    __device__ std::uint32_t operator()(std::uint16_t bits) const {
        return __float_as_uint(__half2float(__ushort_as_half(bits)));
    }
};
struct HalfThroughFloat {
    __device__ std::uint32_t operator()(std::uint16_t bits) const {
        return __half_as_ushort(__float2half(__half2float(__ushort_as_half(bits))));
    }
};
enum class Mode { rn, rz, rd, ru };
enum class Format { half, bfloat16 };
// x rounded to 16 bits by the intrinsic of `format` and `mode`, as bits.
struct RoundFloat {
    Format format;
    Mode mode;
    __device__ std::uint32_t operator()(float x) const {
        const bool to_half = format == Format::half;
        switch (mode) {
            case Mode::rn:
                return to_half ? __half_as_ushort(__float2half_rn(x))
                               : __bfloat16_as_ushort(__float2bfloat16_rn(x));
            case Mode::rz:
                return to_half ? __half_as_ushort(__float2half_rz(x))
                               : __bfloat16_as_ushort(__float2bfloat16_rz(x));
            case Mode::rd:
                return to_half ? __half_as_ushort(__float2half_rd(x))
                               : __bfloat16_as_ushort(__float2bfloat16_rd(x));
            case Mode::ru:
                return to_half ? __half_as_ushort(__float2half_ru(x))
                               : __bfloat16_as_ushort(__float2bfloat16_ru(x));
        }
        return 0;
    }
};
struct Bfloat16ToFloat {
    __device__ std::uint32_t operator()(std::uint16_t bits) const {
        return __float_as_uint(__bfloat162float(__ushort_as_bfloat16(bits)));
    }
};
// hexp, hlog and hsqrt of a half, in 16 bits, and the exact values in double.
enum class MathFunction { exp, log, sqrt };
struct HalfMath {
    MathFunction function;
    __device__ std::uint32_t operator()(std::uint16_t bits) const {
        const __half x = __ushort_as_half(bits);
        switch (function) {
            case MathFunction::exp: return __half_as_ushort(hexp(x));
            case MathFunction::log: return __half_as_ushort(hlog(x));
            case MathFunction::sqrt: return __half_as_ushort(hsqrt(x));
        }
        return 0;
    }
};
double exact(MathFunction function, double x) {
    switch (function) {
        case MathFunction::exp: return std::exp(x);
        case MathFunction::log: return std::log(x);
        case MathFunction::sqrt: return std::sqrt(x);
    }
    return 0;
}

// ---- spot checks: an expression in a kernel, and the bits sm_90 gives for it --------------------------
__device__ __half h(float x) { return __float2half(x); }
__device__ __nv_bfloat16 bf(float x) { return __float2bfloat16(x); }
__device__ __half h_bits(unsigned short bits) { return __ushort_as_half(bits); }
__device__ __nv_bfloat16 bf_bits(unsigned short bits) { return __ushort_as_bfloat16(bits); }
__device__ unsigned bits(__half x) { return __half_as_ushort(x); }
__device__ unsigned bits(__nv_bfloat16 x) { return __bfloat16_as_ushort(x); }
__device__ __half2 h2(float low, float high) { return __floats2half2_rn(low, high); }

// X(expression, what sm_90 gives). 0x7e00, 0xfe00, 0x7e01 and 0x7c01 are half NaNs, 0x7fc1 a
// bfloat16 NaN; 0x7fff is the NaN that every operation returns.
#define SPOT_CHECKS(X)                                                                              \
    /* arithmetic rounds once, to nearest even */                                                   \
    X(bits(__hadd(h(2048), h(1))), 0x6800)            /* 2049 ties to even: 2048 */                 \
    X(bits(__hadd(h(2048), h(3))), 0x6802)            /* 2051 ties to even: 2052 */                 \
    X(bits(__hadd(h(65504), h(16))), 0x7c00)          /* 65520, the midpoint to 65536: infinity */  \
    X(bits(__hsub(h(-0.0f), h(0))), 0x8000)           /* -0 - +0 = -0 */                            \
    X(bits(__hmul(h(0x1p-14f), h(0x1p-10f))), 0x0001) /* the smallest subnormal */                  \
    X(bits(__hmul(h(0x1p-14f), h(0x1p-11f))), 0x0000) /* half of it ties to 0 */                    \
    X(bits(__hmul(h_bits(0x7c00), h(0))), 0x7fff)     /* infinity * 0 */                            \
    X(bits(__hdiv(h(1), h(3))), 0x3555)                                                             \
    X(bits(__hdiv(h(1), h(0))), 0x7c00)                                                             \
    X(bits(__hdiv(h(-0.0f), h(0))), 0x7fff)                                                         \
    /* 1.001953125 * 1.4970703125 + 1024 = 1025.49999...: 1025, where rounding to float first gives \
       1025.5, which ties to 1026 */                                                                \
    X(bits(__hfma(h_bits(0x3c02), h_bits(0x3dfd), h(1024))), 0x6401)                                \
    X(bits(__hadd(bf(256), bf(1))), 0x4380)             /* bfloat16: 257 ties to even: 256 */       \
    X(bits(__hadd(bf(256), bf(3))), 0x4382)             /* 259 ties to even: 260 */                 \
    X(bits(__hmul(bf(0x1p-126f), bf(0x1p-7f))), 0x0001) /* bfloat16's smallest subnormal */         \
    X(bits(__hdiv(bf(1), bf(3))), 0x3eab)                                                           \
    /* max and min: -0 < +0, a NaN loses (with _nan it wins), two NaNs give NaN */                  \
    X(bits(__hmax(h(-0.0f), h(0))), 0x0000)                                                         \
    X(bits(__hmin(h(0), h(-0.0f))), 0x8000)                                                         \
    X(bits(__hmax(h_bits(0x7e01), h(1))), 0x3c00)                                                   \
    X(bits(__hmax_nan(h_bits(0x7e01), h(1))), 0x7fff)                                               \
    X(bits(__hmin(h_bits(0xfe00), h_bits(0x7c01))), 0x7fff)                                         \
    X(bits(__hmin(bf_bits(0x7fc1), bf(-1))), 0xbf80)                                                \
    /* _sat clamps to [+0, 1] (NaN to +0), _relu negatives to +0 */                                 \
    X(bits(__hadd_sat(h(0.75f), h(0.5f))), 0x3c00)                                                  \
    X(bits(__hsub_sat(h(0), h(1))), 0x0000)                                                         \
    X(bits(__hmul_sat(h_bits(0x7e00), h(1))), 0x0000)                                               \
    X(bits(__hfma_relu(h(-1), h(1), h(0.5f))), 0x0000)                                              \
    X(bits(__hfma_relu(h(1), h(1), h(0.5f))), 0x3e00)                                               \
    /* negation and absolute value make the canonical NaN too */                                    \
    X(bits(__hneg(h_bits(0xfe00))), 0x7fff)                                                         \
    X(bits(__hneg(bf_bits(0x7fc1))), 0x7fff)                                                        \
    X(bits(__habs(h(-2))), 0x4000)                                                                  \
    X(bits(-h(2)), 0xc000)                                                                          \
    /* comparisons: NaN is unordered, -0 == +0, and != is the unordered "not equal" */              \
    X(__heq(h_bits(0x7e00), h_bits(0x7e00)), false)                                                 \
    X(__hneu(h_bits(0x7e00), h_bits(0x7e00)), true)                                                 \
    X(h_bits(0x7e00) != h_bits(0x7e00), true)                                                       \
    X(__heq(h(0), h(-0.0f)), true)                                                                  \
    X(__hlt(h(-0.0f), h(0)), false)                                                                 \
    X(__hisinf(h_bits(0xfc00)), -1)                                                                 \
    X(__hisnan(h_bits(0x7c01)), true)                                                               \
    /* pairs: lane by lane; a comparison gives 1.0 or 0.0 per lane, or a 0xffff mask */             \
    X(__heq2_mask(h2(1, 2), h2(1, 3)), 0x0000ffff)                                                  \
    X(bits(__high2half(__hle2(h2(1, 2), h2(1, 3)))), 0x3c00)                                        \
    X(__hbeq2(h2(1, 2), h2(1, 3)), false)                                                           \
    X(bits(__high2half(__hmul2(h2(1, 3), h2(2, 5)))), 0x4b80) /* 15 */                              \
    /* (1 + 2i)(3 + 4i) + (5 + 6i) = 0 + 16i */                                                     \
    X(bits(__low2half(__hcmadd(h2(1, 2), h2(3, 4), h2(5, 6)))), 0x0000)                             \
    X(bits(__high2half(__hcmadd(h2(1, 2), h2(3, 4), h2(5, 6)))), 0x4c00)                            \
    /* math functions, correctly rounded */                                                         \
    X(bits(hsqrt(h(2))), 0x3da8)                                                                    \
    X(bits(hexp(h(1))), 0x4170)                                                                     \
    X(bits(hexp(bf(1))), 0x402e)                                                                    \
    X(bits(hrcp(h(3))), 0x3555)                                                                     \
    X(bits(hlog(h(0))), 0xfc00)                                                                     \
    X(bits(hsqrt(h(-1))), 0x7fff)                                                                   \
    X(bits(hrint(h(2.5f))), 0x4000)                                                                 \
    X(bits(hrint(h(3.5f))), 0x4400)                                                                 \
    X(bits(htrunc(h(-0.5f))), 0x8000)                                                               \
    X(bits(hfloor(h(-0.5f))), 0xbc00)                                                               \
    /* conversions from double round once, not through float (which would tie to 1.0) */            \
    X(bits(__double2half(1.0 + 0x1p-11 + 0x1p-40)), 0x3c01)                                         \
    X(bits(__double2bfloat16(1.0 + 0x1p-8 + 0x1p-40)), 0x3f81)                                      \
    X(bits(__nv_bfloat16(h(65504))), 0x4780) /* 65504 rounds to 65536 in bfloat16 */                \
    X(bits(__half(bf(70000))), 0x7c00)       /* beyond half's range */                              \
    /* to integers: saturating, NaN to 0, or to 0x8000000000000000 in 64 bits */                    \
    X(__half2int_rn(h(2.5f)), 2)                                                                    \
    X(__half2int_rn(h(-2.5f)), -2)                                                                  \
    X(__half2int_rn(h(3.5f)), 4)                                                                    \
    X(__half2int_rd(h(-0.5f)), -1)                                                                  \
    X(__half2int_ru(h(0.25f)), 1)                                                                   \
    X(__half2short_rz(h(65504)), 32767)                                                             \
    X(__half2ushort_rn(h(-1)), 0)                                                                   \
    X(__half2char_rz(h(-300)), -128)                                                                \
    X(__half2uint_rn(h_bits(0x7c00)), 0xffffffffu)                                                  \
    X(__half2int_rn(h_bits(0x7e00)), 0)                                                             \
    X(__half2ll_rn(h_bits(0x7e00)), 0x8000000000000000ull)                                          \
    X(__half2ull_rz(h_bits(0x7e00)), 0x8000000000000000ull)                                         \
    X(__bfloat162int_rn(bf(-2.5f)), -2)                                                             \
    /* from integers */                                                                             \
    X(bits(__int2half_rn(2049)), 0x6800)                                                            \
    X(bits(__int2half_rn(65520)), 0x7c00)                                                           \
    X(bits(__int2half_rz(100000)), 0x7bff) /* toward zero, overflow stops at 65504 */               \
    X(bits(__uint2half_ru(2049)), 0x6801)                                                           \
    X(bits(__ll2half_rd(-2049)), 0xe801)                                                            \
    X(bits(__short2half_rn(-32768)), 0xf800)                                                        \
    X(bits(__ull2half_rn(~0ull)), 0x7c00)                                                           \
    X(bits(__ull2bfloat16_rn(~0ull)), 0x5f80)                    /* 2^64 */                         \
    X(bits(__ll2bfloat16_rn(-0x7fffffffffffffffll - 1)), 0xdf00) /* -2^63 */

__global__ void spot_checks(unsigned long long* out) {
    int i = 0;
#define COMPUTE(expression, expected) out[i++] = static_cast<unsigned long long>(expression);
    SPOT_CHECKS(COMPUTE)
#undef COMPUTE
}

// Every lane's sum over the warp, by butterfly shuffles: exact sums, whatever the order.
__global__ void warp_sums(float* out) {
    const int lane = static_cast<int>(threadIdx.x);
    __half half_sum = __int2half_rn(lane + 1);                                         // 1 + ... + 32 = 528
    __half2 pair_sum = __halves2half2(__int2half_rn(lane), __int2half_rn(-2 * lane));  // 496 and -992
    __nv_bfloat16 bfloat16_sum = __int2bfloat16_rn(lane % 4 + 1);  // 8 * (1 + 2 + 3 + 4) = 80
    for (int offset = 16; offset > 0; offset /= 2) {
        half_sum = __hadd(half_sum, __shfl_xor_sync(0xffffffffu, half_sum, offset));
        pair_sum = __hadd2(pair_sum, __shfl_xor_sync(0xffffffffu, pair_sum, offset));
        bfloat16_sum = bfloat16_sum + __shfl_xor_sync(0xffffffffu, bfloat16_sum, offset);
    }
    out[4 * lane] = __half2float(half_sum);
    out[4 * lane + 1] = __low2float(pair_sum);
    out[4 * lane + 2] = __high2float(pair_sum);
    out[4 * lane + 3] = __bfloat162float(bfloat16_sum);
}

__global__ void add_ones(__half* half_sum, __half2* pair_sum, __nv_bfloat16* bfloat16_sum,
                         __nv_bfloat162* bfloat16_pair_sum) {
    atomicAdd(half_sum, __float2half(1.0f));
    atomicAdd(pair_sum, __floats2half2_rn(1.0f, 0.5f));
    atomicAdd(bfloat16_sum, __float2bfloat16(1.0f));
    atomicAdd(bfloat16_pair_sum, __floats2bfloat162_rn(1.0f, 0.25f));
}

template <class T>
void set_to_zero(DeviceBuffer<T>& buffer) {
    warpdrill::check_cuda(cudaMemset(buffer.data(), 0, buffer.size() * sizeof(T)));
}
std::uint16_t bits_on_host(__half x) { return std::bit_cast<std::uint16_t>(x); }
std::uint16_t bits_on_host(__nv_bfloat16 x) { return std::bit_cast<std::uint16_t>(x); }

// One input rounded to 16 bits in each mode.
struct Rounded {
    std::uint32_t nearest, toward_zero, down, up;
};
// Rounds each input to `format` in the four modes on the device. A NaN must
// give the canonical NaN 0x7fff in every mode; each number is handed to
// check(x, rounded).
template <class Check>
void check_roundings(Format format, const std::vector<float>& inputs, Check check) {
    std::vector<std::uint32_t> modes[4];
    for (const Mode mode : {Mode::rn, Mode::rz, Mode::rd, Mode::ru}) {
        modes[static_cast<int>(mode)] = on_device(RoundFloat{format, mode}, inputs);
    }
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        const float x = inputs[i];
        CAPTURE(x, std::bit_cast<std::uint32_t>(x));
        const Rounded rounded{modes[0][i], modes[1][i], modes[2][i], modes[3][i]};
        if (std::isnan(x)) {
            for (const std::uint32_t bits :
                 {rounded.nearest, rounded.toward_zero, rounded.down, rounded.up}) {
                CHECK(bits == 0x7fffu);
            }
        } else {
            check(x, rounded);
        }
    }
}

}  // namespace

TEST_CASE("every half converts to float exactly and back unchanged; NaN becomes the canonical NaN",
          "[half]") {
    const std::vector<std::uint16_t> patterns = every_pattern();
    const std::vector<std::uint32_t> as_float = on_device(HalfToFloat{}, patterns);
    const std::vector<std::uint32_t> back = on_device(HalfThroughFloat{}, patterns);
    int nans = 0;
    for (const std::uint16_t bits : patterns) {
        CAPTURE(bits);
        if (is_half_nan(bits)) {
            ++nans;
            CHECK(as_float[bits] == 0x7fffffffu);  // sm_90's cvt.f32.f16 keeps no payload
            CHECK(back[bits] == 0x7fffu);
        } else {
            CHECK(as_float[bits] == std::bit_cast<std::uint32_t>(half_value(bits)));
            CHECK(back[bits] == bits);
        }
    }
    CHECK(nans == 2 * 1023);
}

TEST_CASE("float to half rounds as GCC's _Float16 (to nearest even) and each directed mode to its side",
          "[half]") {
    const std::vector<float> inputs = conversion_inputs(half_value);
    check_roundings(Format::half, inputs, [](float x, const Rounded& r) {
        CHECK(r.nearest == std::bit_cast<std::uint16_t>(static_cast<_Float16>(x)));
        const Bracket bracket = half_bracket(x);
        CHECK(r.down == bracket.below);
        CHECK(r.up == bracket.above);
        CHECK(r.toward_zero == (x > 0 ? bracket.below : bracket.above));
    });
    // The edges, by hand: ties go to even, half's largest number is 65504.
    const auto half_of = [](float x) {
        return on_device(RoundFloat{Format::half, Mode::rn}, std::vector<float>{x})[0];
    };
    CHECK(half_of(65519.99f) == 0x7bffu);
    CHECK(half_of(65520.0f) == 0x7c00u);  // the midpoint to 65536 ties to "even" infinity
    CHECK(half_of(0x1p-25f) == 0x0000u);  // half the smallest subnormal: ties to 0
    CHECK(half_of(0x1.000002p-25f) == 0x0001u);
    CHECK(half_of(-0x1.8p-24f) == 0x8002u);  // 1.5 subnormals: ties to 2
    CHECK(half_of(2049.0f) == 0x6800u);      // 2048
    CHECK(half_of(2051.0f) == 0x6802u);      // 2052
}

TEST_CASE("bfloat16 is float's upper half: it widens by a shift and narrows as float's bits round",
          "[half]") {
    const std::vector<std::uint16_t> patterns = every_pattern();
    const std::vector<std::uint32_t> widened = on_device(Bfloat16ToFloat{}, patterns);
    for (const std::uint16_t bits : patterns) CHECK(widened[bits] == std::uint32_t{bits} << 16);

    const auto bfloat16_value = [](std::uint16_t bits) {
        return std::bit_cast<float>(std::uint32_t{bits} << 16);
    };
    const std::vector<float> inputs = conversion_inputs(bfloat16_value);
    check_roundings(Format::bfloat16, inputs, [](float x, const Rounded& r) {
        CHECK(r.nearest == bfloat16_nearest_even(x));
        CHECK(r.toward_zero == bfloat16_toward_zero(x));
        CHECK(r.down == (x < 0 ? bfloat16_away_from_zero(x) : bfloat16_toward_zero(x)));
        CHECK(r.up == (x > 0 ? bfloat16_away_from_zero(x) : bfloat16_toward_zero(x)));
    });
}

TEST_CASE("hexp, hlog and hsqrt of every half are the exact values rounded once, as GCC rounds them",
          "[half]") {
    const std::vector<std::uint16_t> patterns = every_pattern();
    for (const MathFunction function : {MathFunction::exp, MathFunction::log, MathFunction::sqrt}) {
        CAPTURE(static_cast<int>(function));
        const std::vector<std::uint32_t> results = on_device(HalfMath{function}, patterns);
        for (const std::uint16_t bits : patterns) {
            CAPTURE(bits);
            const double value = exact(function, static_cast<double>(half_value(bits)));
            if (std::isnan(value)) {
                CHECK(results[bits] == 0x7fffu);
            } else {
                CHECK(results[bits] == std::bit_cast<std::uint16_t>(static_cast<_Float16>(value)));
            }
        }
    }
}

TEST_CASE("arithmetic, comparisons and conversions where ties, NaNs and signed zeros matter", "[half]") {
    struct Check {
        const char* expression;
        unsigned long long expected;
    };
#define LIST(expression, expected) Check{#expression, static_cast<unsigned long long>(expected)},
    const std::vector<Check> checks = {SPOT_CHECKS(LIST)};
#undef LIST
    DeviceBuffer<unsigned long long> out(checks.size());
    launch(spot_checks, {1, 1}, out.data());
    check_launch();
    const std::vector<unsigned long long> results = out.download();
    for (std::size_t i = 0; i < checks.size(); ++i) {
        CAPTURE(checks[i].expression);
        CHECK(results[i] == checks[i].expected);
    }
}

TEST_CASE("a warp sums halves, pairs of halves and bfloat16s with __shfl_xor_sync", "[half]") {
    DeviceBuffer<float> out(4 * 32);
    launch(warp_sums, {1, 32}, out.data());
    check_launch();
    const std::vector<float> sums = out.download();
    for (int lane = 0; lane < 32; ++lane) {
        CAPTURE(lane);
        CHECK(sums[4 * lane] == 528.0f);
        CHECK(sums[4 * lane + 1] == 496.0f);
        CHECK(sums[4 * lane + 2] == -992.0f);
        CHECK(sums[4 * lane + 3] == 80.0f);
    }
}

TEST_CASE("atomicAdd on halves and bfloat16s rounds each addition as __hadd does", "[half]") {
    DeviceBuffer<__half> half_sum(1);
    DeviceBuffer<__half2> pair_sum(1);
    DeviceBuffer<__nv_bfloat16> bfloat16_sum(1);
    DeviceBuffer<__nv_bfloat162> bfloat16_pair_sum(1);
    set_to_zero(half_sum);
    set_to_zero(pair_sum);
    set_to_zero(bfloat16_sum);
    set_to_zero(bfloat16_pair_sum);
    launch(add_ones, {4, 256}, half_sum.data(), pair_sum.data(), bfloat16_sum.data(),
           bfloat16_pair_sum.data());
    check_launch();
    // 1024 additions: exact in half; bfloat16 has 8 significant bits, so 256 + 1 ties back to 256 and
    // 64 + 0.25 to 64, and there the sums stop, whatever the order of the additions.
    CHECK(half_value(bits_on_host(half_sum.download()[0])) == 1024.0f);
    const __half2 pair = pair_sum.download()[0];
    CHECK(half_value(bits_on_host(__low2half(pair))) == 1024.0f);
    CHECK(half_value(bits_on_host(__high2half(pair))) == 512.0f);
    CHECK(bits_on_host(bfloat16_sum.download()[0]) == 0x4380);  // 256
    const __nv_bfloat162 bfloat16_pair = bfloat16_pair_sum.download()[0];
    CHECK(bits_on_host(__low2bfloat16(bfloat16_pair)) == 0x4380);   // 256
    CHECK(bits_on_host(__high2bfloat16(bfloat16_pair)) == 0x4280);  // 64
}
