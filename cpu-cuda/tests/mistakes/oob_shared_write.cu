// class: out-of-bounds write to a static __shared__ array
// expect: index 256 is past the end of an array of type 'float [256]'
#include <cstdio>

__global__ void stage(const float* in, float* out) {
    __shared__ float staged[256];
    staged[threadIdx.x + 1] = in[threadIdx.x];  // thread 255 writes staged[256]
    __syncthreads();
    out[threadIdx.x] = staged[threadIdx.x];
}

int main() {
    constexpr int n = 256;
    float *in, *out;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    cudaMemset(in, 0, n * sizeof(float));
    stage<<<1, n>>>(in, out);
    std::printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    cudaFree(in);
    cudaFree(out);
}
