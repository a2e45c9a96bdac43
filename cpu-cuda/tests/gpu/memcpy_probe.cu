// What a GPU's runtime does with a copy whose cudaMemcpyKind does not match
// its pointers (a learner's classic slip: the two directions swapped), for
// every kind and every pair of pageable, pinned, device and managed memory,
// through cudaMemcpy and cudaMemcpyAsync, and to and from a __device__
// variable (cudaMemcpyToSymbol, cudaMemcpyFromSymbol); cudaMemset and
// cudaMemsetAsync on each memory; and a kind that is none of cudaMemcpyKind's.
// Each case runs in a process of its own, so that one that breaks the
// context or the process leaves the others as they were.
// results/memcpy-probe-h200.txt keeps what an H200 printed.
//   nvcc -std=c++20 -arch=sm_90 -o memcpy_probe cpu-cuda/tests/gpu/memcpy_probe.cu && ./memcpy_probe
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "in_a_process.h"
#include "memories.h"

constexpr std::size_t kBytes = 256;
__device__ unsigned char symbol[kBytes];

constexpr const char* kKindNames[] = {"HostToHost", "HostToDevice", "DeviceToHost", "DeviceToDevice",
                                      "Default"};

// Fills or reads any of the four memories through a copy whose kind the
// runtime infers (cudaMemcpyDefault), so that only the probed call has a kind.
void fill(void* p, unsigned char first) {
    unsigned char bytes[kBytes];
    for (std::size_t i = 0; i < kBytes; ++i) bytes[i] = static_cast<unsigned char>(first + 7 * i);
    cudaMemcpy(p, bytes, kBytes, cudaMemcpyDefault);
}

// "copied", "untouched" (the destination's poison intact), or "other bytes".
const char* what_arrived(const void* dst) {
    unsigned char bytes[kBytes], source[kBytes], poison[kBytes];
    if (cudaMemcpy(bytes, dst, kBytes, cudaMemcpyDefault) != cudaSuccess) return "unreadable";
    for (std::size_t i = 0; i < kBytes; ++i) source[i] = static_cast<unsigned char>(1 + 7 * i);
    std::memset(poison, 0xab, kBytes);
    if (std::memcmp(bytes, source, kBytes) == 0) return "copied";
    if (std::memcmp(bytes, poison, kBytes) == 0) return "untouched";
    return "other bytes";
}

void copy_case(bool async, int kind, Memory src_memory, Memory dst_memory) {
    void* src = allocate(src_memory, kBytes);
    void* dst = allocate(dst_memory, kBytes);
    fill(src, 1);
    unsigned char poison[kBytes];
    std::memset(poison, 0xab, kBytes);
    cudaMemcpy(dst, poison, kBytes, cudaMemcpyDefault);
    cudaStream_t stream;
    cudaStreamCreate(&stream);
    const cudaError_t returned = async ? cudaMemcpyAsync(dst, src, kBytes, cudaMemcpyKind(kind), stream)
                                       : cudaMemcpy(dst, src, kBytes, cudaMemcpyKind(kind));
    const cudaError_t synchronized = cudaDeviceSynchronize();
    const cudaError_t last = cudaGetLastError();
    std::printf("%-15s %-14s %-8s -> %-8s returns %-26s sync %-26s last %-26s %s\n",
                async ? "cudaMemcpyAsync" : "cudaMemcpy", kKindNames[kind], kMemoryNames[src_memory],
                kMemoryNames[dst_memory], cudaGetErrorName(returned), cudaGetErrorName(synchronized),
                cudaGetErrorName(last), what_arrived(dst));
}

// A copy to or from the __device__ variable `symbol`, the other side of
// `memory`.
void symbol_case(bool to_symbol, int kind, Memory memory) {
    void* other = allocate(memory, kBytes);
    fill(other, 1);
    unsigned char poison[kBytes];
    std::memset(poison, 0xab, kBytes);
    cudaMemcpyToSymbol(symbol, poison, kBytes);
    if (!to_symbol) cudaMemcpy(other, poison, kBytes, cudaMemcpyDefault);
    fill(poison, 1);  // the symbol's bytes, for a copy from it
    if (!to_symbol) cudaMemcpyToSymbol(symbol, poison, kBytes);
    const cudaError_t returned = to_symbol
                                     ? cudaMemcpyToSymbol(symbol, other, kBytes, 0, cudaMemcpyKind(kind))
                                     : cudaMemcpyFromSymbol(other, symbol, kBytes, 0, cudaMemcpyKind(kind));
    const cudaError_t synchronized = cudaDeviceSynchronize();
    const cudaError_t last = cudaGetLastError();
    void* symbol_address = nullptr;
    cudaGetSymbolAddress(&symbol_address, symbol);
    std::printf("%-20s %-14s %-8s returns %-26s sync %-26s last %-26s %s\n",
                to_symbol ? "cudaMemcpyToSymbol" : "cudaMemcpyFromSymbol", kKindNames[kind],
                kMemoryNames[memory], cudaGetErrorName(returned), cudaGetErrorName(synchronized),
                cudaGetErrorName(last), what_arrived(to_symbol ? symbol_address : other));
}

