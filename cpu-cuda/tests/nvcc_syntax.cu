// nvcc's own syntax on the CPU backend, as cudacc (cpu-cuda/front) compiles
// it: kernel<<<...>>>(...) with CUDA's conversions and default arguments,
// extern __shared__ arrays of any type, __constant__ and __device__
// variables in device memory (cudaMemcpyToSymbol, a last-block ticket), and
// CUDA's overloads of the math functions, assert() in a kernel, and host
// code's own variables, parameters and members named as the built-ins.
#undef NDEBUG  // the build's RelWithDebInfo defines it: here assert() is tested
#include <cassert>
#include <cmath>
#include <cstdint>
#include <vector>

#include <cuda.h>
#include <math_constants.h>

#include "fault_of.h"
#include "warpdrill/catch.h"
#include "warpdrill/cuda.h"
#include "warpdrill/host.h"

using warpdrill::check_cuda;
using warpdrill::DeviceBuffer;
using warpdrill::testing::contains;
using warpdrill::testing::fault_of;

namespace {

__constant__ float scale_by;
__constant__ int offsets[4] = {1, 2, 3, 4};
__device__ unsigned blocks_done = 0;
__device__ float block_sums[64];
__device__ int small_table[4];

template <class T>
__global__ void scaled_copy(const T* in, T* out, int n, const T* bias = NULL) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * scale_by + (bias ? bias[i] : T(0)) + offsets[i % 4];
}

// Each block stages its slice in dynamic shared memory of type T, backwards.
// (__shared__ may follow the type, as NVIDIA's samples write it.)
template <class T>
__global__ void reverse_each_block(const T* in, T* out) {
    extern T __shared__ staged[];
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    staged[blockDim.x - 1 - threadIdx.x] = in[i];
    __syncthreads();
    out[i] = staged[threadIdx.x];
}

