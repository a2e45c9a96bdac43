// The parts of CUDA's runtime API and warp intrinsics that public reduction
// code uses beyond the course's own: __match_any_sync and __match_all_sync,
// pinned host memory, a kernel's attributes (more than 48 KB of dynamic
// shared memory), the device's properties and the occupancy calls, and
// cudaLaunchKernel with the kernel cast to void*, as NVIDIA's samples write
// it, and managed memory. The expected values and error codes are an H100's,
// measured by cpu-cuda/tests/gpu/runtime_probe.cu (results/runtime-probe-h100.txt;
// managed memory's are an H200's, results/runtime-probe-h200.txt). This file
// compiles with nvcc too; what only the CPU backend can show is guarded.
#include <cooperative_groups.h>

#include <cstdint>
#include <cstdlib>
#include <limits>
#include <source_location>
#include <string>
#include <vector>

#include "warpdrill/catch.h"
#include "warpdrill/cuda.h"
#include "warpdrill/host.h"
#if defined(WARPDRILL_BACKEND_CPU)
#include "fault_of.h"
#endif

using warpdrill::check_cuda;
using warpdrill::DeviceBuffer;

namespace {

constexpr int kOptInBytes = 232448;  // sharedMemPerBlockOptin: 227 KB
constexpr unsigned kFullMask = 0xffffffffu;

// ---- __match_any_sync, __match_all_sync -----------------------------------------------

// Lane l holds values[l]; each lane writes what both matches return.
template <class T>
__global__ void match_lanes(const T* values, unsigned* any, unsigned* all, int* pred) {
    const unsigned lane = threadIdx.x;
    any[lane] = __match_any_sync(kFullMask, values[lane]);
    all[lane] = __match_all_sync(kFullMask, values[lane], &pred[lane]);
}

// Only the lower half of the warp calls, with a mask of those lanes.
__global__ void match_lower_half(const int* values, unsigned* any) {
    const unsigned lane = threadIdx.x;
    if (lane < 16) any[lane] = __match_any_sync(0x0000ffffu, values[lane]);
}

struct Matches {
    std::vector<unsigned> any, all;
    std::vector<int> pred;
};

template <class T>
Matches match_on_gpu(const std::vector<T>& values) {
    DeviceBuffer<T> in(values);
    DeviceBuffer<unsigned> any(32), all(32);
    DeviceBuffer<int> pred(32);
    match_lanes<<<1, 32>>>(in.data(), any.data(), all.data(), pred.data());
    check_cuda(cudaGetLastError());
    return {any.download(), all.download(), pred.download()};
}

// The lanes whose value equals lane l's, bit for bit.
template <class T>
unsigned same_as(const std::vector<T>& values, unsigned l) {
    unsigned lanes = 0;
    for (unsigned k = 0; k < 32; ++k) {
        if (values[k] == values[l]) lanes |= 1u << k;
    }
    return lanes;
}

// Three classes of lanes (lane % 3), then one value for every lane.
template <class T>
void check_matches() {
    std::vector<T> values(32);
    for (unsigned l = 0; l < 32; ++l) values[l] = static_cast<T>(l % 3) * T(7) + T(1);
    Matches got = match_on_gpu(values);
    for (unsigned l = 0; l < 32; ++l) {
        INFO("lane " << l);
        CHECK(got.any[l] == same_as(values, l));
        CHECK(got.all[l] == 0u);
        CHECK(got.pred[l] == 0);
    }
    got = match_on_gpu(std::vector<T>(32, T(5)));
    for (unsigned l = 0; l < 32; ++l) {
        CHECK(got.any[l] == kFullMask);
        CHECK(got.all[l] == kFullMask);
        CHECK(got.pred[l] == 1);
    }
}

// ---- kernel attributes: dynamic shared memory past 48 KB ---------------------------------

// Each thread writes its share of every word of the dynamic shared memory;
// thread 0 then adds them all up. Two kernels, so that one never has its
// attribute set whatever order the tests run in.
__device__ void sum_dynamic_shared(unsigned words, unsigned long long* sum) {
    extern __shared__ unsigned shared_words[];
    for (unsigned w = threadIdx.x; w < words; w += blockDim.x) shared_words[w] = w;
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned long long total = 0;
        for (unsigned w = 0; w < words; ++w) total += shared_words[w];
        *sum = total;
    }
}
__global__ void sum_shared_without_attribute(unsigned words, unsigned long long* sum) {
    sum_dynamic_shared(words, sum);
}
__global__ void sum_shared_opted_in(unsigned words, unsigned long long* sum) {
    sum_dynamic_shared(words, sum);
}

