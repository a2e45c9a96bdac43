// <cuda_fp16.h> on the CPU backend: __half and __half2, their conversions,
// arithmetic, comparisons, math functions and atomicAdd, computing what an
// H100 computes, bit for bit (warpdrill/cpu/half_precision.h says how). All of
// CUDA's header but htanh_approx and h2tanh_approx (an approximation that no
// formula here reproduces); the shuffles and the cache-hinted loads and stores
// are cuda_runtime.h's, which take any type of up to 8 bytes.
#pragma once

#include "warpdrill/cpu/half_precision.h"

struct alignas(2) __half_raw {
    unsigned short x;
};
struct alignas(4) __half2_raw {
    unsigned short x;
    unsigned short y;
};

struct alignas(2) __half
    : warpdrill::cpu::half_precision::Scalar<warpdrill::cpu::half_precision::binary16, __half_raw> {
    using Scalar::Scalar;
};
struct alignas(4) __half2 : warpdrill::cpu::half_precision::Pair<__half, __half2_raw> {
    using Pair::Pair;
};

WARPDRILL_HALF_PRECISION_API(__half, __half2, half, half2)

using half = __half;
using half2 = __half2;
using __nv_half = __half;
using __nv_half2 = __half2;
using __nv_half_raw = __half_raw;
using __nv_half2_raw = __half2_raw;
using nv_half = __half;
using nv_half2 = __half2;

#define CUDART_INF_FP16 __ushort_as_half((unsigned short)0x7C00U)
#define CUDART_NAN_FP16 __ushort_as_half((unsigned short)0x7FFFU)
#define CUDART_MIN_DENORM_FP16 __ushort_as_half((unsigned short)0x0001U)
#define CUDART_MAX_NORMAL_FP16 __ushort_as_half((unsigned short)0x7BFFU)
#define CUDART_NEG_ZERO_FP16 __ushort_as_half((unsigned short)0x8000U)
#define CUDART_ZERO_FP16 __ushort_as_half((unsigned short)0x0000U)
#define CUDART_ONE_FP16 __ushort_as_half((unsigned short)0x3C00U)
