// class: an atomicAdd into an accumulator nothing set to zero
// expect: uninitialized atomic or volatile read|cudaMemset an accumulator first
#include <cstdio>

__global__ void sum(const float* in, float* total, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(total, in[i]);
}

int main() {
    constexpr int n = 1024;
    float *in, *total;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&total, sizeof(float));  // no cudaMemset(total, 0, ...)
    cudaMemset(in, 0, n * sizeof(float));
    sum<<<4, 256>>>(in, total, n);
    float result = 0;
    cudaMemcpy(&result, total, sizeof result, cudaMemcpyDeviceToHost);
    std::printf("%g\n", result);
    cudaFree(in);
    cudaFree(total);
}
