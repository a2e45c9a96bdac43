// What a GPU's runtime answers to the calls NVIDIA's samples make that the
// CPU backend lacked: registering pageable memory (cudaHostRegister), the
// device's flags, stream priorities, host functions on a stream, the
// device's limits, malloc() in a kernel, and a failed assert() in a kernel.
// Each case runs in a process of its own (in_a_process.h), stopped after 20 s.
// results/host-runtime-probe-h200.txt keeps what an H200 printed.
//   nvcc -std=c++20 -arch=sm_90 -o host_runtime_probe cpu-cuda/tests/gpu/host_runtime_probe.cu &&
//   ./host_runtime_probe 2>&1
#include <unistd.h>

#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "in_a_process.h"
#include "memories.h"

constexpr std::size_t kBytes = 1 << 20;

void say(const char* what, cudaError_t returned) {
    std::printf("%-56s %s\n", what, cudaGetErrorName(returned));
}

// A case that hangs is stopped and says so (SIGALRM, signal 14).
template <typename Case>
void probe(const char* what, Case run_case) {
    in_a_process(what, [&] {
        alarm(20);
        run_case();
    });
}

__global__ void add_one(int* data, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] += 1;
}

// ---- cudaHostRegister -------------------------------------------------------

void register_flags_case(unsigned flags) {
    void* p = std::malloc(kBytes);
    char what[64];
    std::snprintf(what, sizeof what, "cudaHostRegister pageable, flags %u", flags);
    say(what, cudaHostRegister(p, kBytes, flags));
}

void register_memory_case(Memory memory) {
    void* p = allocate(memory, kBytes);
    char what[64];
    std::snprintf(what, sizeof what, "cudaHostRegister %s", kMemoryNames[memory]);
    say(what, cudaHostRegister(p, kBytes, cudaHostRegisterDefault));
    say("  then cudaGetLastError", cudaGetLastError());
}

void register_twice_case() {
    char* p = static_cast<char*>(std::malloc(2 * kBytes));
    say("cudaHostRegister pageable", cudaHostRegister(p, kBytes, 0));
    say("  again, the same range", cudaHostRegister(p, kBytes, 0));
    say("  a range inside it", cudaHostRegister(p + 4096, 4096, 0));
    say("  a range that overlaps its end", cudaHostRegister(p + kBytes - 4096, 8192, 0));
    say("  the range after it", cudaHostRegister(p + kBytes, kBytes, 0));
    say("  cudaHostUnregister from inside it", cudaHostUnregister(p + 4096));
    say("  cudaHostUnregister", cudaHostUnregister(p));
    say("  cudaHostUnregister again", cudaHostUnregister(p));
}

void register_odd_case() {
    say("cudaHostRegister nullptr, 4096 bytes", cudaHostRegister(nullptr, 4096, 0));
    say("cudaHostRegister pageable, 0 bytes", cudaHostRegister(std::malloc(64), 0, 0));
    say("cudaHostRegister pageable, 3 bytes at an odd address",
        cudaHostRegister(static_cast<char*>(std::malloc(64)) + 1, 3, 0));
    say("cudaHostUnregister pageable never registered", cudaHostUnregister(std::malloc(64)));
    say("cudaHostUnregister pinned", cudaHostUnregister(allocate(kPinned, 64)));
    say("cudaHostUnregister nullptr", cudaHostUnregister(nullptr));
}

