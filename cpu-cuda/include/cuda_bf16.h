// <cuda_bf16.h> on the CPU backend: __nv_bfloat16 and __nv_bfloat162, their
// conversions, arithmetic, comparisons, math functions and atomicAdd,
// computing what an H100 computes, bit for bit (warpdrill/cpu/half_precision.h
// says how), with <cuda_fp16.h>'s exceptions. As CUDA's, it includes
// <cuda_fp16.h>.
#pragma once

#include "cuda_fp16.h"
#include "warpdrill/cpu/half_precision.h"

struct alignas(2) __nv_bfloat16_raw {
    unsigned short x;
};
struct alignas(4) __nv_bfloat162_raw {
    unsigned short x;
    unsigned short y;
};

struct alignas(2) __nv_bfloat16
    : warpdrill::cpu::half_precision::Scalar<warpdrill::cpu::half_precision::bfloat16, __nv_bfloat16_raw> {
    using Scalar::Scalar;
};
struct alignas(4) __nv_bfloat162 : warpdrill::cpu::half_precision::Pair<__nv_bfloat16, __nv_bfloat162_raw> {
    using Pair::Pair;
};

WARPDRILL_HALF_PRECISION_API(__nv_bfloat16, __nv_bfloat162, bfloat16, bfloat162)

using nv_bfloat16 = __nv_bfloat16;
using nv_bfloat162 = __nv_bfloat162;

#define CUDART_INF_BF16 __ushort_as_bfloat16((unsigned short)0x7F80U)
#define CUDART_NAN_BF16 __ushort_as_bfloat16((unsigned short)0x7FFFU)
#define CUDART_MIN_DENORM_BF16 __ushort_as_bfloat16((unsigned short)0x0001U)
#define CUDART_MAX_NORMAL_BF16 __ushort_as_bfloat16((unsigned short)0x7F7FU)
#define CUDART_NEG_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x8000U)
#define CUDART_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x0000U)
#define CUDART_ONE_BF16 __ushort_as_bfloat16((unsigned short)0x3F80U)
