// <math.h> for programs the CPU backend compiles: what libstdc++'s <math.h>
// gives C++17 (the standard library's math, each name in the global
// namespace too), which is what nvcc compiles by default. The backend
// compiles every program as C++20, where libstdc++'s <math.h> also puts
// std::lerp there; a program that defines its own lerp(float, float, float),
// as CUDA code often does (llm.c's AdamW), would then not compile here where
// nvcc compiles it.
// No #pragma once: a C header's include_next may pass through here first.
#if !defined __cplusplus || defined _GLIBCXX_INCLUDE_NEXT_C_HEADERS
#include_next <math.h>
#elif !defined _GLIBCXX_MATH_H
#define _GLIBCXX_MATH_H 1  // libstdc++'s guard: its own <math.h> stays out
#include <cmath>

using std::abs;
using std::acos, std::asin, std::atan, std::atan2, std::cos, std::sin, std::tan;
using std::ceil, std::floor, std::fmod, std::remainder, std::remquo, std::trunc, std::round, std::lround,
    std::llround, std::rint, std::lrint, std::llrint, std::nearbyint;
using std::cosh, std::sinh, std::tanh, std::acosh, std::asinh, std::atanh;
using std::double_t, std::float_t;
using std::erf, std::erfc, std::lgamma, std::tgamma;
using std::exp, std::exp2, std::expm1, std::frexp, std::ldexp, std::ilogb, std::scalbln, std::scalbn;
using std::fabs, std::fdim, std::fma, std::fmax, std::fmin, std::copysign, std::nextafter, std::nexttoward;
using std::fpclassify, std::isfinite, std::isinf, std::isnan, std::isnormal, std::signbit;
using std::isgreater, std::isgreaterequal, std::isless, std::islessequal, std::islessgreater,
    std::isunordered;
using std::log, std::log10, std::log1p, std::log2, std::logb;
using std::modf, std::pow, std::sqrt, std::cbrt, std::hypot;
#if _GLIBCXX_USE_STD_SPEC_FUNCS
using std::assoc_laguerre, std::assoc_laguerref, std::assoc_laguerrel;
using std::assoc_legendre, std::assoc_legendref, std::assoc_legendrel;
using std::beta, std::betaf, std::betal;
using std::comp_ellint_1, std::comp_ellint_1f, std::comp_ellint_1l;
using std::comp_ellint_2, std::comp_ellint_2f, std::comp_ellint_2l;
using std::comp_ellint_3, std::comp_ellint_3f, std::comp_ellint_3l;
using std::cyl_bessel_i, std::cyl_bessel_if, std::cyl_bessel_il;
using std::cyl_bessel_j, std::cyl_bessel_jf, std::cyl_bessel_jl;
using std::cyl_bessel_k, std::cyl_bessel_kf, std::cyl_bessel_kl;
using std::cyl_neumann, std::cyl_neumannf, std::cyl_neumannl;
using std::ellint_1, std::ellint_1f, std::ellint_1l;
using std::ellint_2, std::ellint_2f, std::ellint_2l;
using std::ellint_3, std::ellint_3f, std::ellint_3l;
using std::expint, std::expintf, std::expintl;
using std::hermite, std::hermitef, std::hermitel;
using std::laguerre, std::laguerref, std::laguerrel;
using std::legendre, std::legendref, std::legendrel;
using std::riemann_zeta, std::riemann_zetaf, std::riemann_zetal;
using std::sph_bessel, std::sph_besself, std::sph_bessell;
using std::sph_legendre, std::sph_legendref, std::sph_legendrel;
using std::sph_neumann, std::sph_neumannf, std::sph_neumannl;
#endif

#endif
