// A copy's cudaMemcpyKind against the memory its pointers are in: which
// copies a GPU refuses (a kind that calls pageable host memory device memory:
// the two directions swapped, say) and which it makes whatever the kind says,
// the kinds a copy to or from a __device__ variable takes, and which memory
// cudaMemset writes. The expected tables are an H200's,
// measured by cpu-cuda/tests/gpu/memcpy_probe.cu (results/memcpy-probe-h200.txt).
// This file compiles with nvcc too: on a GPU it holds CUDA to the same table.
#include <cstdlib>
#include <string>
#include <vector>

#include "warpdrill/catch.h"
#include "warpdrill/cuda.h"
#include "warpdrill/host.h"

using warpdrill::check_cuda;

namespace {

constexpr int kInts = 64;
constexpr std::size_t kBytes = kInts * sizeof(int);
constexpr int kPoison = -1;

enum Memory { kPageable, kPinned, kDevice, kManaged };
constexpr Memory kMemories[] = {kPageable, kPinned, kDevice, kManaged};
constexpr const char* kMemoryNames[] = {"pageable", "pinned", "device", "managed"};

// kInts ints of one kind of memory, freed as they were allocated.
class Buffer {
  public:
    Buffer(Memory memory, int first_value) : memory_(memory) {
        void* p = nullptr;
        switch (memory) {
            case kPageable: p = std::malloc(kBytes); break;
            case kPinned: check_cuda(cudaMallocHost(&p, kBytes)); break;
            case kDevice: check_cuda(cudaMalloc(&p, kBytes)); break;
            case kManaged: check_cuda(cudaMallocManaged(&p, kBytes)); break;
        }
        data_ = static_cast<int*>(p);
        std::vector<int> values(kInts, first_value);
        for (int i = 0; i < kInts; ++i) values[i] += i;
        check_cuda(cudaMemcpy(data_, values.data(), kBytes, cudaMemcpyDefault));  // the kind is the runtime's
    }
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;
    ~Buffer() {
        if (memory_ == kPageable) std::free(data_);
        if (memory_ == kPinned) cudaFreeHost(data_);
        if (memory_ == kDevice || memory_ == kManaged) cudaFree(data_);
    }
    int* data() const { return data_; }
    std::vector<int> values() const {
        std::vector<int> values(kInts);
        check_cuda(cudaMemcpy(values.data(), data_, kBytes, cudaMemcpyDefault));
        return values;
    }

  private:
    Memory memory_;
    int* data_ = nullptr;
};

// What the H200 answered for each kind: one row for each source memory,
// one character for each destination memory (pageable, pinned, device,
// managed in that order), 'x' where the copy was refused with
// cudaErrorInvalidValue and nothing copied, '.' where it was copied.
// cudaMemcpy and cudaMemcpyAsync answered alike.
struct KindTable {
    cudaMemcpyKind kind;
    const char* name;
    const char* rows[4];
};
constexpr KindTable kMeasured[] = {
    {cudaMemcpyHostToHost, "cudaMemcpyHostToHost", {"....", "....", "....", "...."}},
    {cudaMemcpyHostToDevice, "cudaMemcpyHostToDevice", {"x...", "x...", "x...", "x..."}},
    {cudaMemcpyDeviceToHost, "cudaMemcpyDeviceToHost", {"xxxx", "....", "....", "...."}},
    {cudaMemcpyDeviceToDevice, "cudaMemcpyDeviceToDevice", {"xxxx", "x...", "x...", "x..."}},
    {cudaMemcpyDefault, "cudaMemcpyDefault", {"....", "....", "....", "...."}},
};

// The same for a copy to (then from) a __device__ variable, one row for
// each kind, one character for each memory on the other side: 'd' where it
// was refused with cudaErrorInvalidMemcpyDirection (the kind calls the
// variable host memory), 'x' and '.' as above.
struct SymbolTable {
    cudaMemcpyKind kind;
    const char* name;
    const char* to_symbol;
    const char* from_symbol;
};
constexpr SymbolTable kMeasuredForSymbols[] = {
    {cudaMemcpyHostToHost, "cudaMemcpyHostToHost", "dddd", "dddd"},
    {cudaMemcpyHostToDevice, "cudaMemcpyHostToDevice", "....", "dddd"},
    {cudaMemcpyDeviceToHost, "cudaMemcpyDeviceToHost", "dddd", "...."},
    {cudaMemcpyDeviceToDevice, "cudaMemcpyDeviceToDevice", "x...", "x..."},
    {cudaMemcpyDefault, "cudaMemcpyDefault", "....", "...."},
};

__device__ int variable[kInts];

cudaError_t error_for(char measured) {
    if (measured == 'd') return cudaErrorInvalidMemcpyDirection;
    return measured == 'x' ? cudaErrorInvalidValue : cudaSuccess;
}

std::vector<int> values_of_variable() {
    std::vector<int> values(kInts);
    check_cuda(cudaMemcpyFromSymbol(values.data(), variable, kBytes));
    return values;
}

void check_copy(bool async, const KindTable& table, Memory src_memory, Memory dst_memory) {
    const bool refused = table.rows[src_memory][dst_memory] == 'x';
    INFO((async ? "cudaMemcpyAsync " : "cudaMemcpy ") << table.name << " from " << kMemoryNames[src_memory]
                                                      << " to " << kMemoryNames[dst_memory] << " memory");
    const Buffer src(src_memory, 100), dst(dst_memory, kPoison);
    const cudaError_t returned = async ? cudaMemcpyAsync(dst.data(), src.data(), kBytes, table.kind, nullptr)
                                       : cudaMemcpy(dst.data(), src.data(), kBytes, table.kind);
    CHECK(returned == (refused ? cudaErrorInvalidValue : cudaSuccess));
    CHECK(cudaGetLastError() == returned);  // the error is not sticky: the last error is the call's
    check_cuda(cudaDeviceSynchronize());
    const std::vector<int> arrived = dst.values();
    CHECK(arrived[0] == (refused ? kPoison : 100));
    CHECK(arrived[kInts - 1] == (refused ? kPoison + kInts - 1 : 100 + kInts - 1));
}

}  // namespace

