// The CPU backend names each class of mistake as compute-sanitizer (memcheck,
// racecheck, synccheck) or a hung GPU would reveal it: one broken kernel per
// class, and what the message must say. The kernels are instrumented as the
// lessons' are (cmake/Backend.cmake), so this file is compiled as a kernel source.
#include <cooperative_groups.h>

#include <atomic>
#include <chrono>
#include <new>
#include <string>
#include <vector>

#include "broken_kernels.cuh"
#include "fault_of.h"
#include "warpdrill/catch.h"
#include "warpdrill/cuda.h"
#include "warpdrill/host.h"
#include "warpdrill/reduce.cuh"

using warpdrill::DeviceBuffer;
using warpdrill::check_cuda;
using warpdrill::launch;
using warpdrill::testing::contains;
using warpdrill::testing::expect_says;
using warpdrill::testing::fault_of;

namespace {

constexpr unsigned kFull = 0xffffffffu;

DeviceBuffer<float> ones(std::size_t n) {
    const std::vector<float> host(n, 1.0f);
    return DeviceBuffer<float>{std::span<const float>(host)};
}

// ---- races ---------------------------------------------------------------------

// Reads a neighbour's element before the barrier after the store.
__global__ void read_before_barrier(const float* in, float* out) {
    __shared__ float staged[128];
    const unsigned tid = threadIdx.x;
    staged[tid] = in[tid];
    out[tid] = staged[(tid + 64) % 128];
    __syncthreads();
}

// Every block adds into one global element, without an atomic.
__global__ void plain_add_from_blocks(const float* in, float* total) {
    if (threadIdx.x == 0) *total += in[blockIdx.x];
}

// The partials are read by block 0 without waiting for the others at all.
__global__ void read_partials_early(const float* in, float* partials, float* total) {
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = in[blockIdx.x];
        __threadfence();
        if (blockIdx.x == 0) {
            float sum = 0.0f;
            for (unsigned b = 0; b < gridDim.x; ++b) sum += partials[b];
            *total = sum;
        }
    }
}

// Every block goes on past its ticket and reads the partials: a ticket that
// is not the last does not say that the others are written.
__global__ void every_block_reads_partials(const float* in, float* partials, unsigned* ticket, float* totals) {
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = in[blockIdx.x];
        __threadfence();
        atomicAdd(ticket, 1u);
        float sum = 0.0f;
        for (unsigned b = 0; b < gridDim.x; ++b) sum += partials[b];
        totals[blockIdx.x] = sum;
    }
}

// What the ticket kernels above and below take: a grid of kBlocks blocks of
// 32 threads, a partial sum for each, the ticket counter at 0, a total each.
struct TicketSum {
    static constexpr unsigned kBlocks = 16;
    DeviceBuffer<float> in = ones(kBlocks);
    DeviceBuffer<float> partials{kBlocks}, totals{kBlocks};
    DeviceBuffer<unsigned> ticket{1};
    TicketSum() {
        check_cuda(cudaMemset(ticket.data(), 0, sizeof(unsigned)));
        warpdrill::poison(totals);
    }
    void launch(void (*kernel)(const float*, float*, unsigned*, float*)) {
        warpdrill::launch(kernel, {kBlocks, 32}, in.data(), partials.data(), ticket.data(), totals.data());
    }
};

// The correct version: fence, ticket, the last block reads.
__global__ void ticket_with_fence(const float* in, float* partials, unsigned* ticket, float* total) {
    __shared__ bool last;
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = in[blockIdx.x];
        __threadfence();
        last = atomicAdd(ticket, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (last && threadIdx.x == 0) {
        float sum = 0.0f;
        for (unsigned b = 0; b < gridDim.x; ++b) sum += partials[b];
        *total = sum;
    }
}

// ---- bounds --------------------------------------------------------------------

__global__ void past_static_shared(float* out) {
    __shared__ float s[64];
    s[threadIdx.x + 1] = 1.0f;  // thread 63 writes s[64]
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x];
}

__global__ void past_dynamic_shared(float* out) {
    WARPDRILL_DYNAMIC_SHARED(float, cache);
    cache[threadIdx.x] = 1.0f;  // the launch asks for blockDim.x - 1 floats
    __syncthreads();
    out[threadIdx.x] = cache[threadIdx.x];
}

