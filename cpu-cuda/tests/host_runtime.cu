// The runtime calls around kernels that NVIDIA's samples make: pageable
// memory page-locked with cudaHostRegister, the device's flags and limits,
// stream priorities, host functions queued on a stream, malloc() and free()
// in a kernel, and a __grid_constant__ parameter. The expected answers are an
// H200's, measured by cpu-cuda/tests/gpu/host_runtime_probe.cu
// (results/host-runtime-probe-h200.txt), and NVTX's annotations, which do
// nothing where no tool is attached (results/nvtx-h200.txt). This file
// compiles with nvcc too: on a GPU it holds CUDA to the same answers.
#include <nvtx3/nvToolsExt.h>
#include <nvtx3/nvToolsExtCudaRt.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <thread>
#include <utility>
#include <vector>

#include "warpdrill/catch.h"
#include "warpdrill/cuda.h"
#include "warpdrill/host.h"

using warpdrill::check_cuda;

namespace {

constexpr std::size_t kBytes = 1 << 16;

__global__ void add_one(int* data, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] += 1;
}

// Pageable memory, freed at the end of the scope.
struct Pageable {
    explicit Pageable(std::size_t bytes) : data(static_cast<char*>(std::malloc(bytes))) {}
    ~Pageable() { std::free(data); }
    char* data;
};

}  // namespace

TEST_CASE("cudaHostRegister page-locks a range of pageable memory until cudaHostUnregister",
          "[host-runtime][host-register]") {
    Pageable memory(2 * kBytes);
    char* p = memory.data;
    CHECK(cudaHostRegister(p, kBytes, cudaHostRegisterDefault) == cudaSuccess);
    CHECK(cudaHostRegister(p, kBytes, 0) == cudaErrorHostMemoryAlreadyRegistered);
    CHECK(cudaHostRegister(p + 4096, 4096, 0) == cudaErrorHostMemoryAlreadyRegistered);
    CHECK(cudaHostRegister(p + kBytes - 4096, 8192, 0) == cudaErrorHostMemoryAlreadyRegistered);
    CHECK(cudaHostRegister(p + kBytes, kBytes, cudaHostRegisterMapped) == cudaSuccess);
    CHECK(cudaHostUnregister(p + 4096) == cudaErrorInvalidValue);
    CHECK(cudaHostUnregister(p + kBytes) == cudaSuccess);
    CHECK(cudaHostUnregister(p) == cudaSuccess);
    CHECK(cudaHostUnregister(p) == cudaErrorHostMemoryNotRegistered);
    cudaGetLastError();
}

TEST_CASE("cudaHostRegister refuses I/O memory, unknown flags, and memory that is not pageable",
          "[host-runtime][host-register]") {
    Pageable memory(kBytes);
    CHECK(cudaHostRegister(memory.data, kBytes, cudaHostRegisterIoMemory) == cudaErrorInvalidValue);
    CHECK(cudaHostRegister(memory.data, kBytes, 16) == cudaErrorInvalidValue);
    CHECK(cudaHostRegister(memory.data, 0, 0) == cudaErrorInvalidValue);
    CHECK(cudaHostRegister(nullptr, kBytes, 0) == cudaErrorInvalidValue);
    void* pinned = nullptr;
    void* device = nullptr;
    void* managed = nullptr;
    check_cuda(cudaMallocHost(&pinned, kBytes));
    check_cuda(cudaMalloc(&device, kBytes));
    check_cuda(cudaMallocManaged(&managed, kBytes));
    for (void* p : {pinned, device, managed}) CHECK(cudaHostRegister(p, kBytes, 0) == cudaErrorInvalidValue);
    CHECK(cudaHostUnregister(pinned) == cudaErrorInvalidValue);
    CHECK(cudaHostUnregister(memory.data) == cudaErrorHostMemoryNotRegistered);
    cudaGetLastError();
    check_cuda(cudaFreeHost(pinned));
    check_cuda(cudaFree(device));
    check_cuda(cudaFree(managed));
}

