// A pre-CUDA-9 shuffle without a mask. nvcc rejects it for sm_70 and later;
// the CPU backend must reject it at compile time too.
#include "warpdrill/cuda.h"

__global__ void legacy(float* out) { out[threadIdx.x] = __shfl_down(out[threadIdx.x], 1); }
