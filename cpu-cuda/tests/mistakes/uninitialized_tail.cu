// class: a read of global memory that no copy wrote (a copy of the wrong size)
// expect: uninitialized read of 4 bytes|has never been written
#include <cstdio>
#include <vector>

__global__ void twice(const float* in, float* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 2 * in[i];
}

int main() {
    constexpr int n = 1024;
    std::vector<float> host(n, 1.0f);
    float *in, *out;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    cudaMemcpy(in, host.data(), n, cudaMemcpyHostToDevice);  // n bytes, not n floats
    twice<<<4, 256>>>(in, out, n);
    cudaMemcpy(host.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost);
    std::printf("%g\n", host[n - 1]);
    cudaFree(in);
    cudaFree(out);
}