TEST_CASE("registered memory is pinned memory: kernels use it, copies and memsets take it",
          "[host-runtime][host-register]") {
    constexpr int n = 1000;
    std::vector<int> host(n);
    for (int i = 0; i < n; ++i) host[i] = i;
    check_cuda(cudaHostRegister(host.data(), n * sizeof(int), cudaHostRegisterMapped));
    int* device_view = nullptr;
    check_cuda(cudaHostGetDevicePointer(reinterpret_cast<void**>(&device_view), host.data(), 0));
    CHECK(device_view == host.data());
    add_one<<<(n + 255) / 256, 256>>>(device_view, n);
    check_cuda(cudaDeviceSynchronize());
    CHECK(host[0] == 1);
    CHECK(host[n - 1] == n);
    int* device = nullptr;
    check_cuda(cudaMalloc(&device, n * sizeof(int)));
    CHECK(cudaMemcpy(device, host.data(), n * sizeof(int), cudaMemcpyDeviceToDevice) == cudaSuccess);
    CHECK(cudaMemset(host.data(), 0, n * sizeof(int)) == cudaSuccess);
    CHECK(host[5] == 0);
    check_cuda(cudaHostUnregister(host.data()));
    // Pageable again: a kind that calls it device memory is refused.
    CHECK(cudaMemcpy(device, host.data(), n * sizeof(int), cudaMemcpyDeviceToDevice) ==
          cudaErrorInvalidValue);
    cudaGetLastError();
    check_cuda(cudaFree(device));
}

TEST_CASE("the device's flags: one scheduling choice, and mapped memory always on", "[host-runtime][flags]") {
    unsigned flags = 0;
    CHECK(cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync) == cudaSuccess);
    check_cuda(cudaGetDeviceFlags(&flags));
    CHECK(flags == (cudaDeviceScheduleBlockingSync | cudaDeviceMapHost));
    CHECK(cudaSetDeviceFlags(cudaDeviceScheduleSpin | cudaDeviceScheduleYield) == cudaErrorInvalidValue);
    CHECK(cudaSetDeviceFlags(0x100) == cudaErrorInvalidValue);
    cudaGetLastError();
    CHECK(cudaSetDeviceFlags(cudaDeviceMapHost | cudaDeviceLmemResizeToMax) == cudaSuccess);
    check_cuda(cudaGetDeviceFlags(&flags));
    CHECK(flags == (cudaDeviceMapHost | cudaDeviceLmemResizeToMax));
    check_cuda(cudaSetDeviceFlags(cudaDeviceScheduleAuto));
}

TEST_CASE("stream priorities run from 0 to -5; one outside is taken as the nearest",
          "[host-runtime][streams]") {
    int least = 1, greatest = 1;
    check_cuda(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    CHECK(least == 0);
    CHECK(greatest == -5);
    const std::pair<int, int> kAskedAndGiven[] = {{-6, -5}, {-1, -1}, {1, 0}};
    for (const auto& [asked, given] : kAskedAndGiven) {
        cudaStream_t stream = nullptr;
        check_cuda(cudaStreamCreateWithPriority(&stream, cudaStreamNonBlocking, asked));
        int priority = 99;
        unsigned flags = 99;
        check_cuda(cudaStreamGetPriority(stream, &priority));
        check_cuda(cudaStreamGetFlags(stream, &flags));
        CHECK(priority == given);
        CHECK(flags == cudaStreamNonBlocking);
        check_cuda(cudaStreamDestroy(stream));
    }
    cudaStream_t stream = nullptr;
    CHECK(cudaStreamCreateWithPriority(&stream, 4, 0) == cudaErrorInvalidValue);
    cudaGetLastError();
}

namespace {

struct Seen {
    int* data;
    int value = -1;
    std::atomic<bool> done{false};
};
void CUDART_CB read_then_write(void* seen) {
    auto& s = *static_cast<Seen*>(seen);
    s.value = s.data[0];
    s.data[0] = 100;
    s.done = true;
}
void CUDART_CB callback(cudaStream_t, cudaError_t status, void* seen) {
    if (status == cudaSuccess) read_then_write(seen);
}

// Whether `flag` is set within `seconds`, polled without a call of the runtime.
bool becomes_true(const std::atomic<bool>& flag, int seconds) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
    while (!flag && std::chrono::steady_clock::now() < end)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return flag;
}

}  // namespace

