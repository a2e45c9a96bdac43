// class: a pointer into shared memory kept from an earlier launch
// expect: of the dynamic shared memory of an earlier launch's block
#include <cstdio>

__device__ float* staged;  // outlives the launch; the shared memory it points at does not

__global__ void stage(const float* in) {
    extern __shared__ float tile[];
    tile[threadIdx.x] = in[threadIdx.x];
    if (threadIdx.x == 0) staged = tile;
}

__global__ void copy_staged(float* out) { out[threadIdx.x] = staged[threadIdx.x]; }

int main() {
    constexpr int n = 64;
    float *in, *out;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    cudaMemset(in, 0, n * sizeof(float));
    stage<<<1, n, n * sizeof(float)>>>(in);
    copy_staged<<<1, n>>>(out);
    std::printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    cudaFree(in);
    cudaFree(out);
}
