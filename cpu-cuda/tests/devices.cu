// Several GPUs, streams and events on the CPU backend: each GPU's memory is
// its own unless peer access is enabled, work queued on streams runs when a
// synchronisation needs it, in an order that keeps exactly CUDA's promises
// and puts a consumer whose wait is missing before its producer. The kernels
// are instrumented as the lessons' are, so this file is a kernel source.
#include <string>
#include <thread>
#include <vector>

#include "fault_of.h"
#include "handles.h"
#include "warpdrill/catch.h"
#include "warpdrill/cuda.h"
#include "warpdrill/host.h"

using warpdrill::check_cuda;
using warpdrill::DeviceBuffer;
using warpdrill::launch;
using warpdrill::cpu::ScopedStreamOrder;
using warpdrill::cpu::StreamOrder;
using warpdrill::testing::contains;
using warpdrill::testing::Event;
using warpdrill::testing::fault_of;
using warpdrill::testing::Stream;

namespace {

__global__ void fill(float* out, float value, int n) {
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i < n) out[i] = value;
}

__global__ void add_one(const float* in, float* out, int n) {
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i < n) out[i] = in[i] + 1.0f;
}

dim3 blocks_for(int n) { return dim3(static_cast<unsigned>((n + 255) / 256)); }

// Sets the current GPU for the scope, then back to GPU 0.
struct OnDevice {
    explicit OnDevice(int device) { check_cuda(cudaSetDevice(device)); }
    ~OnDevice() { cudaSetDevice(0); }
};

float first_of(const DeviceBuffer<float>& buffer) { return buffer.download().front(); }

// What a consumer (add_one) read of its producer's 5s, once the GPU is done;
// the producer's buffer back to 0 for the next run.
float consumed_then_reset(const DeviceBuffer<float>& consumed, DeviceBuffer<float>& produced) {
    check_cuda(cudaDeviceSynchronize());
    const float result = first_of(consumed);
    check_cuda(cudaMemset(produced.data(), 0, produced.size() * sizeof(float)));
    return result;
}

// `run(ordered)` runs a producer and its consumer, ordered or not, and gives
// what the consumer read: where the order is missing, the consumer runs first
// every time, and in the order queued the mistake goes unseen.
template <class Run>
void expect_missing_order_shown(Run run) {
    CHECK(run(false) == 1.0f);  // read the 0 that was there before the producer ran
    CHECK(run(true) == 6.0f);
    ScopedStreamOrder in_order(StreamOrder::queued);
    CHECK(run(false) == 6.0f);
}

}  // namespace

TEST_CASE("four GPUs by default, the current one per host thread", "[devices]") {
    int count = 0;
    check_cuda(cudaGetDeviceCount(&count));
    CHECK(count == 4);
    OnDevice two(2);
    int device = -1;
    check_cuda(cudaGetDevice(&device));
    CHECK(device == 2);
    int other_thread_device = -1;
    std::thread([&] { cudaGetDevice(&other_thread_device); }).join();
    CHECK(other_thread_device == 0);
    CHECK(cudaSetDevice(count) == cudaErrorInvalidDevice);
    CHECK(cudaGetLastError() == cudaErrorInvalidDevice);
    int can_access = -1;
    check_cuda(cudaDeviceCanAccessPeer(&can_access, 0, 3));
    CHECK(can_access == 1);
    check_cuda(cudaDeviceCanAccessPeer(&can_access, 1, 1));
    CHECK(can_access == 0);
}

TEST_CASE("a kernel that touches another GPU's memory faults, naming both GPUs, until peer access",
          "[devices][peer]") {
    for (const int n : {64, 1 << 18}) {  // checked in full, and at full speed
        CAPTURE(n);
        DeviceBuffer<float> on_zero(std::vector<float>(static_cast<std::size_t>(n), 1.0f));
        OnDevice one(1);
        DeviceBuffer<float> on_one(static_cast<std::size_t>(n));
        const std::string message = fault_of([&] {
            launch(add_one, {blocks_for(n), 256}, on_zero.data(), on_one.data(), n);
            check_cuda(cudaDeviceSynchronize());
        });
        CAPTURE(message);
        CHECK(contains(message, "in the memory of GPU 0, but the kernel runs on GPU 1"));
        CHECK(contains(message, "GPU 1 has no peer access to GPU 0"));
        CHECK(contains(message, "cpu-cuda/tests/devices.cu:"));
        if (n == 64) CHECK(contains(message, "the address is in[0]"));

        check_cuda(cudaDeviceEnablePeerAccess(0, 0));
        CHECK(cudaDeviceEnablePeerAccess(0, 0) == cudaErrorPeerAccessAlreadyEnabled);
        CHECK(cudaGetLastError() == cudaErrorPeerAccessAlreadyEnabled);
        launch(add_one, {blocks_for(n), 256}, on_zero.data(), on_one.data(), n);
        check_cuda(cudaDeviceSynchronize());
        check_cuda(cudaDeviceDisablePeerAccess(0));
        CHECK(cudaDeviceDisablePeerAccess(0) == cudaErrorPeerAccessNotEnabled);
        cudaGetLastError();
    }
}

