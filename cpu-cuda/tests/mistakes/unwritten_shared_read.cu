// class: a read of shared memory that no thread wrote (threads past n skip their store)
// expect: which no thread of the block has written
#include <cstdio>

__global__ void block_sum(const float* in, float* out, int n) {
    __shared__ float cache[256];
    if (threadIdx.x < n) cache[threadIdx.x] = in[threadIdx.x];  // threads past n write nothing
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) cache[threadIdx.x] += cache[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) *out = cache[0];
}

int main() {
    float *in, *out;
    cudaMalloc(&in, 200 * sizeof(float));
    cudaMalloc(&out, sizeof(float));
    cudaMemset(in, 0, 200 * sizeof(float));
    block_sum<<<1, 256>>>(in, out, 200);
    std::printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    cudaFree(in);
    cudaFree(out);
}