// The launch error of a launch asking `bytes` of dynamic shared memory, or the
// sum of all the words it wrote into them.
template <class Kernel>
cudaError_t launch_shared_sum(Kernel kernel, int bytes, unsigned long long* sum) {
    DeviceBuffer<unsigned long long> out(1);
    out.poison();
    const unsigned words = static_cast<unsigned>(bytes) / sizeof(unsigned);
    kernel<<<1, 256, bytes>>>(words, out.data());
    const cudaError_t launched = cudaGetLastError();
    check_cuda(cudaDeviceSynchronize());
    *sum = out.download().front();
    return launched;
}

unsigned long long sum_below(unsigned long long words) { return words * (words - 1) / 2; }

// ---- cudaLaunchKernel ------------------------------------------------------------------

__global__ void add_to(int* values, int amount, int n) {
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i < n) values[i] += amount;
}

// Needs a cooperative launch: the grid barrier faults (CPU backend) or hangs
// (GPU) without one.
__global__ void count_blocks_after_grid_sync(int* arrivals, int* seen) {
    if (threadIdx.x == 0) atomicAdd(arrivals, 1);
    cooperative_groups::this_grid().sync();
    if (threadIdx.x == 0) seen[blockIdx.x] = atomicAdd(arrivals, 0);
}

}  // namespace

TEST_CASE("__match_any_sync and __match_all_sync over each type CUDA has them for", "[runtime-api][match]") {
    check_matches<int>();
    check_matches<unsigned>();
    check_matches<long>();
    check_matches<unsigned long>();
    check_matches<long long>();
    check_matches<unsigned long long>();
    check_matches<float>();
    check_matches<double>();
}

TEST_CASE("__match_any_sync compares bits: -0.0 and +0.0 differ, a NaN matches itself",
          "[runtime-api][match]") {
    std::vector<float> values(32, 1.0f);
    values[0] = -0.0f;
    values[1] = 0.0f;
    values[2] = values[3] = std::numeric_limits<float>::quiet_NaN();
    const Matches got = match_on_gpu(values);
    CHECK(got.any[0] == 0x1u);
    CHECK(got.any[1] == 0x2u);
    CHECK(got.any[2] == 0xcu);
    CHECK(got.any[4] == 0xfffffff0u);
}

TEST_CASE("__match_any_sync with a mask of half the warp matches within the mask", "[runtime-api][match]") {
    std::vector<int> values(32, 9);
    for (int l = 0; l < 8; ++l) values[l] = 4;
    DeviceBuffer<int> in(values);
    DeviceBuffer<unsigned> any(32);
    warpdrill::poison(any);  // the lanes outside the mask write nothing
    match_lower_half<<<1, 32>>>(in.data(), any.data());
    const std::vector<unsigned> got = any.download();
    CHECK(got[0] == 0x00ffu);
    CHECK(got[15] == 0xff00u);
}

TEST_CASE("pinned memory: cudaMallocHost, cudaHostAlloc, cudaHostGetDevicePointer, cudaFreeHost",
          "[runtime-api][pinned]") {
    int* pinned = nullptr;
    check_cuda(cudaMallocHost(&pinned, 64 * sizeof(int)));
    REQUIRE(pinned != nullptr);
    for (int i = 0; i < 64; ++i) pinned[i] = i;

    SECTION("a kernel reads and writes it through its device address, the same one") {
        void* device_address = nullptr;
        check_cuda(cudaHostGetDevicePointer(&device_address, pinned, 0));
        CHECK(device_address == pinned);
        add_to<<<1, 64>>>(static_cast<int*>(device_address), 100, 64);
        check_cuda(cudaDeviceSynchronize());
        CHECK(pinned[0] == 100);
        CHECK(pinned[63] == 163);
    }
    SECTION("copies to and from device memory") {
        DeviceBuffer<int> device(64);
        check_cuda(cudaMemcpy(device.data(), pinned, 64 * sizeof(int), cudaMemcpyHostToDevice));
        add_to<<<1, 64>>>(device.data(), 1, 64);
        check_cuda(cudaMemcpy(pinned, device.data(), 64 * sizeof(int), cudaMemcpyDeviceToHost));
        CHECK(pinned[10] == 11);
    }
    SECTION("what is not pinned memory, or not its start, is refused with CUDA's errors") {
        void* pageable = std::malloc(64);
        void* mapped = nullptr;
        CHECK(cudaHostGetDevicePointer(&mapped, pageable, 0) == cudaErrorInvalidValue);
        CHECK(cudaHostGetDevicePointer(&mapped, pinned, 1) == cudaErrorInvalidValue);
        CHECK(cudaFreeHost(pageable) == cudaErrorInvalidValue);
        CHECK(cudaFreeHost(pinned + 4) == cudaErrorInvalidValue);
        CHECK(cudaGetLastError() == cudaErrorInvalidValue);
        CHECK(cudaFree(pinned) == cudaErrorInvalidValue);
        DeviceBuffer<int> device(4);
        CHECK(cudaFreeHost(device.data()) == cudaErrorInvalidValue);
        CHECK(cudaFreeHost(nullptr) == cudaSuccess);
        cudaGetLastError();
        std::free(pageable);
    }
    check_cuda(cudaFreeHost(pinned));
    CHECK(cudaFreeHost(pinned) == cudaErrorInvalidValue);  // freed already
    cudaGetLastError();
}

