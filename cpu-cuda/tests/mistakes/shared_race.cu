// class: a race on shared memory (no barrier between the tree's steps)
// expect: race on cache[|nothing orders the two
#include <cstdio>

__global__ void block_sum(const float* in, float* out) {
    __shared__ float cache[256];
    cache[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) cache[threadIdx.x] += cache[threadIdx.x + stride];
        // missing: __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = cache[0];
}

int main() {
    float *in, *out;
    cudaMalloc(&in, 1024 * sizeof(float));
    cudaMalloc(&out, 4 * sizeof(float));
    cudaMemset(in, 0, 1024 * sizeof(float));
    block_sum<<<4, 256>>>(in, out);
    std::printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    cudaFree(in);
    cudaFree(out);
}
