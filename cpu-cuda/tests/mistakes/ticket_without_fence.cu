// class: the last block reads partials without a __threadfence() after the writes
// expect: race on partials[|made no __threadfence()
#include <cstdio>

__global__ void sum_partials(const float* in, float* partials, unsigned* ticket, float* total) {
    __shared__ bool last;
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = in[blockIdx.x];
        // missing: __threadfence();
        last = atomicAdd(ticket, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (last && threadIdx.x == 0) {
        float sum = 0;
        for (unsigned b = 0; b < gridDim.x; ++b) sum += partials[b];
        *total = sum;
    }
}

int main() {
    float *in, *partials, *total;
    unsigned* ticket;
    cudaMalloc(&in, 16 * sizeof(float));
    cudaMalloc(&partials, 16 * sizeof(float));
    cudaMalloc(&total, sizeof(float));
    cudaMalloc(&ticket, sizeof(unsigned));
    cudaMemset(in, 0, 16 * sizeof(float));
    cudaMemset(ticket, 0, sizeof(unsigned));
    sum_partials<<<16, 32>>>(in, partials, ticket, total);
    std::printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    cudaFree(in);
    cudaFree(partials);
    cudaFree(total);
    cudaFree(ticket);
}