TEST_CASE("a host function runs after the stream's work before it, and the work after it waits for it",
          "[host-runtime][host-functions]") {
    int* data = nullptr;
    check_cuda(cudaMallocManaged(&data, sizeof(int)));
    for (const bool add_callback : {false, true}) {
        *data = 1;
        cudaStream_t stream = nullptr;
        check_cuda(cudaStreamCreate(&stream));
        Seen seen{data};
        add_one<<<1, 32, 0, stream>>>(data, 1);
        if (add_callback) {
            check_cuda(cudaStreamAddCallback(stream, callback, &seen, 0));
        } else {
            check_cuda(cudaLaunchHostFunc(stream, read_then_write, &seen));
        }
        // It runs without the host waiting for the stream, as simpleCallback needs.
        CHECK(becomes_true(seen.done, 10));
        add_one<<<1, 32, 0, stream>>>(data, 1);
        check_cuda(cudaStreamSynchronize(stream));
        CHECK(seen.value == 2);
        CHECK(*data == 101);
        check_cuda(cudaStreamDestroy(stream));
    }
    CHECK(cudaLaunchHostFunc(nullptr, nullptr, nullptr) == cudaErrorInvalidValue);
    CHECK(cudaStreamAddCallback(nullptr, callback, nullptr, 1) == cudaErrorInvalidValue);
    cudaGetLastError();
    check_cuda(cudaFree(data));
}

TEST_CASE("the device's limits, and the heap's size, which a kernel's malloc() fixes",
          "[host-runtime][limits]") {
    std::size_t value = 0;
    check_cuda(cudaDeviceGetLimit(&value, cudaLimitStackSize));
    CHECK(value == 1024);
    check_cuda(cudaDeviceGetLimit(&value, cudaLimitPrintfFifoSize));
    CHECK(value == 8650752);
    check_cuda(cudaDeviceGetLimit(&value, cudaLimitDevRuntimePendingLaunchCount));
    CHECK(value == 2048);
    CHECK(cudaDeviceGetLimit(&value, cudaLimitDevRuntimeSyncDepth) == cudaErrorUnsupportedLimit);
    cudaGetLastError();
    check_cuda(cudaDeviceSetLimit(cudaLimitStackSize, 1000));
    check_cuda(cudaDeviceGetLimit(&value, cudaLimitStackSize));
    CHECK(value == 1008);  // whole 16-byte words
    check_cuda(cudaDeviceSetLimit(cudaLimitStackSize, 1024));
}

namespace {

// Each thread takes `bytes` of the heap, fills them, and gives them back;
// `got` counts the threads that had memory.
__global__ void take_and_give_back(std::size_t bytes, int* got) {
    int* p = static_cast<int*>(malloc(bytes));
    if (p == nullptr) return;
    for (std::size_t i = 0; i < bytes / sizeof(int); ++i) p[i] = threadIdx.x;
    atomicAdd(got, p[bytes / sizeof(int) - 1] == static_cast<int>(threadIdx.x));
    free(p);
}

// One thread keeps a piece of the heap in `kept`; another asks more than the heap holds.
__global__ void keep_one(int** kept, int** too_large) {
    *kept = static_cast<int*>(malloc(64));
    (*kept)[3] = 7;
    *too_large = static_cast<int*>(malloc(std::size_t{1} << 40));
}

}  // namespace

