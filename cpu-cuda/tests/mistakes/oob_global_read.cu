// class: out-of-bounds read of global memory (an index one past the end)
// expect: out-of-bounds read of 4 bytes|the address is in[256]
#include <cstdio>

__global__ void shift_left(const float* in, float* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i + 1];  // the last thread reads in[n]
}

int main() {
    constexpr int n = 256;
    float *in, *out;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    cudaMemset(in, 0, n * sizeof(float));
    shift_left<<<1, n>>>(in, out, n);
    std::printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    cudaFree(in);
    cudaFree(out);
}