// ---- shuffles ---------------------------------------------------------------------

__global__ void shuffle_width_three(int* out) { out[threadIdx.x] = __shfl_sync(kFull, int(threadIdx.x), 0, 3); }

__global__ void shuffle_outside_mask(int* out) {
    if (threadIdx.x < 16) out[threadIdx.x] = __shfl_down_sync(0x0000ffffu, int(threadIdx.x), 1);
}

// ---- initialisation ----------------------------------------------------------------

// Adds every element into *total, which the caller must have set first.
__global__ void accumulate(const float* in, float* total, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(total, in[i]);
}

__global__ void copy_through(const float* in, float* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i];
}

// An exchange reads nothing it depends on.
__global__ void raise_flag(unsigned* flag) { atomicExch(flag, 1u); }

// ---- barriers inside a helper ---------------------------------------------------------

// A grid-stride loop around a block-wide helper: threads past the last full
// round leave the loop, and the helper's __syncthreads() with them.
__global__ void block_sums_in_a_loop(const float* in, float* out, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        const float total = warpdrill::block_all_reduce(in[i], warpdrill::Sum{});
        if (threadIdx.x == 0) out[i / blockDim.x] = total;
    }
}

// ---- spins -------------------------------------------------------------------------

// Lane 0 waits for lane 31's flag: legal since Volta, and it finishes here.
__global__ void spin_on_flag(int* flag, int* out) {
    if (threadIdx.x == 0) {
        while (atomicAdd(flag, 0) == 0) {
        }
        out[0] = 1;
    } else if (threadIdx.x == 31) {
        atomicExch(flag, 1);
    }
}

// Nobody ever sets the flag: the threads that wait at the barrier cannot.
__global__ void spin_forever(int* flag) {
    if (threadIdx.x == 0) {
        while (atomicAdd(flag, 0) == 0) {
        }
    }
    __syncthreads();
}

// Every lane of warp 0 writes the flag: the same value, or each its own.
__global__ void warp_writes_flag(int* out, int same) {
    __shared__ int flag;
    if (threadIdx.x < 32) flag = same ? 1 : static_cast<int>(threadIdx.x);
    __syncthreads();
    out[threadIdx.x] = flag;
}

// Each lane of warp 0 counts itself with an atomic; lane 1 reads the count
// with a plain load before any barrier (the check-then-update of NVIDIA's
// newdelete sample), or, with `store`, lane 1 overwrites it.
__global__ void count_then_peek(int* out, int store) {
    __shared__ int count;
    if (threadIdx.x == 0) count = 0;
    __syncthreads();
    if (threadIdx.x < 32) atomicAdd(&count, 1);
    if (threadIdx.x == 1) out[1] = store ? (count = 7) : count;
    __syncthreads();
    if (threadIdx.x == 0) out[0] = count;
}

// A polymorphic object built in shared memory with placement new: its
// constructor writes the pointer to its virtual functions, which a virtual
// call reads.
struct Shape {
    virtual ~Shape() = default;
    virtual int corners() const { return 0; }
};
struct Square : Shape {
    int corners() const override { return 4; }
};
__global__ void virtual_call_in_shared(int* out) {
    alignas(Square) __shared__ unsigned char storage[sizeof(Square)];
    __shared__ Shape* shape;
    if (threadIdx.x == 0) shape = new (storage) Square();
    __syncthreads();
    out[threadIdx.x] = shape->corners();
}

// The mistakes of malloc() and free() in a kernel that a GPU's memcheck and
// initcheck report (results/device-heap-probe-h200.txt), one a launch.
enum class HeapMistake { read_unwritten, write_past_end, free_twice, free_cudamalloced, use_after_free };
__global__ void heap_mistake(int* out, HeapMistake mistake) {
    int* piece = static_cast<int*>(malloc(64));  // 16 ints
    switch (mistake) {
        case HeapMistake::read_unwritten: out[0] = piece[3]; break;
        case HeapMistake::write_past_end: piece[16] = 1; break;
        case HeapMistake::free_twice: free(piece); break;
        case HeapMistake::free_cudamalloced: free(out); break;
        case HeapMistake::use_after_free:
            piece[0] = 1;
            free(piece);
            out[0] = piece[0];
            return;
    }
    free(piece);
}

