// class: a kernel reads a buffer that cudaFree released
// expect: cudaFree has released (a use after free)
#include <cstdio>

__global__ void copy(const float* in, float* out) { out[threadIdx.x] = in[threadIdx.x]; }

int main() {
    constexpr int n = 64;
    float *in, *out;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    cudaMemset(in, 0, n * sizeof(float));
    cudaFree(in);
    copy<<<1, n>>>(in, out);
    std::printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    cudaFree(out);
}
