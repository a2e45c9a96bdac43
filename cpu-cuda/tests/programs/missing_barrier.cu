// A CUDA program with a learner's classic mistake: the tree sum has no
// __syncthreads() between its steps, so a thread reads a partial sum that
// another may not have written yet (a race, which racecheck reports on a
// GPU). `warpdrill run` on the CPU backend names it and stops the program
// (tests/runner/cc_run.sh). Like many a sample, it leaves <cuda_runtime.h>
// to nvcc, which includes it in every .cu file.
#include <cstdio>

__global__ void block_sum(const float* in, float* out) {
    __shared__ float partial[256];
    partial[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    }
    if (threadIdx.x == 0) *out = partial[0];
}

int main() {
    float host[256];
    for (float& value : host) value = 1.0f;
    float *in = nullptr, *out = nullptr;
    cudaMalloc(&in, sizeof host);
    cudaMalloc(&out, sizeof(float));
    cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
    block_sum<<<1, 256>>>(in, out);
    float sum = 0.0f;
    cudaMemcpy(&sum, out, sizeof sum, cudaMemcpyDeviceToHost);
    std::printf("sum %.1f (256 expected)\n", sum);
    return sum == 256.0f ? 0 : 1;
}