// Each thread writes its own byte of shared memory and its own 2-byte element
// of global memory (four threads to a word); `early` reads a neighbour's byte
// before the barrier.
__global__ void own_small_elements(short* out, int early) {
    __shared__ unsigned char flags[64];
    const unsigned tid = threadIdx.x;
    flags[tid] = static_cast<unsigned char>(tid);
    const unsigned char seen = early ? flags[(tid + 1) % 64] : 0;
    __syncthreads();
    out[tid] = static_cast<short>(flags[63 - tid] + seen);
}

// Each warp's lane 0 writes its warp's sum to sums[warp]; then warp 0 sums
// all 32 elements of sums, where only `warps` were written (a block of
// 4 warps leaves sums[4..31] as they were).
__global__ void sum_of_warp_sums(const int* in, int* out) {
    __shared__ int sums[32];
    int value = in[threadIdx.x];
    for (int offset = 16; offset > 0; offset /= 2) value += __shfl_xor_sync(kFull, value, offset);
    if (threadIdx.x % 32 == 0) sums[threadIdx.x / 32] = value;
    __syncthreads();
    if (threadIdx.x < 32) {
        value = sums[threadIdx.x];
        for (int offset = 16; offset > 0; offset /= 2) value += __shfl_xor_sync(kFull, value, offset);
        if (threadIdx.x == 0) *out = value;
    }
}

// Reads float4s from `in + offset`: misaligned unless offset is a multiple of 4.
__global__ void float4_from(const float* in, float* out, int offset) {
    const float4 v = reinterpret_cast<const float4*>(in + offset)[threadIdx.x];
    out[threadIdx.x] = v.x + v.y + v.z + v.w;
}

}  // namespace

TEST_CASE("a buffer read after cudaFree is named as freed", "[diagnostics][free]") {
    DeviceBuffer<float> out(32);
    float* stale = nullptr;
    check_cuda(cudaMalloc(&stale, 64 * sizeof(float)));
    check_cuda(cudaFree(stale));
    const std::string message = fault_of([&] { launch(float4_from, {1, 4}, stale, out.data(), 0); });
    expect_says(
        message,
        {"out-of-bounds read of 16 bytes by thread 0 (warp 0, lane 0) at cpu-cuda/tests/diagnostics.cu:",
         "byte 0 of a buffer of 256 bytes that cudaFree has released (a use after free)"});
}

TEST_CASE("a float4 load from an address that is not a multiple of 16 is the GPU's misaligned address",
          "[diagnostics][alignment]") {
    auto in = ones(4 * 33);
    DeviceBuffer<float> out(32);
    launch(float4_from, {1, 32}, in.data(), out.data(), 4);
    warpdrill::check_launch();
    for (const float value : out.download()) CHECK(value == 4.0f);
    const std::string message = fault_of([&] { launch(float4_from, {1, 32}, in.data(), out.data(), 1); });
    expect_says(message,
                {"misaligned 16-byte read by thread 0 (warp 0, lane 0) at cpu-cuda/tests/diagnostics.cu:",
                 "is not a multiple of 16 (a GPU stops the kernel with cudaErrorMisalignedAddress"});
}

TEST_CASE("an atomicAdd into an accumulator that nothing set is initcheck's uninitialized read, at the learner's line",
          "[diagnostics][uninitialized]") {
    auto in = ones(1000);
    DeviceBuffer<float> total(1);
    const std::string message = fault_of([&] { launch(accumulate, {4, 256}, in.data(), total.data(), 1000); });
    INFO(message);
    CHECK(contains(message, "uninitialized atomic or volatile read of 4 bytes by thread 0 (warp 0, lane 0) at "
                            "cpu-cuda/tests/diagnostics.cu:"));
    CHECK(contains(message, "atomicAdd(total, in[i]);"));
    CHECK(contains(message, "total[0], byte 0 of a buffer of 4 bytes (cudaMalloc'd) has never been written"));
    CHECK(contains(message, "cudaMemset an accumulator first"));
    CHECK_FALSE(contains(message, "/usr/"));  // no frame of the standard library
    CHECK_FALSE(contains(message, "through"));  // nor of the backend's atomicAdd

    check_cuda(cudaMemset(total.data(), 0, sizeof(float)));
    launch(accumulate, {4, 256}, in.data(), total.data(), 1000);
    warpdrill::check_launch();
    CHECK(total.download()[0] == 1000.0f);
}

