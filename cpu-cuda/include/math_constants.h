// <math_constants.h> on the CPU backend: CUDA's names for the special values
// and constants of float (..._F) and double, as device code uses them
// (CUDART_INF_F as the start of a max, CUDART_PI in a softmax's scale).
#pragma once

#include <limits>
#include <numbers>

// float
#define CUDART_INF_F std::numeric_limits<float>::infinity()
#define CUDART_NAN_F std::numeric_limits<float>::quiet_NaN()
#define CUDART_MIN_DENORM_F std::numeric_limits<float>::denorm_min()
#define CUDART_MAX_NORMAL_F std::numeric_limits<float>::max()
#define CUDART_NORM_HUGE_F 3.402823466e38f
#define CUDART_ZERO_F 0.0f
#define CUDART_ONE_F 1.0f
#define CUDART_SQRT_HALF_F 0.707106781f
#define CUDART_SQRT_TWO_F 1.414213562f
#define CUDART_THIRD_F 0.333333333f
#define CUDART_PIO4_F 0.785398163f
#define CUDART_PIO2_F 1.570796327f
#define CUDART_3PIO4_F 2.356194490f
#define CUDART_2_OVER_PI_F 0.636619772f
#define CUDART_PI_F std::numbers::pi_v<float>
#define CUDART_L2E_F std::numbers::log2e_v<float>
#define CUDART_L2T_F 3.321928094f
#define CUDART_LG2_F 0.301029996f
#define CUDART_LGE_F std::numbers::log10e_v<float>
#define CUDART_LN2_F std::numbers::ln2_v<float>
#define CUDART_LNT_F std::numbers::ln10_v<float>
#define CUDART_LNPI_F 1.144729886f
#define CUDART_TWO_TO_126_F 8.507059173e37f
#define CUDART_TWO_TO_M126_F 1.175494351e-38f

// double
#define CUDART_INF std::numeric_limits<double>::infinity()
#define CUDART_NAN std::numeric_limits<double>::quiet_NaN()
#define CUDART_MIN_DENORM std::numeric_limits<double>::denorm_min()
#define CUDART_ZERO 0.0
#define CUDART_ONE 1.0
#define CUDART_SQRT_TWO std::numbers::sqrt2
#define CUDART_SQRT_HALF (std::numbers::sqrt2 / 2.0)
#define CUDART_THIRD (1.0 / 3.0)
#define CUDART_PI std::numbers::pi
#define CUDART_PIO2 (std::numbers::pi / 2.0)
#define CUDART_PIO4 (std::numbers::pi / 4.0)
#define CUDART_2PI (2.0 * std::numbers::pi)
#define CUDART_L2E std::numbers::log2e
#define CUDART_LN2 std::numbers::ln2
#define CUDART_LNT std::numbers::ln10
#define CUDART_LGE std::numbers::log10e
