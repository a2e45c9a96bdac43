// class: a race on global memory between blocks (+= without an atomic)
// expect: race on total[0]|of block (
#include <cstdio>

__global__ void add_partials(const float* partials, float* total) {
    if (threadIdx.x == 0) *total += partials[blockIdx.x];
}

int main() {
    float *partials, *total;
    cudaMalloc(&partials, 8 * sizeof(float));
    cudaMalloc(&total, sizeof(float));
    cudaMemset(partials, 0, 8 * sizeof(float));
    cudaMemset(total, 0, sizeof(float));
    add_partials<<<8, 32>>>(partials, total);
    std::printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    cudaFree(partials);
    cudaFree(total);
}
