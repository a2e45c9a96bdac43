// What a cooperative launch with clusters of 4 gets on a GPU: each block
// prints how many blocks its cluster has. Run it alone, then under Nsight
// Compute, whose tables (scripts/ncu-table.sh) hold lesson 12's launch:
//   nvcc -arch=sm_90 -o probe cpu-cuda/tests/gpu/cooperative_clusters_probe.cu
//   ./probe && ncu --metrics launch__cluster_dim_x ./probe
// results/README.md keeps what an H100 printed.
#include <cooperative_groups.h>

#include <cstdio>

namespace cg = cooperative_groups;

constexpr unsigned kBlocks = 8;
constexpr unsigned kClusterBlocks = 4;

__global__ void cluster_shape(unsigned* blocks_in_cluster) {
    const cg::cluster_group cluster = cg::this_cluster();
    if (threadIdx.x == 0) blocks_in_cluster[blockIdx.x] = cluster.num_blocks();
    cg::this_grid().sync();
}

int main() {
    unsigned* blocks_in_cluster = nullptr;
    cudaMalloc(&blocks_in_cluster, kBlocks * sizeof(unsigned));
    cudaLaunchAttribute attributes[2] = {};
    attributes[0].id = cudaLaunchAttributeClusterDimension;
    attributes[0].val.clusterDim.x = kClusterBlocks;
    attributes[0].val.clusterDim.y = 1;
    attributes[0].val.clusterDim.z = 1;
    attributes[1].id = cudaLaunchAttributeCooperative;
    attributes[1].val.cooperative = 1;
    const cudaLaunchConfig_t config = {dim3(kBlocks), dim3(256), 0, nullptr, attributes, 2};
    const cudaError_t launched = cudaLaunchKernelEx(&config, cluster_shape, blocks_in_cluster);
    const cudaError_t finished = cudaDeviceSynchronize();
    unsigned seen[kBlocks] = {};
    cudaMemcpy(seen, blocks_in_cluster, sizeof seen, cudaMemcpyDeviceToHost);
    std::printf("cooperative launch, clusters of %u asked: launch %s, run %s; blocks in each block's cluster:",
                kClusterBlocks, cudaGetErrorString(launched), cudaGetErrorString(finished));
    for (unsigned b = 0; b < kBlocks; ++b) std::printf(" %u", seen[b]);
    std::printf("\n");
    return launched == cudaSuccess && finished == cudaSuccess ? 0 : 1;
}