void memset_case(bool async, Memory memory) {
    void* p = allocate(memory, kBytes);
    const cudaError_t returned = async ? cudaMemsetAsync(p, 0, kBytes, nullptr) : cudaMemset(p, 0, kBytes);
    const cudaError_t synchronized = cudaDeviceSynchronize();
    std::printf("%-15s %-14s %-8s    %-8s returns %-26s sync %-26s last %s\n",
                async ? "cudaMemsetAsync" : "cudaMemset", "", kMemoryNames[memory], "",
                cudaGetErrorName(returned), cudaGetErrorName(synchronized),
                cudaGetErrorName(cudaGetLastError()));
}

// A kind that is none of cudaMemcpyKind's (7), device to device and to and
// from the variable.
void unknown_kind_case(int call) {
    void* a = allocate(kDevice, kBytes);
    void* b = allocate(kDevice, kBytes);
    constexpr const char* kCalls[] = {"cudaMemcpy", "cudaMemcpyAsync", "cudaMemcpyToSymbol",
                                      "cudaMemcpyFromSymbol"};
    const cudaMemcpyKind kind = cudaMemcpyKind(7);
    cudaError_t returned = cudaSuccess;
    switch (call) {
        case 0: returned = cudaMemcpy(b, a, kBytes, kind); break;
        case 1: returned = cudaMemcpyAsync(b, a, kBytes, kind, nullptr); break;
        case 2: returned = cudaMemcpyToSymbol(symbol, a, kBytes, 0, kind); break;
        case 3: returned = cudaMemcpyFromSymbol(b, symbol, kBytes, 0, kind); break;
    }
    const cudaError_t synchronized = cudaDeviceSynchronize();
    std::printf("%-20s kind 7 (none)  device   returns %-26s sync %-26s last %s\n", kCalls[call],
                cudaGetErrorName(returned), cudaGetErrorName(synchronized),
                cudaGetErrorName(cudaGetLastError()));
}

int main() {
    in_a_process("device", [] {
        int pageable_access = 0;
        cudaDeviceGetAttribute(&pageable_access, cudaDevAttrPageableMemoryAccess, 0);
        cudaDeviceProp p{};
        cudaGetDeviceProperties(&p, 0);
        int driver = 0;
        cudaDriverGetVersion(&driver);
        std::printf("%s, driver API %d, pageableMemoryAccess %d\n", p.name, driver, pageable_access);
    });
    for (bool async : {false, true}) {
        for (int kind = cudaMemcpyHostToHost; kind <= cudaMemcpyDefault; ++kind) {
            for (Memory src : {kPageable, kPinned, kDevice, kManaged}) {
                for (Memory dst : {kPageable, kPinned, kDevice, kManaged}) {
                    char what[96];
                    std::snprintf(what, sizeof what, "%s %s %s -> %s",
                                  async ? "cudaMemcpyAsync" : "cudaMemcpy", kKindNames[kind],
                                  kMemoryNames[src], kMemoryNames[dst]);
                    in_a_process(what, [=] { copy_case(async, kind, src, dst); });
                }
            }
        }
    }
    for (bool to_symbol : {true, false}) {
        for (int kind = cudaMemcpyHostToHost; kind <= cudaMemcpyDefault; ++kind) {
            for (Memory memory : {kPageable, kPinned, kDevice, kManaged}) {
                in_a_process(kKindNames[kind], [=] { symbol_case(to_symbol, kind, memory); });
            }
        }
    }
    for (bool async : {false, true}) {
        for (Memory memory : {kPageable, kPinned, kDevice, kManaged}) {
            in_a_process(kMemoryNames[memory], [=] { memset_case(async, memory); });
        }
    }
    for (int call = 0; call < 4; ++call) in_a_process("kind 7", [=] { unknown_kind_case(call); });
    return 0;
}
