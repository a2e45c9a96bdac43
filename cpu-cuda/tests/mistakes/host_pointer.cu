// class: a host array's pointer given to a kernel
// expect: in host memory: the kernel's argument in points to pageable host memory
#include <cstdio>
#include <vector>

__global__ void copy(const float* in, float* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i];
}

int main() {
    constexpr int n = 256;
    std::vector<float> host(n, 1.0f);
    float *in, *out;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    cudaMemcpy(in, host.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    copy<<<1, n>>>(host.data(), out, n);  // host.data(), where in was meant
    std::printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    cudaFree(in);
    cudaFree(out);
}