// Registered memory: a kernel may use it, copies and memsets take it as
// pinned, and cudaHostGetDevicePointer gives its device address.
void registered_use_case(unsigned flags) {
    const int n = 1000;
    int* host = static_cast<int*>(std::malloc(n * sizeof(int)));
    for (int i = 0; i < n; ++i) host[i] = i;
    std::printf("cudaHostRegister flags %u: %s\n", flags,
                cudaGetErrorName(cudaHostRegister(host, n * sizeof(int), flags)));
    int* device_view = nullptr;
    say("  cudaHostGetDevicePointer, flags 0",
        cudaHostGetDevicePointer(reinterpret_cast<void**>(&device_view), host, 0));
    std::printf("  the device pointer is the host pointer: %s\n", device_view == host ? "yes" : "no");
    say("  cudaHostGetDevicePointer, flags 1",
        cudaHostGetDevicePointer(reinterpret_cast<void**>(&device_view), host, 1));
    add_one<<<(n + 255) / 256, 256>>>(host, n);
    say("  a kernel adds 1 to each element, sync", cudaDeviceSynchronize());
    std::printf("  host[0] %d, host[999] %d\n", host[0], host[n - 1]);
    int* device = nullptr;
    cudaMalloc(&device, n * sizeof(int));
    say("  cudaMemcpy to device, kind cudaMemcpyDeviceToDevice",
        cudaMemcpy(device, host, n * sizeof(int), cudaMemcpyDeviceToDevice));
    say("  cudaMemset on it", cudaMemset(host, 0, n * sizeof(int)));
    cudaDeviceSynchronize();
    std::printf("  host[5] after the memset %d\n", host[5]);
    say("  cudaHostUnregister", cudaHostUnregister(host));
    say("  then cudaMemcpy to device, kind cudaMemcpyDeviceToDevice",
        cudaMemcpy(device, host, n * sizeof(int), cudaMemcpyDeviceToDevice));
}

void device_pointer_case(Memory memory) {
    void* p = allocate(memory, 64);
    void* device_view = nullptr;
    char what[64];
    std::snprintf(what, sizeof what, "cudaHostGetDevicePointer %s", kMemoryNames[memory]);
    say(what, cudaHostGetDevicePointer(&device_view, p, 0));
    std::printf("  the same pointer: %s\n", device_view == p ? "yes" : "no");
}

// ---- the device's flags -----------------------------------------------------

void device_flags_case(unsigned flags, bool after_context) {
    if (after_context) cudaFree(nullptr);
    char what[80];
    std::snprintf(what, sizeof what, "cudaSetDeviceFlags %#x%s", flags,
                  after_context ? " after the context" : "");
    say(what, cudaSetDeviceFlags(flags));
    unsigned now = 0;
    const cudaError_t got = cudaGetDeviceFlags(&now);
    std::printf("  cudaGetDeviceFlags %s: %#x\n", cudaGetErrorName(got), now);
}

// ---- stream priorities ------------------------------------------------------

void priorities_case() {
    int least = 0, greatest = 0;
    say("cudaDeviceGetStreamPriorityRange", cudaDeviceGetStreamPriorityRange(&least, &greatest));
    std::printf("  least %d, greatest %d\n", least, greatest);
    for (int priority : {greatest - 1, greatest, -1, 0, 1}) {
        cudaStream_t stream = nullptr;
        char what[64];
        std::snprintf(what, sizeof what, "  cudaStreamCreateWithPriority non-blocking, %d", priority);
        say(what, cudaStreamCreateWithPriority(&stream, cudaStreamNonBlocking, priority));
        int got = 99;
        unsigned flags = 99;
        cudaStreamGetPriority(stream, &got);
        cudaStreamGetFlags(stream, &flags);
        std::printf("    cudaStreamGetPriority %d, cudaStreamGetFlags %u\n", got, flags);
    }
    cudaStream_t stream = nullptr;
    say("  cudaStreamCreateWithPriority flags 4", cudaStreamCreateWithPriority(&stream, 4, 0));
    int got = 99;
    say("  cudaStreamGetPriority of the default stream", cudaStreamGetPriority(nullptr, &got));
    std::printf("    %d\n", got);
    cudaStreamCreate(&stream);
    say("  cudaStreamGetPriority of cudaStreamCreate's", cudaStreamGetPriority(stream, &got));
    std::printf("    %d\n", got);
}