TEST_CASE("managed memory is every GPU's: a kernel on another GPU touches it without peer access",
          "[devices][peer][managed]") {
    for (const int n : {64, 1 << 18}) {  // checked in full, and at full speed
        CAPTURE(n);
        float* managed = nullptr;
        check_cuda(cudaMallocManaged(&managed, n * sizeof(float)));
        {
            OnDevice one(1);
            DeviceBuffer<float> on_one(static_cast<std::size_t>(n));
            launch(add_one, {blocks_for(n), 256}, managed, on_one.data(), n);
            launch(add_one, {blocks_for(n), 256}, on_one.data(), managed, n);
            check_cuda(cudaDeviceSynchronize());
        }
        CHECK(managed[0] == 2.0f);
        CHECK(managed[n - 1] == 2.0f);
        check_cuda(cudaFree(managed));
    }
}

TEST_CASE("work goes on a stream of the current GPU; an event records on its own GPU's streams",
          "[devices][streams]") {
    Stream on_zero;
    Event event_of_zero;
    OnDevice one(1);
    DeviceBuffer<float> out(4);
    launch(fill, {1, 32, 0, on_zero}, out.data(), 1.0f, 4);
    CHECK(cudaGetLastError() == cudaErrorInvalidResourceHandle);
    CHECK(cudaEventRecord(event_of_zero, nullptr) == cudaErrorInvalidResourceHandle);
    // Copies and waits may name another GPU's stream.
    CHECK(cudaStreamWaitEvent(on_zero, event_of_zero) == cudaSuccess);
    CHECK(cudaMemsetAsync(out.data(), 0, 4 * sizeof(float), on_zero) == cudaSuccess);
    check_cuda(cudaDeviceSynchronize());
    cudaGetLastError();
}

TEST_CASE("peer copies name each side's GPU and stay inside their buffers", "[devices][peer]") {
    DeviceBuffer<float> on_zero(std::vector<float>(8, 3.0f));
    OnDevice two(2);
    DeviceBuffer<float> on_two(8);
    Stream stream;
    check_cuda(cudaMemcpyPeerAsync(on_two.data(), 2, on_zero.data(), 0, 8 * sizeof(float), stream));
    check_cuda(cudaStreamSynchronize(stream));
    CHECK(on_two.download() == std::vector<float>(8, 3.0f));
    CHECK(cudaMemcpyPeerAsync(on_two.data(), 0, on_zero.data(), 2, 8 * sizeof(float), stream) ==
          cudaErrorInvalidValue);
    CHECK(cudaMemcpyPeerAsync(on_two.data(), 2, on_zero.data(), 0, 9 * sizeof(float), stream) ==
          cudaErrorInvalidValue);
    CHECK(cudaMemcpyPeer(on_two.data(), 2, on_zero.data(), 7, 4) == cudaErrorInvalidDevice);
    cudaGetLastError();
}

TEST_CASE("a consumer on another stream with no wait runs before its producer; with the wait, after",
          "[devices][streams]") {
    constexpr int n = 256;
    DeviceBuffer<float> produced(std::vector<float>(n, 0.0f));
    DeviceBuffer<float> consumed(n);
    Stream producer, consumer;
    Event done;
    const auto run = [&](bool wait) {
        launch(fill, {blocks_for(n), 256, 0, producer}, produced.data(), 5.0f, n);
        check_cuda(cudaEventRecord(done, producer));
        if (wait) check_cuda(cudaStreamWaitEvent(consumer, done));
        launch(add_one, {blocks_for(n), 256, 0, consumer}, produced.data(), consumed.data(), n);
        return consumed_then_reset(consumed, produced);
    };
    expect_missing_order_shown(run);
}

TEST_CASE("a graph's node with no dependency on its producer runs before it; with one, after",
          "[devices][streams][graphs]") {
    constexpr int n = 64;
    DeviceBuffer<float> produced(std::vector<float>(n, 0.0f));
    DeviceBuffer<float> consumed(n);
    float* in = produced.data();
    float* out = consumed.data();
    float five = 5.0f;
    int count = n;
    void* fill_arguments[] = {&in, &five, &count};
    void* add_arguments[] = {&in, &out, &count};
    const auto node = [](void* kernel, void** arguments) {
        cudaKernelNodeParams params{};
        params.func = kernel;
        params.gridDim = blocks_for(n);
        params.blockDim = dim3(256);
        params.kernelParams = arguments;
        return params;
    };
    const cudaKernelNodeParams producer = node((void*)fill, fill_arguments);
    const cudaKernelNodeParams consumer = node((void*)add_one, add_arguments);
    const auto run = [&](bool edge) {
        cudaGraph_t graph = nullptr;
        check_cuda(cudaGraphCreate(&graph, 0));
        cudaGraphNode_t first = nullptr, second = nullptr;
        check_cuda(cudaGraphAddKernelNode(&first, graph, nullptr, 0, &producer));
        check_cuda(cudaGraphAddKernelNode(&second, graph, &first, edge ? 1 : 0, &consumer));
        cudaGraphExec_t exec = nullptr;
        check_cuda(cudaGraphInstantiate(&exec, graph, 0));
        check_cuda(cudaGraphLaunch(exec, nullptr));
        check_cuda(cudaDeviceSynchronize());
        cudaGraphExecDestroy(exec);
        cudaGraphDestroy(graph);
        return consumed_then_reset(consumed, produced);
    };
    expect_missing_order_shown(run);
}

