// What a GPU's runtime answers to managed memory's hints and prefetches
// (CUDA 13's cudaMemAdvise and cudaMemPrefetchAsync, which take a
// cudaMemLocation, and cudaStreamAttachMemAsync) on each kind of memory,
// with each location and with flags it may refuse. Each case runs in a
// process of its own (in_a_process.h).
// results/managed-hints-probe-h200.txt keeps what an H200 printed.
//   nvcc -std=c++20 -arch=sm_90 -o managed_hints_probe cpu-cuda/tests/gpu/managed_hints_probe.cu &&
//   ./managed_hints_probe
#include <cstdio>
#include <cstdlib>

#include "in_a_process.h"
#include "memories.h"

constexpr std::size_t kBytes = 1 << 20;


struct Location {
    const char* name;
    cudaMemLocation location;
};
const Location kLocations[] = {
    {"device 0", {cudaMemLocationTypeDevice, 0}},
    {"device 7", {cudaMemLocationTypeDevice, 7}},
    {"host", {cudaMemLocationTypeHost, 0}},
    {"none", {cudaMemLocationTypeNone, 0}},
};

void report(const char* call, Memory memory, const char* detail, cudaError_t returned) {
    const cudaError_t synchronized = cudaDeviceSynchronize();
    std::printf("%-24s %-8s %-32s returns %-30s sync %s\n", call, kMemoryNames[memory], detail,
                cudaGetErrorName(returned), cudaGetErrorName(synchronized));
}

void prefetch_case(Memory memory, const Location& where, unsigned flags, std::size_t bytes) {
    void* p = allocate(memory, kBytes);
    char detail[64];
    std::snprintf(detail, sizeof detail, "%s, flags %u, %zu bytes", where.name, flags, bytes);
    report("cudaMemPrefetchAsync", memory, detail,
           cudaMemPrefetchAsync(p, bytes, where.location, flags, nullptr));
}

void advise_case(Memory memory, cudaMemoryAdvise advice, const Location& where) {
    void* p = allocate(memory, kBytes);
    char detail[64];
    std::snprintf(detail, sizeof detail, "advice %d, %s", static_cast<int>(advice), where.name);
    report("cudaMemAdvise", memory, detail, cudaMemAdvise(p, kBytes, advice, where.location));
}

void attach_case(Memory memory, unsigned flags, std::size_t bytes) {
    void* p = allocate(memory, kBytes);
    cudaStream_t stream;
    cudaStreamCreate(&stream);
    char detail[64];
    std::snprintf(detail, sizeof detail, "flags %u, %zu bytes", flags, bytes);
    report("cudaStreamAttachMemAsync", memory, detail, cudaStreamAttachMemAsync(stream, p, bytes, flags));
}

int main() {
    for (Memory memory : {kManaged, kDevice, kPinned, kPageable}) {
        for (const Location& where : kLocations) {
            in_a_process("cudaMemPrefetchAsync", [&] { prefetch_case(memory, where, 0, kBytes); });
        }
        in_a_process("cudaMemPrefetchAsync", [&] { prefetch_case(memory, kLocations[0], 1, kBytes); });
        in_a_process("cudaMemPrefetchAsync", [&] { prefetch_case(memory, kLocations[0], 0, 0); });
        in_a_process("cudaMemPrefetchAsync", [&] { prefetch_case(memory, kLocations[0], 0, 2 * kBytes); });
        for (int advice = 0; advice <= 7; ++advice) {
            in_a_process("cudaMemAdvise",
                         [&] { advise_case(memory, static_cast<cudaMemoryAdvise>(advice), kLocations[0]); });
        }
        in_a_process("cudaMemAdvise",
                     [&] { advise_case(memory, cudaMemAdviseSetPreferredLocation, kLocations[2]); });
        in_a_process("cudaMemAdvise",
                     [&] { advise_case(memory, cudaMemAdviseSetAccessedBy, kLocations[1]); });
        in_a_process("cudaMemAdvise",
                     [&] { advise_case(memory, cudaMemAdviseSetReadMostly, kLocations[3]); });
        for (unsigned flags : {unsigned{cudaMemAttachGlobal}, unsigned{cudaMemAttachHost},
                               unsigned{cudaMemAttachSingle}, 0u, 8u}) {
            in_a_process("cudaStreamAttachMemAsync", [&] { attach_case(memory, flags, 0); });
        }
        in_a_process("cudaStreamAttachMemAsync", [&] { attach_case(memory, cudaMemAttachSingle, kBytes); });
        in_a_process("cudaStreamAttachMemAsync", [&] { attach_case(memory, cudaMemAttachSingle, 4096); });
    }
    return 0;
}