// ---- host functions ---------------------------------------------------------

struct Seen {
    int* data;
    int value = -1;
    cudaError_t status = cudaErrorUnknown;
    cudaError_t api_call = cudaErrorUnknown;
};

void CUDART_CB read_first(void* seen) {
    Seen& s = *static_cast<Seen*>(seen);
    s.value = s.data[0];
}
void CUDART_CB callback(cudaStream_t, cudaError_t status, void* seen) {
    Seen& s = *static_cast<Seen*>(seen);
    s.value = s.data[0];
    s.status = status;
}
void CUDART_CB call_the_runtime(void* seen) {
    void* p = nullptr;
    static_cast<Seen*>(seen)->api_call = cudaMalloc(&p, 64);
}
void CUDART_CB write_first(void* seen) { static_cast<Seen*>(seen)->data[0] = 100; }

void host_function_case(bool default_stream) {
    int* data = nullptr;
    cudaMallocManaged(&data, sizeof(int));
    *data = 1;
    cudaStream_t stream = nullptr;
    if (!default_stream) cudaStreamCreate(&stream);
    Seen seen{data};
    std::printf("cudaLaunchHostFunc on %s\n", default_stream ? "the default stream" : "a stream");
    add_one<<<1, 32, 0, stream>>>(data, 1);
    say("  after a kernel", cudaLaunchHostFunc(stream, read_first, &seen));
    say("  then one that writes", cudaLaunchHostFunc(stream, write_first, &seen));
    add_one<<<1, 32, 0, stream>>>(data, 1);
    say("  cudaStreamSynchronize", cudaStreamSynchronize(stream));
    std::printf("  the function saw %d, the second kernel left %d\n", seen.value, *data);
}

void callback_case() {
    int* data = nullptr;
    cudaMallocManaged(&data, sizeof(int));
    *data = 1;
    cudaStream_t stream = nullptr;
    cudaStreamCreate(&stream);
    Seen seen{data};
    add_one<<<1, 32, 0, stream>>>(data, 1);
    say("cudaStreamAddCallback flags 0", cudaStreamAddCallback(stream, callback, &seen, 0));
    say("  flags 1", cudaStreamAddCallback(stream, callback, &seen, 1));
    say("  cudaStreamSynchronize", cudaStreamSynchronize(stream));
    std::printf("  the callback saw %d with %s\n", seen.value, cudaGetErrorName(seen.status));
    say("cudaLaunchHostFunc of nullptr", cudaLaunchHostFunc(stream, nullptr, &seen));
    say("  cudaLaunchHostFunc that calls cudaMalloc", cudaLaunchHostFunc(stream, call_the_runtime, &seen));
    say("  cudaStreamSynchronize", cudaStreamSynchronize(stream));
    std::printf("  cudaMalloc in it returned %s\n", cudaGetErrorName(seen.api_call));
}

// ---- limits and malloc() in a kernel ----------------------------------------

constexpr const char* kLimitNames[] = {"cudaLimitStackSize",
                                       "cudaLimitPrintfFifoSize",
                                       "cudaLimitMallocHeapSize",
                                       "cudaLimitDevRuntimeSyncDepth",
                                       "cudaLimitDevRuntimePendingLaunchCount",
                                       "cudaLimitMaxL2FetchGranularity",
                                       "cudaLimitPersistingL2CacheSize"};

