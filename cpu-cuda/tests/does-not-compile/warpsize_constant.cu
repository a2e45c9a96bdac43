// warpSize is not a constant expression: nvcc rejects an array sized by it
// ("a variable length array cannot have static storage duration"), and so
// must the CPU backend.
#include <cuda_runtime.h>

__global__ void warp_sums(float* out) {
    __shared__ float sums[warpSize];
    sums[threadIdx.x % 32] = 1.0f;
    out[threadIdx.x] = sums[0];
}