namespace {
// The index of the element `name[i]` that the message names after the quoted source line, or -1.
long element_named(const std::string& message, const std::string& name) {
    const std::string before = "`: " + name + "[";
    const std::size_t at = message.find(before);
    return at == std::string::npos ? -1 : std::stol(message.substr(at + before.size()));
}
}  // namespace

TEST_CASE("a read past what cudaMemcpy wrote names an unwritten element", "[diagnostics][uninitialized]") {
    const std::size_t n = GENERATE(std::size_t{1000}, std::size_t{100000});  // race-checked, and bounds-only
    CAPTURE(n);
    const std::vector<float> host(n, 1.0f);
    DeviceBuffer<float> in(n), out(n);
    check_cuda(cudaMemcpy(in.data(), host.data(), n / 2 * sizeof(float), cudaMemcpyHostToDevice));
    const int blocks = static_cast<int>((n + 255) / 256);
    const std::string message =
        fault_of([&] { launch(copy_through, {blocks, 256}, in.data(), out.data(), static_cast<int>(n)); });
    INFO(message);
    CHECK(contains(message, "uninitialized read of 4 bytes by thread "));
    CHECK(element_named(message, "in") >= static_cast<long>(n / 2));  // blocks run in any order
    CHECK(contains(message, "out[i] = in[i];"));

    // Device to device: what was unwritten in the source stays so in the copy.
    DeviceBuffer<float> copy(n);
    check_cuda(cudaMemcpy(copy.data(), in.data(), n * sizeof(float), cudaMemcpyDeviceToDevice));
    const std::string copied =
        fault_of([&] { launch(copy_through, {blocks, 256}, copy.data(), out.data(), static_cast<int>(n)); });
    CHECK(element_named(copied, "in") >= static_cast<long>(n / 2));

    check_cuda(cudaMemcpy(in.data(), host.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    launch(copy_through, {blocks, 256}, in.data(), out.data(), static_cast<int>(n));
    warpdrill::check_launch();
    CHECK(out.download() == host);
}

TEST_CASE("what a kernel stores, and an atomicExch, count as written", "[diagnostics][uninitialized]") {
    auto in = ones(512);
    DeviceBuffer<float> middle(512), out(512);
    launch(copy_through, {2, 256}, in.data(), middle.data(), 512);
    launch(copy_through, {2, 256}, middle.data(), out.data(), 512);
    warpdrill::check_launch();
    CHECK(out.download() == std::vector<float>(512, 1.0f));
    DeviceBuffer<unsigned> flag(1);
    launch(raise_flag, {1, 32}, flag.data());
    warpdrill::check_launch();
    CHECK(flag.download()[0] == 1u);
}

TEST_CASE("a host array's pointer given to a kernel is named as host memory", "[diagnostics][host]") {
    const int n = GENERATE(64, 1 << 18);  // checked in full, and a launch too large to check
    CAPTURE(n);
    std::vector<float> host(static_cast<std::size_t>(n), 1.0f);
    DeviceBuffer<float> in(static_cast<std::size_t>(n)), out(static_cast<std::size_t>(n));
    check_cuda(cudaMemcpy(in.data(), host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice));
    const std::string message = fault_of([&] {
        launch(copy_through, {static_cast<unsigned>((n + 255) / 256), 256}, host.data(), out.data(), n);
    });
    INFO(message);
    if (n == 64) {  // a launch too large to check runs at full speed: host memory is read as it is
        CHECK(contains(message, "read of 4 bytes by thread "));
        CHECK(contains(message, "out[i] = in[i];"));
        CHECK(contains(message, "in host memory: the kernel's argument in points to pageable host memory"));
    }

    // Pinned host memory is the GPU's to reach (zero-copy).
    float* pinned = nullptr;
    check_cuda(cudaMallocHost(&pinned, 64 * sizeof(float)));
    std::fill(pinned, pinned + 64, 2.0f);
    launch(copy_through, {1, 64}, static_cast<const float*>(pinned), out.data(), 64);
    warpdrill::check_launch();
    CHECK(out.download()[63] == 2.0f);
    check_cuda(cudaFreeHost(pinned));
}

TEST_CASE("a __syncthreads() inside a course helper is named at the learner's call of the helper",
          "[diagnostics][barrier]") {
    // 96 elements, 64 threads: warp 0 goes round twice, warp 1 leaves after one round.
    auto in = ones(96);
    DeviceBuffer<float> out(2);
    const std::string message = fault_of([&] { launch(block_sums_in_a_loop, {1, 64}, in.data(), out.data(), 96); });
    INFO(message);
    CHECK(contains(message, "at cpu-cuda/tests/diagnostics.cu:"));
    CHECK(contains(message, "(through reduce.cuh:"));
    CHECK(contains(message, "in warpdrill::block_all_reduce)"));
    CHECK(contains(message, "it sits inside the loop `for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;"));
    CHECK(contains(message, "which those threads left after fewer rounds"));
    CHECK_FALSE(contains(message, "/usr/"));

    // A shuffle inside the helper that reads a lane which has left: named at the learner's call too.
    const std::string shuffle = fault_of([&] { launch(block_sums_in_a_loop, {1, 64}, in.data(), out.data(), 80); });
    expect_says(shuffle,
                {"is at __shfl_xor_sync() at cpu-cuda/tests/diagnostics.cu:", "(through reduce.cuh:"});
}

TEST_CASE("reading shared memory that no thread of the block wrote is a warning beside the result",
          "[diagnostics][uninitialized]") {
    warpdrill::cpu::take_warnings();
    const std::vector<int> host(128, 1);
    DeviceBuffer<int> in{std::span<const int>(host)}, out(1);
    launch(sum_of_warp_sums, {1, 128}, in.data(), out.data());
    warpdrill::check_launch();
    const std::vector<std::string> warnings = warpdrill::cpu::take_warnings();
    REQUIRE(warnings.size() == 1);
    CHECK(contains(warnings[0], "thread 4 (warp 0, lane 4) read sums[4] at cpu-cuda/tests/diagnostics.cu:"));
    CHECK(contains(warnings[0], "which no thread of the block has written"));

    launch(sum_of_warp_sums, {1, 1024}, DeviceBuffer<int>(std::vector<int>(1024, 1)).data(), out.data());
    warpdrill::check_launch();
    CHECK(out.download()[0] == 1024);
    CHECK(warpdrill::cpu::take_warnings().empty());
}

// Writes out[i] for the threads of the grid below n.
__global__ void write_below(int* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = i;
}

TEST_CASE("a copy to the host of bytes that nothing wrote is a warning, as initcheck reports it",
          "[diagnostics][uninitialized]") {
    warpdrill::cpu::take_warnings();
    constexpr int n = 1024;
    DeviceBuffer<int> out(n);
    launch(write_below, {1, 256}, out.data(), n);  // three blocks short
    warpdrill::check_launch();
    std::vector<int> host(n);
    check_cuda(cudaMemcpy(host.data(), out.data(), 256 * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(warpdrill::cpu::take_warnings().empty());  // the written part alone
    check_cuda(cudaMemcpy(host.data(), out.data(), n * sizeof(int), cudaMemcpyDeviceToHost));
    const std::vector<std::string> warnings = warpdrill::cpu::take_warnings();
    REQUIRE(warnings.size() == 1);
    expect_says(warnings[0], {"cudaMemcpy at cpu-cuda/tests/diagnostics.cu:",
                              "copied 4096 bytes to the host, 3072 of which nothing had written",
                              "the first is byte 1024 of a buffer of 4096 bytes",
                              "A kernel's store at cpu-cuda/tests/diagnostics.cu:", "initcheck"});

    // A copy is checked when it runs, after the kernel queued before it on its stream.
    cudaStream_t stream;
    check_cuda(cudaStreamCreate(&stream));
    int* pinned = nullptr;
    check_cuda(cudaMallocHost(&pinned, n * sizeof(int)));
    DeviceBuffer<int> queued(n);
    write_below<<<n / 256, 256, 0, stream>>>(queued.data(), n);
    check_cuda(cudaMemcpyAsync(pinned, queued.data(), n * sizeof(int), cudaMemcpyDeviceToHost, stream));
    check_cuda(cudaStreamSynchronize(stream));
    CHECK(pinned[n - 1] == n - 1);
    CHECK(warpdrill::cpu::take_warnings().empty());
    check_cuda(cudaFreeHost(pinned));
    check_cuda(cudaStreamDestroy(stream));
}

TEST_CASE("threads writing neighbouring bytes of one word do not race; reading one before the barrier does",
          "[diagnostics][race]") {
    DeviceBuffer<short> out(64);
    launch(own_small_elements, {1, 64}, out.data(), 0);
    warpdrill::check_launch();
    const std::vector<short> got = out.download();
    for (int tid = 0; tid < 64; ++tid) CHECK(got[tid] == 63 - tid);

    const std::string message = fault_of([&] { launch(own_small_elements, {1, 64}, out.data(), 1); });
    expect_says(message, {"race on flags[", "flags[(tid + 1) % 64]"});
}

TEST_CASE("lanes of one warp writing the same value are a warning beside the result, other values a race",
          "[diagnostics][race]") {
    warpdrill::cpu::take_warnings();
    DeviceBuffer<int> out(64);
    launch(warp_writes_flag, {1, 64}, out.data(), 1);
    warpdrill::check_launch();
    for (const int value : out.download()) CHECK(value == 1);
    const std::vector<std::string> warnings = warpdrill::cpu::take_warnings();
    REQUIRE(warnings.size() == 1);
    CHECK(contains(warnings[0], "lanes of one warp wrote the same value to flag"));

    const std::string message = fault_of([&] { launch(warp_writes_flag, {1, 64}, out.data(), 0); });
    expect_says(message, {"race on flag"});
}

TEST_CASE(
    "an atomic update and a plain read of shared memory unordered are a warning, as racecheck is silent",
    "[diagnostics][race]") {
    warpdrill::cpu::take_warnings();
    DeviceBuffer<int> out(2);
    launch(count_then_peek, {1, 64}, out.data(), 0);
    warpdrill::check_launch();
    CHECK(out.download()[0] == 32);
    const std::vector<std::string> warnings = warpdrill::cpu::take_warnings();
    REQUIRE(warnings.size() == 1);
    expect_says(warnings[0], {"read count", "with a plain load", "updated it with an atomic",
                              "racecheck reports no hazard", "data race"});
    // A plain store among the atomics is a race still.
    const std::string message = fault_of([&] { launch(count_then_peek, {1, 64}, out.data(), 1); });
    expect_says(message, {"race on count"});
}

TEST_CASE("an object built in shared memory with placement new has written its virtual functions' pointer",
          "[diagnostics][initcheck]") {
    warpdrill::cpu::take_warnings();
    DeviceBuffer<int> out(64);
    launch(virtual_call_in_shared, {1, 64}, out.data());
    warpdrill::check_launch();
    for (const int corners : out.download()) CHECK(corners == 4);
    CHECK(warpdrill::cpu::take_warnings().empty());
}

TEST_CASE("malloc() and free() in a kernel: the mistakes memcheck and initcheck report there",
          "[diagnostics][device-heap]") {
    DeviceBuffer<int> out(16);
    const auto fault_with = [&](HeapMistake mistake) {
        return fault_of([&] { launch(heap_mistake, {1, 1}, out.data(), mistake); });
    };
    expect_says(fault_with(HeapMistake::read_unwritten),
                {"uninitialized read of 4 bytes", "64 bytes (malloc() in a kernel)"});
    expect_says(fault_with(HeapMistake::write_past_end),
                {"out-of-bounds write of 4 bytes", "byte 64 of a buffer of 64 bytes (malloc() in a kernel)"});
    expect_says(fault_with(HeapMistake::free_twice), {"(a double free)", "Device-side double free"});
    expect_says(fault_with(HeapMistake::free_cudamalloced),
                {"a pointer that malloc() in a kernel did not give", "Invalid pointer to device-side free"});
    expect_says(fault_with(HeapMistake::use_after_free), {"cpu-cuda/tests/diagnostics.cu:"});
}

TEST_CASE("a race within a warp names both lines, both lanes, the element and __syncwarp()", "[diagnostics][race]") {
    auto in = ones(64);
    DeviceBuffer<float> out(1);
    const std::string message = fault_of([&] { launch(volatile_last_warp, {1, 32}, in.data(), out.data()); });
    expect_says(message, {"race on partial[", "cpu-cuda/tests/broken_kernels.cuh:", ": `v[tid] += v[tid + ",
                          "(warp 0, lane ", "lanes of one warp and no __syncwarp()"});
}

TEST_CASE("a tree step without its barrier is a race across warps", "[diagnostics][race]") {
    auto in = ones(256);
    DeviceBuffer<float> out(1);
    const std::string message = fault_of([&] { launch(tree_without_barrier, {1, 256}, in.data(), out.data()); });
    expect_says(message, {"race on partial[", "if (tid < stride) partial[tid] += partial[tid + stride];",
                          "and nothing orders the two"});
}

TEST_CASE("reading a neighbour's shared element before the barrier is a race", "[diagnostics][race]") {
    auto in = ones(128);
    DeviceBuffer<float> out(128);
    const std::string message = fault_of([&] { launch(read_before_barrier, {1, 128}, in.data(), out.data()); });
    expect_says(message, {"race on staged[", "out[tid] = staged[(tid + 64) % 128];", "staged[tid] = in[tid];",
                          "different warps and no __syncthreads()"});
}

TEST_CASE("a += on one global element from two blocks is a race", "[diagnostics][race]") {
    auto in = ones(8);
    DeviceBuffer<float> total(1);
    const std::string message = fault_of([&] { launch(plain_add_from_blocks, {8, 32}, in.data(), total.data()); });
    expect_says(message, {"race on total[0]", "of block ("});
}

TEST_CASE("reading the partials after a ticket that is not the last is named", "[diagnostics][race]") {
    TicketSum sum;
    const std::string message = fault_of([&] { sum.launch(every_block_reads_partials); });
    INFO(message);
    CHECK(contains(message, "race on partials["));
    // A block read a partial before its block wrote it; or after, but before that block's __threadfence(); or
    // after both, but with its own ticket taken before that block's: which one the backend sees first depends on
    // how the workers interleave (the second came up on a fresh Debian 13 once the backend ran faster).
    CHECK((contains(message, "the reader's atomics (a ticket) all came before this write") ||
           contains(message, "made no __threadfence() after writing it") ||
           contains(message, "no atomic (a ticket) this block took came after block")));
}

TEST_CASE("reading the partials before the last block is known is named", "[diagnostics][race]") {
    auto in = ones(16);
    DeviceBuffer<float> partials(16), total(1);
    const std::string message =
        fault_of([&] { launch(read_partials_early, {16, 32}, in.data(), partials.data(), total.data()); });
    expect_says(message, {"race on partials[", "no atomic (a ticket)"});
}

TEST_CASE("the fence-and-ticket handshake is not a race", "[diagnostics][race]") {
    TicketSum sum;
    sum.launch(ticket_with_fence);
    warpdrill::check_launch();
    CHECK(sum.totals.download()[0] == 16.0f);
}

TEST_CASE("a write past a static __shared__ array names the array, index and line", "[diagnostics][bounds]") {
    DeviceBuffer<float> out(64);
    const std::string direct = fault_of([&] { launch(past_static_shared, {1, 64}, out.data()); });
    expect_says(direct, {"index 64 is past the end of an array of type 'float [64]'",
                         "s[threadIdx.x + 1] = 1.0f;", "thread 63 (warp 1, lane 31)"});
}

TEST_CASE("a read past a cudaMalloc'd buffer names the argument and element", "[diagnostics][bounds]") {
    auto in = ones(64);
    DeviceBuffer<float> out(64);
    const std::string message = fault_of([&] { launch(past_global, {1, 64}, in.data(), out.data()); });
    expect_says(message,
                {"out-of-bounds read of 4 bytes by thread 63", "in[64], byte 256 of a buffer of 256 bytes",
                 "out[threadIdx.x] = in[threadIdx.x + 1];"});
}

TEST_CASE("an access past the dynamic shared memory the launch asked for", "[diagnostics][bounds]") {
    DeviceBuffer<float> out(64);
    const std::string message =
        fault_of([&] { launch(past_dynamic_shared, {1, 64, 63 * sizeof(float)}, out.data()); });
    expect_says(message, {"out-of-bounds write of 4 bytes by thread 63",
                          "byte 252 of the dynamic shared memory, which has 252 bytes"});
}

// Rank 0 of each cluster of 2 reads one element past rank 1's array,
// through the pointer map_shared_rank gave it: in a __shared__ array, or in
// the dynamic shared memory (64 ints).
__global__ void read_past_mapped_array(int* out) {
    __shared__ int values[64];
    const auto cluster = cooperative_groups::this_cluster();
    values[threadIdx.x] = 1;
    cluster.sync();
    const int* theirs = cluster.map_shared_rank(values, 1);
    if (cluster.block_rank() == 0) out[threadIdx.x] = theirs[threadIdx.x + 1];
    cluster.sync();
}

__global__ void read_past_mapped_dynamic_shared(int* out) {
    WARPDRILL_DYNAMIC_SHARED(int, values);
    const auto cluster = cooperative_groups::this_cluster();
    values[threadIdx.x] = 1;
    cluster.sync();
    const int* theirs = cluster.map_shared_rank(values, 1);
    if (cluster.block_rank() == 0) out[threadIdx.x] = theirs[threadIdx.x + 1];
    cluster.sync();
}

// Two blocks of 64 threads, one cluster.
void launch_one_cluster(void (*kernel)(int*), std::size_t dynamic_smem_bytes, int* out) {
    check_cuda(warpdrill::testing::launch_clusters(kernel, 2, 64, 2, false, dynamic_smem_bytes, out));
    warpdrill::check_launch();
}

TEST_CASE("an access past another block's shared memory, through map_shared_rank's pointer",
          "[diagnostics][bounds]") {
    DeviceBuffer<int> out(64);
    std::string message = fault_of([&] { launch_one_cluster(read_past_mapped_array, 0, out.data()); });
    INFO(message);
    CHECK(contains(message, "in block (0,0,0): out-of-bounds read of 4 bytes by thread 63"));
    CHECK(contains(message, "out[threadIdx.x] = theirs[threadIdx.x + 1];"));
    CHECK(contains(message,
                   "byte 256 of the __shared__ array values of block rank 1, which has 256 bytes (mapped by "
                   "this_cluster().map_shared_rank())"));
    message = fault_of([&] { launch_one_cluster(read_past_mapped_dynamic_shared, 64 * sizeof(int), out.data()); });
    INFO(message);
    CHECK(contains(message, "byte 256 of the dynamic shared memory of block rank 1, which has 256 bytes"));
}

TEST_CASE("a shuffle width that is not a power of two", "[diagnostics][shuffle]") {
    DeviceBuffer<int> out(32);
    const std::string message = fault_of([&] { launch(shuffle_width_three, {1, 32}, out.data()); });
    expect_says(message, {"was called with width 3: width must be a power of two from 1 to 32",
                          "cpu-cuda/tests/diagnostics.cu:"});
}

TEST_CASE("a shuffle that reads a lane outside its mask", "[diagnostics][shuffle]") {
    DeviceBuffer<int> out(32);
    const std::string message = fault_of([&] { launch(shuffle_outside_mask, {1, 32}, out.data()); });
    expect_says(message, {"thread 15 (warp 0, lane 15) is at __shfl_down_sync()",
                          "so it reads lane 16, which is not in the mask"});
}

TEST_CASE("a thread that spins on a flag another thread sets runs to completion", "[diagnostics][spin]") {
    DeviceBuffer<int> flag(1), out(1);
    check_cuda(cudaMemset(flag.data(), 0, sizeof(int)));
    launch(spin_on_flag, {1, 32}, flag.data(), out.data());
    warpdrill::check_launch();
    CHECK(out.download()[0] == 1);
}

TEST_CASE("a spin that nobody can end is named, not left to hang", "[diagnostics][spin]") {
    DeviceBuffer<int> flag(1);
    check_cuda(cudaMemset(flag.data(), 0, sizeof(int)));
    const std::string message = fault_of([&] { launch(spin_forever, {1, 64}, flag.data()); });
    expect_says(message, {"thread 0 keeps reading one address, waiting for a value that no thread writes",
                          "is at __syncthreads()"});
}