void limits_case() {
    for (int limit = 0; limit <= 7; ++limit) {
        std::size_t value = 0;
        const cudaError_t got = cudaDeviceGetLimit(&value, static_cast<cudaLimit>(limit));
        std::printf("cudaDeviceGetLimit %-40s %s %zu\n", limit < 7 ? kLimitNames[limit] : "7",
                    cudaGetErrorName(got), value);
    }
    for (std::size_t heap : {std::size_t{1} << 20, std::size_t{1000}, std::size_t{0}, std::size_t{1} << 34}) {
        std::size_t value = 0;
        const cudaError_t set = cudaDeviceSetLimit(cudaLimitMallocHeapSize, heap);
        cudaDeviceGetLimit(&value, cudaLimitMallocHeapSize);
        std::printf("cudaDeviceSetLimit cudaLimitMallocHeapSize %zu: %s, then %zu\n", heap,
                    cudaGetErrorName(set), value);
    }
    std::size_t value = 0;
    const cudaError_t set = cudaDeviceSetLimit(cudaLimitStackSize, 1000);
    cudaDeviceGetLimit(&value, cudaLimitStackSize);
    std::printf("cudaDeviceSetLimit cudaLimitStackSize 1000: %s, then %zu\n", cudaGetErrorName(set), value);
    say("cudaDeviceSetLimit 7", cudaDeviceSetLimit(static_cast<cudaLimit>(7), 0));
}

// Each thread takes `bytes` and writes it; counts the threads that got memory.
__global__ void take_memory(std::size_t bytes, int* got, int** kept) {
    int* p = static_cast<int*>(malloc(bytes));
    if (p != nullptr) {
        for (std::size_t i = 0; i < bytes / sizeof(int); ++i) p[i] = threadIdx.x;
        atomicAdd(got, 1);
    }
    if (kept != nullptr && threadIdx.x == 0 && blockIdx.x == 0) {
        *kept = p;
        return;
    }
    free(p);
}

void device_malloc_case(std::size_t heap, int blocks, std::size_t bytes) {
    if (heap != 0) cudaDeviceSetLimit(cudaLimitMallocHeapSize, heap);
    int* got = nullptr;
    cudaMallocManaged(&got, sizeof(int));
    *got = 0;
    take_memory<<<blocks, 256>>>(bytes, got, nullptr);
    const cudaError_t sync = cudaDeviceSynchronize();
    std::printf("malloc in a kernel, heap %zu, %d threads of %zu bytes: sync %s, %d got memory\n", heap,
                blocks * 256, bytes, cudaGetErrorName(sync), *got);
    take_memory<<<blocks, 256>>>(bytes, got, nullptr);
    const cudaError_t again = cudaDeviceSynchronize();
    std::printf("  again: sync %s, %d got memory in all\n", cudaGetErrorName(again), *got);
    say("  then cudaDeviceSetLimit cudaLimitMallocHeapSize",
        cudaDeviceSetLimit(cudaLimitMallocHeapSize, 1 << 20));
}

// One thread takes pieces of `bytes` until malloc() gives nullptr.
__global__ void fill_heap(std::size_t bytes, int* pieces) {
    while (malloc(bytes) != nullptr) ++*pieces;
}

void heap_capacity_case(std::size_t heap, std::size_t bytes) {
    if (heap != 0) cudaDeviceSetLimit(cudaLimitMallocHeapSize, heap);
    int* pieces = nullptr;
    cudaMallocManaged(&pieces, sizeof(int));
    *pieces = 0;
    fill_heap<<<1, 1>>>(bytes, pieces);
    const cudaError_t sync = cudaDeviceSynchronize();
    std::printf("one thread fills a heap of %zu with pieces of %zu bytes: sync %s, %d pieces\n", heap, bytes,
                cudaGetErrorName(sync), *pieces);
}

void device_malloc_host_use_case() {
    int** kept = nullptr;
    int* got = nullptr;
    cudaMallocManaged(&kept, sizeof(int*));
    cudaMallocManaged(&got, sizeof(int));
    take_memory<<<1, 32>>>(64, got, kept);
    say("a kernel keeps one thread's malloc'd memory, sync", cudaDeviceSynchronize());
    int copy[16] = {};
    say("  cudaMemcpy from it, cudaMemcpyDeviceToHost", cudaMemcpy(copy, *kept, 64, cudaMemcpyDeviceToHost));
    std::printf("  copy[3] %d\n", copy[3]);
    say("  cudaMemset on it", cudaMemset(*kept, 0, 64));
    say("  cudaFree of it", cudaFree(*kept));
    say("  then cudaGetLastError", cudaGetLastError());
}

