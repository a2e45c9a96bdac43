// A program whose host code misuses the runtime API three ways, and ignores
// what each call returns: compute-sanitizer names every one of them on a GPU
// (memcheck's API error reports and, with --leak-check full, the leak), and
// so must the CPU backend. Its kernel is correct.
#include <cstdio>

__global__ void scale(float* data, float factor, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] *= factor;
}

int main() {
    constexpr int n = 256;
    float host[2 * n] = {};
    float* data = nullptr;
    float* kept = nullptr;
    cudaMalloc(&data, n * sizeof(float));
    cudaMalloc(&kept, n * sizeof(float));  // never freed
    cudaMemcpy(data, host, sizeof host, cudaMemcpyHostToDevice);  // twice the buffer's size
    cudaMemset(data, 0, n * sizeof(float));
    scale<<<1, n>>>(data, 2.0f, n);
    cudaDeviceSynchronize();
    cudaFree(data);
    cudaFree(data);  // a second time
    std::printf("finished\n");
    return 0;
}