TEST_CASE("a kernel queued after cudaFreeAsync of its buffer is named, as on a freed buffer",
          "[devices][streams][stream-ordered]") {
    constexpr int n = 256;
    Stream stream(cudaStreamNonBlocking);
    float* buffer = nullptr;
    check_cuda(cudaMallocAsync(&buffer, n * sizeof(float), stream));
    launch(fill, {1, n, 0, stream}, buffer, 1.0f, n);
    check_cuda(cudaFreeAsync(buffer, stream));
    launch(fill, {1, n, 0, stream}, buffer, 2.0f, n);
    const std::string message = fault_of([&] { check_cuda(cudaStreamSynchronize(stream)); });
    INFO(message);
    CHECK(contains(message, "a use after free"));
}

TEST_CASE("a wait for an event recorded later waits for nothing", "[devices][streams]") {
    DeviceBuffer<float> produced(std::vector<float>(32, 0.0f));
    DeviceBuffer<float> consumed(32);
    Stream producer, consumer;
    Event done;
    ScopedStreamOrder in_order(StreamOrder::queued);
    check_cuda(cudaStreamWaitEvent(consumer, done));
    launch(add_one, {1, 32, 0, consumer}, produced.data(), consumed.data(), 32);
    launch(fill, {1, 32, 0, producer}, produced.data(), 5.0f, 32);
    check_cuda(cudaEventRecord(done, producer));
    check_cuda(cudaDeviceSynchronize());
    CHECK(first_of(consumed) == 1.0f);
}

TEST_CASE("the default stream waits for the GPU's blocking streams, not for non-blocking ones",
          "[devices][streams]") {
    for (const unsigned flags : {cudaStreamDefault, cudaStreamNonBlocking}) {
        CAPTURE(flags);
        DeviceBuffer<float> produced(std::vector<float>(32, 0.0f));
        DeviceBuffer<float> consumed(32);
        Stream stream(flags);
        launch(fill, {1, 32, 0, stream}, produced.data(), 5.0f, 32);
        launch(add_one, {1, 32}, produced.data(), consumed.data(), 32);
        check_cuda(cudaStreamSynchronize(nullptr));
        CHECK(first_of(consumed) == (flags == cudaStreamDefault ? 6.0f : 1.0f));
    }
}

TEST_CASE("a stream's synchronisation runs what that stream needs and no more", "[devices][streams]") {
    DeviceBuffer<float> first(std::vector<float>(32, 0.0f)), second(std::vector<float>(32, 0.0f));
    Stream a, b(cudaStreamNonBlocking);
    Event timed_start, timed_end;
    const std::uint64_t waits = warpdrill::cpu::host_waits();
    check_cuda(cudaEventRecord(timed_start, a));
    launch(fill, {1, 32, 0, a}, first.data(), 1.0f, 32);
    launch(fill, {1, 32, 0, b}, second.data(), 2.0f, 32);
    check_cuda(cudaEventRecord(timed_end, a));
    float ms = -1.0f;
    CHECK(cudaEventElapsedTime(&ms, timed_start, timed_end) == cudaErrorNotReady);
    cudaGetLastError();
    CHECK(warpdrill::cpu::host_waits() == waits);
    check_cuda(cudaStreamSynchronize(a));
    CHECK(warpdrill::cpu::host_waits() == waits + 1);
    check_cuda(cudaEventElapsedTime(&ms, timed_start, timed_end));
    CHECK(ms >= 0.0f);
    CHECK(first_of(first) == 1.0f);
    CHECK(first_of(second) == 0.0f);  // the default stream does not wait for a non-blocking one
    check_cuda(cudaStreamSynchronize(b));
    CHECK(first_of(second) == 2.0f);
}

TEST_CASE("a kernel queued on a stream faults where the host waits for it", "[devices][streams]") {
    DeviceBuffer<float> small(32);
    Stream stream;
    launch(fill, {2, 32, 0, stream}, small.data(), 1.0f, 64);
    const std::string message = fault_of([&] { check_cuda(cudaStreamSynchronize(stream)); });
    CHECK(contains(message, "out-of-bounds write"));
    // The fault dropped the queue: the stream is empty and usable again.
    launch(fill, {1, 32, 0, stream}, small.data(), 1.0f, 32);
    check_cuda(cudaStreamSynchronize(stream));
    CHECK(first_of(small) == 1.0f);
}