// ---- assert() in a kernel ----------------------------------------------------

__global__ void check_index(int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    assert(i < n);
}

void assert_case() {
    check_index<<<2, 32>>>(60);
    say("a kernel whose threads 60-63 fail assert(i < n), launch", cudaGetLastError());
    say("  cudaDeviceSynchronize", cudaDeviceSynchronize());
    say("  cudaGetLastError", cudaGetLastError());
    say("  cudaGetLastError again", cudaGetLastError());
    void* p = nullptr;
    say("  cudaMalloc", cudaMalloc(&p, 64));
    check_index<<<1, 32>>>(64);
    say("  a kernel that passes, launch", cudaGetLastError());
    say("  cudaDeviceSynchronize", cudaDeviceSynchronize());
}

// ---- __grid_constant__ -------------------------------------------------------

struct Table {
    int values[64];
};
// The parameter's address is taken: with __grid_constant__ it stays in the
// parameter space, without a copy per thread.
__global__ void pick(const __grid_constant__ Table table, int* out) {
    const Table* shared_by_all = &table;
    out[threadIdx.x] = shared_by_all->values[63 - threadIdx.x];
}

void grid_constant_case() {
    Table table;
    for (int i = 0; i < 64; ++i) table.values[i] = i * i;
    int* out = nullptr;
    cudaMallocManaged(&out, 64 * sizeof(int));
    pick<<<1, 64>>>(table, out);
    say("a kernel reads a __grid_constant__ parameter, sync", cudaDeviceSynchronize());
    std::printf("  out[0] %d, out[63] %d\n", out[0], out[63]);
}

int main() {
    for (unsigned flags : {0u, 1u, 2u, 4u, 8u, 3u, 16u})
        probe("cudaHostRegister", [&] { register_flags_case(flags); });
    for (Memory memory : {kPinned, kDevice, kManaged})
        probe("cudaHostRegister", [&] { register_memory_case(memory); });
    probe("cudaHostRegister", register_twice_case);
    probe("cudaHostRegister", register_odd_case);
    for (unsigned flags : {0u, 2u}) probe("registered memory", [&] { registered_use_case(flags); });
    for (Memory memory : {kPageable, kPinned, kDevice, kManaged}) {
        probe("cudaHostGetDevicePointer", [&] { device_pointer_case(memory); });
    }
    for (unsigned flags : {0x8u, 0x4u, 0x1u, 0x2u, 0x10u, 0x3u, 0x100u}) {
        probe("cudaSetDeviceFlags", [&] { device_flags_case(flags, false); });
    }
    probe("cudaSetDeviceFlags", [&] { device_flags_case(0x4u, true); });
    probe("stream priorities", priorities_case);
    for (bool default_stream : {false, true})
        probe("host functions", [&] { host_function_case(default_stream); });
    probe("host functions", callback_case);
    probe("limits", limits_case);
    probe("malloc in a kernel", [] { device_malloc_case(0, 4, 64); });
    probe("malloc in a kernel", [] { device_malloc_case(0, 64, 1024); });
    probe("malloc in a kernel", [] { device_malloc_case(1 << 20, 4, 4096); });
    for (std::size_t bytes : {std::size_t{1} << 20, std::size_t{4096}, std::size_t{16} << 20}) {
        probe("malloc in a kernel", [&] { heap_capacity_case(0, bytes); });
    }
    probe("malloc in a kernel", [] { heap_capacity_case(std::size_t{64} << 20, std::size_t{1} << 20); });
    probe("malloc in a kernel", device_malloc_host_use_case);
    probe("__grid_constant__", grid_constant_case);
    probe("assert", assert_case);
    return 0;
}