TEST_CASE("malloc() and free() in a kernel take the GPU's heap, which the runtime's copies do not take",
          "[host-runtime][device-heap]") {
    int* got = nullptr;
    int** pointers = nullptr;
    check_cuda(cudaMallocManaged(&got, sizeof(int)));
    check_cuda(cudaMallocManaged(&pointers, 2 * sizeof(int*)));
    *got = 0;
    take_and_give_back<<<4, 256>>>(64, got);
    check_cuda(cudaDeviceSynchronize());
    CHECK(*got == 1024);
    // The heap's size is fixed now.
    CHECK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, std::size_t{16} << 20) == cudaErrorInvalidValue);
    keep_one<<<1, 1>>>(&pointers[0], &pointers[1]);
    check_cuda(cudaDeviceSynchronize());
    CHECK(pointers[1] == nullptr);
    int copy[16] = {};
    CHECK(cudaMemcpy(copy, pointers[0], 64, cudaMemcpyDeviceToHost) == cudaErrorInvalidValue);
    CHECK(copy[3] == 0);
    CHECK(cudaMemset(pointers[0], 0, 64) == cudaSuccess);
    CHECK(cudaFree(pointers[0]) == cudaErrorInvalidValue);
    cudaGetLastError();
    check_cuda(cudaFree(pointers));
    check_cuda(cudaFree(got));
}

namespace {

struct Table {
    int values[64];
};
// The parameter's address is taken: with __grid_constant__ every thread reads the launch's one copy.
__global__ void reverse(const __grid_constant__ Table table, int* out) {
    const Table* launch_copy = &table;
    out[threadIdx.x] = launch_copy->values[63 - threadIdx.x];
}

}  // namespace

TEST_CASE("a __grid_constant__ parameter", "[host-runtime][grid-constant]") {
    Table table;
    for (int i = 0; i < 64; ++i) table.values[i] = i * i;
    warpdrill::DeviceBuffer<int> out(64);
    reverse<<<1, 64>>>(table, out.data());
    const std::vector<int> values = out.download();
    CHECK(values[0] == 63 * 63);
    CHECK(values[63] == 0);
}

TEST_CASE("NVTX's annotations do nothing where no tool is attached", "[host-runtime][nvtx]") {
    CHECK(nvtxRangePush("a range") == NVTX_NO_PUSH_POP_TRACKING);
    CHECK(nvtxRangePushA("another") == -2);
    CHECK(nvtxRangePop() == NVTX_NO_PUSH_POP_TRACKING);
    CHECK(nvtxRangeStartA("started") == 0);
    nvtxEventAttributes_t attributes{};
    attributes.version = NVTX_VERSION;
    attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    attributes.colorType = NVTX_COLOR_ARGB;
    attributes.color = 0xff00ff00;
    attributes.messageType = NVTX_MESSAGE_TYPE_ASCII;
    attributes.message.ascii = "coloured";
    CHECK(nvtxRangePushEx(&attributes) == NVTX_NO_PUSH_POP_TRACKING);
    CHECK(nvtxRangePop() == NVTX_NO_PUSH_POP_TRACKING);
    CHECK(NVTX_EVENT_ATTRIB_STRUCT_SIZE == 48);
    nvtxMarkA("a mark");
    nvtxNameCudaDeviceA(0, "the GPU");
    const nvtxDomainHandle_t domain = nvtxDomainCreateA("a domain");
    CHECK(domain == nullptr);
    nvtxDomainDestroy(domain);
}

TEST_CASE("cudaMemGetInfo: the device's memory, less what buffers hold", "[host-runtime][memory-info]") {
    std::size_t free_before = 0, total = 0;
    check_cuda(cudaMemGetInfo(&free_before, &total));
    cudaDeviceProp properties{};
    check_cuda(cudaGetDeviceProperties(&properties, 0));
    CHECK(total == properties.totalGlobalMem);
    CHECK(free_before <= total);
    constexpr std::size_t kBuffer = std::size_t{64} << 20;
    void* buffer = nullptr;
    check_cuda(cudaMalloc(&buffer, kBuffer));
    std::size_t free_after = 0;
    check_cuda(cudaMemGetInfo(&free_after, &total));
    CHECK(free_after + kBuffer <= free_before);
    check_cuda(cudaFree(buffer));
    total = 0;
    CHECK(cudaMemGetInfo(nullptr, &total) == cudaSuccess);  // an H200 passes a null pointer over
    CHECK(total == properties.totalGlobalMem);
}
