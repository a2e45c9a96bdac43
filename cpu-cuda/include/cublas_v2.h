// <cublas_v2.h> on the CPU backend: the part of cuBLAS's API that
// reduction code and llm.c's kernels call (cublas_api.h lists it).
#pragma once

#include "cublas_api.h"
