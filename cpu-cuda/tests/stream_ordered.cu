// Stream-ordered allocation: cudaMallocAsync, cudaFreeAsync and each GPU's
// default memory pool. The expected answers are an H200's
// (results/memory-pools-h200.txt). This file compiles with nvcc too: on a GPU
// it holds CUDA to the same answers.
#include <cstdint>
#include <limits>
#include <vector>

#include "handles.h"
#include "warpdrill/catch.h"
#include "warpdrill/cuda.h"
#include "warpdrill/host.h"

using warpdrill::check_cuda;
using warpdrill::testing::Stream;

namespace {

__global__ void set_index(int* data, int n) {
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i < n) data[i] = i;
}

}  // namespace

TEST_CASE("cudaMallocAsync's buffer serves the work queued after it, until cudaFreeAsync",
          "[stream-ordered]") {
    constexpr int n = 256;
    Stream stream(cudaStreamNonBlocking);
    int* data = nullptr;
    check_cuda(cudaMallocAsync(&data, n * sizeof(int), stream));
    REQUIRE(data != nullptr);
    set_index<<<1, n, 0, stream>>>(data, n);
    std::vector<int> host(n, -1);
    check_cuda(cudaMemcpyAsync(host.data(), data, n * sizeof(int), cudaMemcpyDeviceToHost, stream));
    check_cuda(cudaFreeAsync(data, stream));
    check_cuda(cudaStreamSynchronize(stream));
    CHECK(host[0] == 0);
    CHECK(host[n - 1] == n - 1);
}

TEST_CASE("each GPU's default memory pool, and what a program sets of it", "[stream-ordered][pool]") {
    cudaMemPool_t pool = nullptr, current = nullptr;
    check_cuda(cudaDeviceGetDefaultMemPool(&pool, 0));
    check_cuda(cudaDeviceGetMemPool(&current, 0));
    CHECK(pool == current);
    std::uint64_t threshold = 1;
    check_cuda(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
    CHECK(threshold == 0);
    std::uint64_t keep_all = std::numeric_limits<std::uint64_t>::max();
    check_cuda(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep_all));
    check_cuda(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
    CHECK(threshold == keep_all);
    std::uint64_t none = 0;
    check_cuda(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &none));
    int reuse = 0;
    check_cuda(cudaMemPoolGetAttribute(pool, cudaMemPoolReuseAllowOpportunistic, &reuse));
    CHECK(reuse == 1);
    check_cuda(cudaMemPoolTrimTo(pool, 0));

    Stream stream(cudaStreamNonBlocking);
    void* from_pool = nullptr;
    check_cuda(cudaMallocFromPoolAsync(&from_pool, 256, pool, stream));
    CHECK(from_pool != nullptr);
    check_cuda(cudaFreeAsync(from_pool, stream));
    check_cuda(cudaStreamSynchronize(stream));
}

TEST_CASE("stream-ordered allocation of no bytes, and with null pointers", "[stream-ordered]") {
    Stream stream(cudaStreamNonBlocking);
    void* buffer = &buffer;
    CHECK(cudaMallocAsync(&buffer, 0, stream) == cudaSuccess);
    CHECK(buffer == nullptr);
    CHECK(cudaMallocAsync(nullptr, 16, stream) == cudaErrorInvalidValue);
    CHECK(cudaFreeAsync(nullptr, stream) == cudaSuccess);
    check_cuda(cudaStreamSynchronize(stream));
    cudaGetLastError();
}
