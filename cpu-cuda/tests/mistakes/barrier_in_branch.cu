// class: a __syncthreads() that only some threads of the block reach
// expect: wait at __syncthreads()|every thread of a block must reach
#include <cstdio>

__global__ void half_sync(float* out) {
    __shared__ float cache[64];
    cache[threadIdx.x] = threadIdx.x;
    if (threadIdx.x < 32) {
        __syncthreads();  // warp 1 never arrives
        out[threadIdx.x] = cache[63 - threadIdx.x];
    }
}

int main() {
    float* out;
    cudaMalloc(&out, 64 * sizeof(float));
    half_sync<<<1, 64>>>(out);
    std::printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    cudaFree(out);
}
