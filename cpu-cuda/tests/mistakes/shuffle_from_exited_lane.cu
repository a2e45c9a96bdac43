// class: a shuffle whose full mask names lanes that have returned
// expect: which has returned from the kernel|Threads may only read data from another thread which is actively participating
#include <cstdio>

__global__ void warp_sum(const float* in, float* out, int n) {
    const int i = threadIdx.x;
    if (i >= n) return;  // lanes past n leave the kernel
    float value = in[i];
    for (int offset = 16; offset > 0; offset /= 2) value += __shfl_down_sync(0xffffffffu, value, offset);
    if (i == 0) *out = value;
}

int main() {
    float *in, *out;
    cudaMalloc(&in, 32 * sizeof(float));
    cudaMalloc(&out, sizeof(float));
    cudaMemset(in, 0, 32 * sizeof(float));
    warp_sum<<<1, 32>>>(in, out, 20);
    std::printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    cudaFree(in);
    cudaFree(out);
}