// __shared__ arrays aligned as NVIDIA's samples align them, the alignment
// after __shared__: each block reads its tile back as float4, and says
// whether both arrays are 16-byte aligned.
__global__ void read_back_as_float4(const float* in, float* out, int* aligned) {
    __shared__ alignas(16) float tile[64];
    static __shared__ __align__(16) float copy[64];
    tile[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    if (threadIdx.x < 16)
        reinterpret_cast<float4*>(copy)[threadIdx.x] = reinterpret_cast<const float4*>(tile)[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = copy[threadIdx.x];
    if (threadIdx.x == 0)
        *aligned = reinterpret_cast<std::uintptr_t>(tile) % 16 == 0 &&
                   reinterpret_cast<std::uintptr_t>(copy) % 16 == 0;
}

// One launch sums the grid: the last block to take a ticket adds the block
// sums, in block order (lesson 10's pattern, with the ticket a __device__ variable).
__global__ void sum_with_ticket(const float* in, float* total) {
    extern __shared__ __align__(16) unsigned char bytes[];
    float* cache = reinterpret_cast<float*>(bytes);
    cache[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) cache[threadIdx.x] += cache[threadIdx.x + stride];
        __syncthreads();
    }
    __shared__ bool last;
    if (threadIdx.x == 0) {
        block_sums[blockIdx.x] = cache[0];
        __threadfence();
        last = atomicAdd(&blocks_done, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (last && threadIdx.x == 0) {
        float sum = 0.0f;
        for (unsigned b = 0; b < gridDim.x; ++b) sum += block_sums[b];
        *total = sum;
        blocks_done = 0;
    }
}

__global__ void write_past_table(int index) {
    int* table = small_table;
    table[index] = 1;
}

__global__ void device_math(const float* in, float* out) {
    const float x = in[threadIdx.x];
    out[threadIdx.x] = abs(x) + max(x, 0.0f) + min(2u, 3);  // abs of a float is a float, as in CUDA
}

// A block's maximum, from CUDART_INF_F's negative; a negative input traps.
__global__ void block_max_or_trap(const float* in, float* out) {
#if CUDA_VERSION >= 12000 && CUDART_VERSION >= 12000  // as code that needs a recent CUDA tests it
    __shared__ float largest;
    if (threadIdx.x == 0) largest = -CUDART_INF_F;
    __syncthreads();
    if (in[threadIdx.x] < 0.0f) __trap();
    atomicMax(reinterpret_cast<int*>(&largest), __float_as_int(in[threadIdx.x]));  // non-negative floats
    __syncthreads();
    if (threadIdx.x == 0) *out = largest;
#endif
}

// Host code may name its own things gridDim or blockDim, as nvcc lets it
// (llm.c's matmul_forward does): a kernel still reads the built-ins.
__global__ void record_launch_shape(unsigned* shape) {
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        shape[0] = gridDim.x;
        shape[1] = blockDim.x;
    }
}
struct LaunchShape {
    dim3 gridDim;
    dim3 blockDim;
    unsigned threads() const { return gridDim.x * blockDim.x; }  // the members
};
void launch_with_names(unsigned* shape, dim3 blockDim) {
    dim3 gridDim(3);
    record_launch_shape<<<gridDim, blockDim>>>(shape);
}

// What literal zeros as a launch's arguments became: a null pointer where
// the kernel takes a pointer, zero elsewhere, and int for a template.
__global__ void record_zeros(const float* maybe, int n, float scale, int* seen) {
    seen[0] = maybe == nullptr;
    seen[1] = n;
    seen[2] = static_cast<int>(scale);
}
template <class T>
__global__ void record_size(T value, int* seen) {
    seen[3] = static_cast<int>(sizeof(T)) + value;
}

// Names that host functions have, in device code that nvcc takes: a lambda
// of the same name in the kernel, and a __device__ overload beside the host
// one. cudacc refuses only a call that can mean the host function alone
// (does-not-compile/host_function_from_device.cu).
float offset_by(float x) { return x + 1000.0f; }
float halve(int x) { return static_cast<float>(x) / 2.0f; }
__device__ float halve(float x) { return x / 2.0f; }

__global__ void names_of_host_functions(float* out) {
    const auto offset_by = [](float x) { return x + 1.0f; };
    out[threadIdx.x] = offset_by(halve(out[threadIdx.x]));
}

}  // namespace

TEST_CASE("kernel<<<>>>: a template deduced from the arguments, NULL for a pointer, a default argument",
          "[nvcc-syntax]") {
    const float scale = 2.0f;
    check_cuda(cudaMemcpyToSymbol(scale_by, &scale, sizeof scale));
    const int n = 37;
    std::vector<float> host(n);
    for (int i = 0; i < n; ++i) host[i] = 0.5f * static_cast<float>(i);
    DeviceBuffer<float> in(host), out(n), bias(std::vector<float>(n, 100.0f));
    out.poison();

    scaled_copy<<<(n + 15) / 16, 16>>>(in.data(), out.data(), n);
    check_cuda(cudaGetLastError());
    std::vector<float> got = out.download();
    for (int i = 0; i < n; ++i) CHECK(got[i] == 2.0f * host[i] + static_cast<float>(i % 4 + 1));

    scaled_copy<<<dim3((n + 15) / 16), dim3(16), 0, nullptr>>>(in.data(), out.data(), n, bias.data());
    got = out.download();
    for (int i = 0; i < n; ++i) CHECK(got[i] == 2.0f * host[i] + 100.0f + static_cast<float>(i % 4 + 1));

    // NULL, not a default: the kernel named with its template argument, as
    // C++ deduces nothing from NULL.
    out.poison();
    scaled_copy<float><<<(n + 15) / 16, 16>>>(in.data(), out.data(), n, NULL);
    got = out.download();
    for (int i = 0; i < n; ++i) CHECK(got[i] == 2.0f * host[i] + static_cast<float>(i % 4 + 1));

    float read_back = 0.0f;
    check_cuda(cudaMemcpyFromSymbol(&read_back, scale_by, sizeof read_back));
    CHECK(read_back == 2.0f);
}

TEST_CASE("extern __shared__ arrays of any type, sized by the launch", "[nvcc-syntax]") {
    const unsigned block = 64, blocks = 3, n = block * blocks;
    std::vector<double> host(n);
    for (unsigned i = 0; i < n; ++i) host[i] = i;
    DeviceBuffer<double> in(host), out(n);
    reverse_each_block<<<blocks, block, block * sizeof(double)>>>(in.data(), out.data());
    const std::vector<double> got = out.download();
    for (unsigned i = 0; i < n; ++i) CHECK(got[i] == host[i / block * block + block - 1 - i % block]);

    SECTION("reading past the launch's shared bytes is named as such") {
        const std::string message = fault_of([&] {
            reverse_each_block<<<blocks, block, block * sizeof(double) / 2>>>(in.data(), out.data());
        });
        CHECK(contains(message, "the dynamic shared memory, which has 256 bytes"));
    }
}

TEST_CASE("a __shared__ array keeps the alignment written after __shared__ (alignas, __align__)",
          "[nvcc-syntax]") {
    std::vector<float> host(64);
    for (int i = 0; i < 64; ++i) host[i] = static_cast<float>(i);
    DeviceBuffer<float> in(host), out(64);
    DeviceBuffer<int> aligned(1);
    read_back_as_float4<<<1, 64>>>(in.data(), out.data(), aligned.data());
    CHECK(out.download() == host);
    CHECK(aligned.download()[0] == 1);
}

TEST_CASE("a ticket counter kept in a __device__ variable is device memory: no race, the GPU's sum",
          "[nvcc-syntax]") {
    const unsigned block = 128, blocks = 40;
    std::vector<float> host(block * blocks);
    double expected = 0.0;
    for (std::size_t i = 0; i < host.size(); ++i) expected += host[i] = static_cast<float>(i % 7) - 3.0f;
    DeviceBuffer<float> in(host), total(1);
    for (int run = 0; run < 2; ++run) {  // the last block resets the ticket for the next launch
        total.poison();
        sum_with_ticket<<<blocks, block, block * sizeof(float)>>>(in.data(), total.data());
        CHECK(total.download().front() == static_cast<float>(expected));
    }
}

TEST_CASE("CUDA_VERSION, <math_constants.h> and __trap()", "[nvcc-syntax]") {
    DeviceBuffer<float> in(std::vector<float>{0.5f, 3.0f, 2.0f, 0.0f}), out(1);
    block_max_or_trap<<<1, 4>>>(in.data(), out.data());
    CHECK(out.download()[0] == 3.0f);
    DeviceBuffer<float> negative(std::vector<float>{0.5f, -3.0f, 2.0f, 0.0f});
    const std::string message = fault_of([&] { block_max_or_trap<<<1, 4>>>(negative.data(), out.data()); });
    CHECK(contains(message, "thread 1 (warp 0, lane 1): __trap() at cpu-cuda/tests/nvcc_syntax.cu:"));
}

// Each thread asserts that its index is below n.
__global__ void assert_index_below(int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    assert(i < n);
}

TEST_CASE("assert() in a kernel ends the launch, with the line a GPU prints", "[nvcc-syntax]") {
    assert_index_below<<<2, 32>>>(64);
    check_cuda(cudaDeviceSynchronize());
    const std::string message = fault_of([] { assert_index_below<<<2, 32>>>(60); });
    CHECK(contains(message,
                   "in block (1,0,0): thread 28 (warp 0, lane 28): assert(i < n) failed at "
                   "cpu-cuda/tests/nvcc_syntax.cu:"));
    CHECK(contains(message,
                   ": void assert_index_below(int): block: [1,0,0], thread: [28,0,0] Assertion `i < n` "
                   "failed.\" for each thread"));
    CHECK(contains(message, "cudaErrorAssert"));
}

TEST_CASE("a write past a __device__ array names the variable", "[nvcc-syntax]") {
    const std::string message = fault_of([] { write_past_table<<<1, 1>>>(4); });
    CHECK(contains(message, "the __device__ variable small_table of 16 bytes"));
}

TEST_CASE("device math takes CUDA's overloads: abs of a float is a float", "[nvcc-syntax]") {
    DeviceBuffer<float> in(std::vector<float>{-1.5f, 2.25f, -0.0f, -7.75f}), out(4);
    device_math<<<1, 4>>>(in.data(), out.data());
    const std::vector<float> got = out.download();
    CHECK(got == std::vector<float>{1.5f + 0.0f + 2.0f, 2.25f + 2.25f + 2.0f, 0.0f + 0.0f + 2.0f,
                                    7.75f + 0.0f + 2.0f});
}

TEST_CASE("the rounding intrinsics round as their names say, whatever the compiler folds", "[nvcc-syntax]") {
    CHECK(__fadd_rn(1.0f, 1e-9f) == 1.0f);
    CHECK(__fadd_rd(1.0f, 1e-9f) == 1.0f);
    CHECK(__fadd_ru(1.0f, 1e-9f) == std::nextafter(1.0f, 2.0f));
    CHECK(__fadd_rz(-1.0f, -1e-9f) == -1.0f);
    CHECK(__fmul_ru(1.1f, 1.1f) == std::nextafter(__fmul_rd(1.1f, 1.1f), 2.0f));
    CHECK(__fsqrt_rd(2.0f) < __fsqrt_ru(2.0f));
    CHECK(__saturatef(NAN) == 0.0f);
    CHECK(__saturatef(1.5f) == 1.0f);
    CHECK(__saturatef(-0.5f) == 0.0f);
}

TEST_CASE("host code's own variables, parameters and members may be named gridDim and blockDim",
          "[nvcc-syntax]") {
    warpdrill::DeviceBuffer<unsigned> shape(2);
    launch_with_names(shape.data(), dim3(64));
    CHECK(shape.download() == std::vector<unsigned>{3, 64});

    const LaunchShape named{dim3(5), dim3(32)};
    CHECK(named.threads() == 160);
    cudaLaunchConfig_t config = {};
    config.gridDim = named.gridDim;
    config.blockDim = named.blockDim;
    check_cuda(cudaLaunchKernelEx(&config, record_launch_shape, shape.data()));
    CHECK(shape.download() == std::vector<unsigned>{5, 32});
}

TEST_CASE("device code may use a host function's name for a lambda or a __device__ overload",
          "[nvcc-syntax]") {
    DeviceBuffer<float> values(std::vector<float>{2.0f, 5.0f});
    names_of_host_functions<<<1, 2>>>(values.data());
    CHECK(values.download() == std::vector<float>{2.0f, 3.5f});
    CHECK(offset_by(halve(3)) == 1001.5f);  // the host functions, from host code
}

TEST_CASE("kernel<<<>>>: a literal 0 is a null pointer for a pointer, and an int for a template",
          "[nvcc-syntax]") {
    DeviceBuffer<int> seen(4);
    seen.poison();
    record_zeros<<<1, 1>>>(0, 0, 0, seen.data());
    record_size<<<1, 1>>>(0, seen.data());
    CHECK(seen.download() == std::vector<int>{1, 0, 0, 4});
}