TEST_CASE("cudaFree refuses what cudaMalloc did not return, or freed before, with CUDA's error",
          "[runtime-api][free]") {
    void* pageable = std::malloc(64);
    CHECK(cudaFree(pageable) == cudaErrorInvalidValue);
    std::free(pageable);
    char* device = nullptr;
    check_cuda(cudaMalloc(&device, 1024));
    CHECK(cudaFree(device + 16) == cudaErrorInvalidValue);
    check_cuda(cudaFree(device));
    CHECK(cudaFree(device) == cudaErrorInvalidValue);  // a double free
    CHECK(cudaGetLastError() == cudaErrorInvalidValue);
}

TEST_CASE("cudaHostAlloc takes the flags CUDA has, and no others", "[runtime-api][pinned]") {
    // Numbers under nvcc (#defines), unsigned constants here.
    const unsigned all_flags[] = {cudaHostAllocDefault, cudaHostAllocPortable, cudaHostAllocMapped,
                                  cudaHostAllocWriteCombined, 7u};
    for (unsigned flags : all_flags) {
        void* memory = nullptr;
        CHECK(cudaHostAlloc(&memory, 256, flags) == cudaSuccess);
        CHECK(memory != nullptr);
        check_cuda(cudaFreeHost(memory));
    }
    void* memory = nullptr;
    CHECK(cudaHostAlloc(&memory, 256, 8) == cudaErrorInvalidValue);
    CHECK(cudaGetLastError() == cudaErrorInvalidValue);
    CHECK(cudaHostAlloc(&memory, 0, cudaHostAllocDefault) == cudaSuccess);
    CHECK(memory == nullptr);
}