TEST_CASE("a copy whose kind calls pageable host memory device memory is refused; any other kind is taken",
          "[runtime-api][memcpy]") {
    for (const bool async : {false, true}) {
        for (const KindTable& table : kMeasured) {
            for (const Memory src : kMemories) {
                for (const Memory dst : kMemories) check_copy(async, table, src, dst);
            }
        }
    }
}

TEST_CASE("a copy to or from a __device__ variable refuses a kind that calls the variable host memory",
          "[runtime-api][memcpy]") {
    const std::vector<int> poison(kInts, kPoison);
    for (const SymbolTable& table : kMeasuredForSymbols) {
        for (const Memory memory : kMemories) {
            INFO(table.name << ", the other side " << kMemoryNames[memory] << " memory");
            check_cuda(cudaMemcpyToSymbol(variable, poison.data(), kBytes));
            const Buffer source(memory, 100);
            const cudaError_t to = error_for(table.to_symbol[memory]);
            CHECK(cudaMemcpyToSymbol(variable, source.data(), kBytes, 0, table.kind) == to);
            CHECK(cudaGetLastError() == to);
            CHECK(values_of_variable()[1] == (to == cudaSuccess ? 101 : kPoison));

            const Buffer destination(memory, kPoison);
            const cudaError_t from = error_for(table.from_symbol[memory]);
            CHECK(cudaMemcpyFromSymbol(destination.data(), variable, kBytes, 0, table.kind) == from);
            CHECK(cudaGetLastError() == from);
            CHECK(destination.values()[1] == (from == cudaSuccess ? values_of_variable()[1] : kPoison + 1));
        }
    }
}

TEST_CASE("cudaMemset writes device, managed and pinned memory, and refuses pageable host memory",
          "[runtime-api][memcpy]") {
    for (const Memory memory : kMemories) {
        INFO(kMemoryNames[memory] << " memory");
        const Buffer buffer(memory, kPoison);
        const bool refused = memory == kPageable;
        CHECK(cudaMemset(buffer.data(), 0, kBytes) == (refused ? cudaErrorInvalidValue : cudaSuccess));
        CHECK(cudaMemsetAsync(buffer.data(), 0, kBytes, nullptr) ==
              (refused ? cudaErrorInvalidValue : cudaSuccess));
        cudaGetLastError();
        check_cuda(cudaDeviceSynchronize());
        CHECK(buffer.values()[1] == (refused ? kPoison + 1 : 0));
    }
}
