// A CUDA program as nvcc takes it, with its own main(): the course's tests
// build it with `warpdrill cc` and `warpdrill run` (tests/runner/cc_run.sh),
// and the GPU build compiles it with nvcc. One launch sums n floats scaled
// by a __constant__: each block reduces its slice in dynamic shared memory,
// and the last block to take a ticket (a __device__ variable) adds the
// block sums in block order. Prints the sum and the float64 reference, then
// CUB's DeviceReduce::Sum of the unscaled input (its two-call protocol).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>

#include <cub/cub.cuh>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace cg = cooperative_groups;

__constant__ float scale;
__device__ unsigned int blocks_done = 0;
__device__ float block_sums[1024];

__device__ float warp_sum(cg::thread_block_tile<32> warp, float value) {
    return cg::reduce(warp, value, cg::plus<float>());
}

template <int kBlock>
__global__ void scaled_sum(const float* in, float* out, int n, const float* offset = NULL) {
    extern __shared__ float warp_sums[];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    const int i = blockIdx.x * kBlock + threadIdx.x;
    float value = i < n ? in[i] * scale + (offset ? *offset : 0.0f) : 0.0f;
    value = warp_sum(warp, value);
    if (warp.thread_rank() == 0) warp_sums[warp.meta_group_rank()] = value;
    block.sync();
    if (threadIdx.x != 0) return;
    float block_total = 0.0f;
    for (int w = 0; w < kBlock / 32; ++w) block_total += warp_sums[w];
    block_sums[blockIdx.x] = block_total;
    __threadfence();  // the sum is visible to every block before the ticket is
    if (atomicAdd(&blocks_done, 1u) != gridDim.x - 1) return;
    float total = 0.0f;
    for (unsigned b = 0; b < gridDim.x; ++b) total += block_sums[b];
    *out = total;
    blocks_done = 0;  // ready for the next launch
}

static void check(cudaError_t error, const char* what) {
    if (error != cudaSuccess) {
        std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(error));
        std::exit(1);
    }
}

int main(int argc, char** argv) {
    const int n = argc > 1 ? std::atoi(argv[1]) : 100000;
    constexpr int kBlock = 256;
    const int blocks = (n + kBlock - 1) / kBlock;
    if (n < 1 || blocks > 1024) {
        std::fprintf(stderr, "n must be 1 to %d\n", 1024 * kBlock);
        return 2;
    }
    std::vector<float> host(n);
    double reference = 0.0;
    for (int i = 0; i < n; ++i) {
        host[i] = static_cast<float>(i % 17) * 0.25f - 2.0f;
        reference += 0.5 * host[i];
    }
    const float half = 0.5f;
    check(cudaMemcpyToSymbol(scale, &half, sizeof half), "cudaMemcpyToSymbol");
    float *in = nullptr, *out = nullptr;
    check(cudaMalloc(&in, n * sizeof(float)), "cudaMalloc");
    check(cudaMalloc(&out, sizeof(float)), "cudaMalloc");
    check(cudaMemcpy(in, host.data(), n * sizeof(float), cudaMemcpyHostToDevice), "cudaMemcpy");
    scaled_sum<kBlock><<<blocks, kBlock, kBlock / 32 * sizeof(float)>>>(in, out, n);
    check(cudaGetLastError(), "launch");
    float sum = 0.0f;
    check(cudaMemcpy(&sum, out, sizeof sum, cudaMemcpyDeviceToHost), "cudaMemcpy");
    std::printf("sum %.4f reference %.4f\n", sum, reference);

    std::size_t temp_bytes = 0;
    check(cub::DeviceReduce::Sum(nullptr, temp_bytes, in, out, n), "cub::DeviceReduce::Sum (sizing)");
    void* temp = nullptr;
    check(cudaMalloc(&temp, temp_bytes), "cudaMalloc");
    check(cub::DeviceReduce::Sum(temp, temp_bytes, in, out, n), "cub::DeviceReduce::Sum");
    float cub_sum = 0.0f;
    check(cudaMemcpy(&cub_sum, out, sizeof cub_sum, cudaMemcpyDeviceToHost), "cudaMemcpy");
    std::printf("cub sum %.4f reference %.4f\n", cub_sum, 2.0 * reference);
    cudaFree(temp);
    cudaFree(in);
    cudaFree(out);
    const bool right = std::fabs(sum - reference) <= 1e-5 * n && std::fabs(cub_sum - 2.0 * reference) <= 2e-5 * n;
    return right ? 0 : 1;
}