TEST_CASE("managed memory: zeros at first, one address for the host and the kernels, freed by cudaFree",
          "[runtime-api][managed]") {
    int* managed = nullptr;
    check_cuda(cudaMallocManaged(&managed, 64 * sizeof(int)));
    REQUIRE(managed != nullptr);
    CHECK(managed[0] == 0);
    CHECK(managed[63] == 0);
    add_to<<<1, 64>>>(managed, 5, 64);  // reads bytes no one wrote: initcheck has no word on managed memory
    check_cuda(cudaDeviceSynchronize());
    CHECK(managed[63] == 5);
    for (int i = 0; i < 64; ++i) managed[i] = i;
    add_to<<<1, 64>>>(managed, 100, 64);
    check_cuda(cudaDeviceSynchronize());
    CHECK(managed[10] == 110);
    std::vector<int> copy(64);
    check_cuda(cudaMemcpy(copy.data(), managed, 64 * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(copy[63] == 163);
    CHECK(cudaFreeHost(managed) == cudaErrorInvalidValue);
    CHECK(cudaFree(managed + 1) == cudaErrorInvalidValue);
    check_cuda(cudaFree(managed));
    CHECK(cudaFree(managed) == cudaErrorInvalidValue);  // a double free
    cudaGetLastError();
}

TEST_CASE("cudaMallocManaged takes global or host attachment, and no other flags", "[runtime-api][managed]") {
    const unsigned taken[] = {cudaMemAttachGlobal, cudaMemAttachHost};
    for (unsigned flags : taken) {
        void* memory = nullptr;
        CHECK(cudaMallocManaged(&memory, 256, flags) == cudaSuccess);
        CHECK(memory != nullptr);
        check_cuda(cudaFree(memory));
    }
    // cudaMemAttachSingle is for cudaStreamAttachMemAsync, not the allocation.
    const unsigned refused[] = {0u, 3u, cudaMemAttachSingle};
    for (unsigned flags : refused) {
        void* memory = nullptr;
        CHECK(cudaMallocManaged(&memory, 256, flags) == cudaErrorInvalidValue);
    }
    CHECK(cudaGetLastError() == cudaErrorInvalidValue);
    CHECK(cudaMallocManaged(static_cast<void**>(nullptr), 256) == cudaErrorInvalidValue);
    cudaGetLastError();
    int unused = 0;
    void* memory = &unused;
    CHECK(cudaMallocManaged(&memory, 0) == cudaSuccess);
    CHECK(memory == nullptr);
}

#if defined(WARPDRILL_BACKEND_CPU)
TEST_CASE("an asynchronous copy into pinned memory returns before it runs, as a GPU's copy engine does",
          "[runtime-api][pinned]") {
    DeviceBuffer<int> device(std::vector<int>(16, 7));
    int* pinned = nullptr;
    check_cuda(cudaMallocHost(&pinned, 16 * sizeof(int)));
    pinned[0] = -1;
    cudaStream_t stream = nullptr;
    check_cuda(cudaStreamCreate(&stream));
    const std::uint64_t waits = warpdrill::cpu::host_waits();
    check_cuda(cudaMemcpyAsync(pinned, device.data(), 16 * sizeof(int), cudaMemcpyDeviceToHost, stream));
    CHECK(warpdrill::cpu::host_waits() == waits);  // into pageable memory, the host would have waited
    CHECK(pinned[0] == -1);
    check_cuda(cudaStreamSynchronize(stream));
    CHECK(pinned[0] == 7);
    check_cuda(cudaStreamDestroy(stream));
    check_cuda(cudaFreeHost(pinned));
}
#endif

TEST_CASE("more than 48 KB of dynamic shared memory needs the kernel's attribute, up to 227 KB",
          "[runtime-api][attributes]") {
    unsigned long long sum = 0;
    CHECK(launch_shared_sum(sum_shared_without_attribute, 48 * 1024, &sum) == cudaSuccess);
    CHECK(sum == sum_below(48 * 1024 / 4));
    CHECK(launch_shared_sum(sum_shared_without_attribute, 48 * 1024 + 4, &sum) == cudaErrorInvalidValue);

    CHECK(cudaFuncSetAttribute(sum_shared_opted_in, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               kOptInBytes + 1) == cudaErrorInvalidValue);
    CHECK(cudaGetLastError() == cudaErrorInvalidValue);
    check_cuda(
        cudaFuncSetAttribute(sum_shared_opted_in, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024));
    CHECK(launch_shared_sum(sum_shared_opted_in, 64 * 1024, &sum) == cudaSuccess);
    CHECK(sum == sum_below(64 * 1024 / 4));
    CHECK(launch_shared_sum(sum_shared_opted_in, 64 * 1024 + 4, &sum) == cudaErrorInvalidValue);

    check_cuda(
        cudaFuncSetAttribute(sum_shared_opted_in, cudaFuncAttributeMaxDynamicSharedMemorySize, kOptInBytes));
    CHECK(launch_shared_sum(sum_shared_opted_in, kOptInBytes, &sum) == cudaSuccess);
    CHECK(sum == sum_below(kOptInBytes / 4));
    CHECK(launch_shared_sum(sum_shared_opted_in, kOptInBytes + 4, &sum) == cudaErrorInvalidValue);
    // The other kernel still has the default.
    CHECK(launch_shared_sum(sum_shared_without_attribute, 64 * 1024, &sum) == cudaErrorInvalidValue);
}

TEST_CASE("cudaFuncGetAttributes tells a kernel's attributes; the carveout takes -1 to 100",
          "[runtime-api][attributes]") {
    cudaFuncAttributes attributes{};
    check_cuda(cudaFuncGetAttributes(&attributes, add_to));
    CHECK(attributes.maxDynamicSharedSizeBytes == 48 * 1024);
    CHECK(attributes.preferredShmemCarveout == -1);
    CHECK(attributes.maxThreadsPerBlock == 1024);
    for (int carveout : {101, -2}) {
        CHECK(cudaFuncSetAttribute(add_to, cudaFuncAttributePreferredSharedMemoryCarveout, carveout) ==
              cudaErrorInvalidValue);
    }
    cudaGetLastError();
    check_cuda(cudaFuncSetAttribute(add_to, cudaFuncAttributePreferredSharedMemoryCarveout, 50));
    check_cuda(cudaFuncGetAttributes(&attributes, reinterpret_cast<const void*>(add_to)));
    CHECK(attributes.preferredShmemCarveout == 50);
    check_cuda(cudaFuncSetAttribute(add_to, cudaFuncAttributePreferredSharedMemoryCarveout,
                                    cudaSharedmemCarveoutDefault));
}

TEST_CASE("the device's properties and attributes agree", "[runtime-api][device]") {
    cudaDeviceProp prop{};
    check_cuda(cudaGetDeviceProperties(&prop, 0));
    const auto attribute = [](cudaDeviceAttr which) {
        int value = -1;
        check_cuda(cudaDeviceGetAttribute(&value, which, 0));
        return value;
    };
    CHECK(attribute(cudaDevAttrMaxSharedMemoryPerBlock) == static_cast<int>(prop.sharedMemPerBlock));
    CHECK(attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin) ==
          static_cast<int>(prop.sharedMemPerBlockOptin));
    CHECK(attribute(cudaDevAttrMaxSharedMemoryPerMultiprocessor) ==
          static_cast<int>(prop.sharedMemPerMultiprocessor));
    CHECK(attribute(cudaDevAttrMaxRegistersPerBlock) == prop.regsPerBlock);
    CHECK(attribute(cudaDevAttrWarpSize) == prop.warpSize);
    CHECK(attribute(cudaDevAttrMaxThreadsPerBlock) == prop.maxThreadsPerBlock);
    CHECK(attribute(cudaDevAttrMaxGridDimX) == prop.maxGridSize[0]);
    CHECK(attribute(cudaDevAttrMaxGridDimY) == prop.maxGridSize[1]);
    CHECK(attribute(cudaDevAttrMaxBlockDimZ) == prop.maxThreadsDim[2]);
    CHECK(attribute(cudaDevAttrL2CacheSize) == prop.l2CacheSize);
    CHECK(attribute(cudaDevAttrGlobalMemoryBusWidth) == prop.memoryBusWidth);
    CHECK(attribute(cudaDevAttrMultiProcessorCount) == prop.multiProcessorCount);
    CHECK(attribute(cudaDevAttrComputeCapabilityMajor) == prop.major);
    CHECK(attribute(cudaDevAttrCooperativeLaunch) == prop.cooperativeLaunch);
    CHECK(attribute(cudaDevAttrClockRate) > 0);
    CHECK(attribute(cudaDevAttrMemoryClockRate) > 0);
}

#if defined(WARPDRILL_BACKEND_CPU)
TEST_CASE("the device's properties are an H100's, but for its multiprocessors", "[runtime-api][device]") {
    cudaDeviceProp prop{};
    check_cuda(cudaGetDeviceProperties(&prop, 0));
    CHECK(prop.sharedMemPerBlock == 49152);
    CHECK(prop.sharedMemPerBlockOptin == 232448);
    CHECK(prop.sharedMemPerMultiprocessor == 233472);
    CHECK(prop.reservedSharedMemPerBlock == 1024);
    CHECK(prop.regsPerBlock == 65536);
    CHECK(prop.regsPerMultiprocessor == 65536);
    CHECK(prop.warpSize == 32);
    CHECK(prop.maxThreadsPerBlock == 1024);
    CHECK(prop.maxThreadsPerMultiProcessor == 2048);
    CHECK(prop.maxBlocksPerMultiProcessor == 32);
    CHECK(
        (prop.maxGridSize[0] == 2147483647 && prop.maxGridSize[1] == 65535 && prop.maxGridSize[2] == 65535));
    CHECK((prop.major == 9 && prop.minor == 0));
    CHECK(prop.l2CacheSize == 52428800);
    CHECK(prop.memoryBusWidth == 5120);
    CHECK((prop.cooperativeLaunch == 1 && prop.clusterLaunch == 1 && prop.unifiedAddressing == 1));
    int clock_khz = 0, memory_clock_khz = 0;
    check_cuda(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
    check_cuda(cudaDeviceGetAttribute(&memory_clock_khz, cudaDevAttrMemoryClockRate, 0));
    CHECK(clock_khz == 1980000);
    CHECK(memory_clock_khz == 2619000);
    warpdrill::cpu::set_multiprocessor_count(132);
    check_cuda(cudaGetDeviceProperties(&prop, 0));
    CHECK(prop.multiProcessorCount == 132);
    warpdrill::cpu::set_multiprocessor_count(0);
}
#endif

TEST_CASE(
    "cudaOccupancyMaxPotentialBlockSize: the block that keeps an SM busiest, the grid that fills the GPU",
    "[runtime-api][occupancy]") {
    cudaDeviceProp prop{};
    check_cuda(cudaGetDeviceProperties(&prop, 0));
    int min_grid = 0, block = 0, per_sm = 0;
    check_cuda(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, add_to));
    check_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, add_to, block, 0));
    CHECK(min_grid == per_sm * prop.multiProcessorCount);
    CHECK(block == 1024);
    // 8 KB a block and at most 200 threads: 16 blocks of 128 fill an SM's 2048 threads.
    check_cuda(cudaOccupancyMaxPotentialBlockSizeWithFlags(&min_grid, &block, add_to, 8192, 200,
                                                           cudaOccupancyDefault));
    CHECK(block == 128);
    CHECK(min_grid == 16 * prop.multiProcessorCount);
    check_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&per_sm, add_to, 256, 0,
                                                                      cudaOccupancyDisableCachingOverride));
    CHECK(per_sm == 8);
}

TEST_CASE("cudaLaunchKernel takes the kernel itself or cast to void*, as NVIDIA's samples write it",
          "[runtime-api][launch]") {
    const int n = 40;
    DeviceBuffer<int> values(std::vector<int>(n, 0));
    int* data = values.data();
    int amount = 1;
    int count = n;
    void* args[] = {&data, &amount, &count};
    const dim3 grid(2), block(32);
    check_cuda(cudaLaunchKernel(add_to, grid, block, args, 0, nullptr));
    check_cuda(cudaLaunchKernel((void*)add_to, grid, block, args, 0, nullptr));
    check_cuda(cudaLaunchKernel((const void*)add_to, grid, block, args));
    check_cuda(cudaLaunchKernel(reinterpret_cast<void*>(add_to), grid, block, args, 0, nullptr));
    // Over several lines: the lines after it keep their numbers.
    check_cuda(cudaLaunchKernel(reinterpret_cast<const void*>(add_to), grid, block, args, 0, nullptr));
    CHECK(std::source_location::current().line() == __LINE__);
    std::vector<int> got = values.download();
    CHECK(got[0] == 5);
    CHECK(got[n - 1] == 5);

    SECTION("cudaLaunchCooperativeKernel too, and the launch is cooperative") {
        DeviceBuffer<int> arrivals(std::vector<int>{0}), seen(2);
        int* arrivals_data = arrivals.data();
        int* seen_data = seen.data();
        void* cooperative_args[] = {&arrivals_data, &seen_data};
        check_cuda(cudaLaunchCooperativeKernel((void*)count_blocks_after_grid_sync, grid, block,
                                               cooperative_args, 0, nullptr));
        check_cuda(cudaDeviceSynchronize());
        CHECK(seen.download() == std::vector<int>{2, 2});
    }
}

#if defined(WARPDRILL_BACKEND_CPU)
namespace {
__global__ void match_leaving_out_lane_3(const int* values, unsigned* any) {
    any[threadIdx.x] = __match_any_sync(0xfffffff7u, values[threadIdx.x]);
}
}  // namespace

TEST_CASE("a match whose mask leaves out the calling lane is named at its line", "[runtime-api][match]") {
    DeviceBuffer<int> in(std::vector<int>(32, 1));
    DeviceBuffer<unsigned> any(32);
    const std::string message = warpdrill::testing::fault_of([&] {
        match_leaving_out_lane_3<<<1, 32>>>(in.data(), any.data());
        check_cuda(cudaDeviceSynchronize());
    });
    INFO(message);
    CHECK(warpdrill::testing::contains(message, "__match_any_sync() at cpu-cuda/tests/runtime_api.cu:"));
    CHECK(warpdrill::testing::contains(message, "leaves out the calling lane 3"));
}
#endif
