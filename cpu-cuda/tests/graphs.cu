// CUDA graphs: stream capture, nodes made one by one, executable graphs and
// their updates. The expected answers are an H200's (CUDA 13.0, driver 580;
// results/graphs-h200.txt). This file compiles with nvcc too: on a GPU it
// holds CUDA to the same answers.
#include <string>
#include <vector>

#include "warpdrill/catch.h"
#include "warpdrill/cuda.h"
#include "warpdrill/host.h"
#include "handles.h"

using warpdrill::check_cuda;
using warpdrill::DeviceBuffer;
using warpdrill::testing::Event;
using warpdrill::testing::Stream;

namespace {

__global__ void add_one(int* data, int n) {
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i < n) data[i] += 1;
}

__global__ void set_to(int* data, int value) { data[threadIdx.x] = value; }

__global__ void double_plus_one(int* data) { data[threadIdx.x] = 2 * data[threadIdx.x] + 1; }

void count_call(void* counter) { ++*static_cast<int*>(counter); }

cudaStreamCaptureStatus capture_status(cudaStream_t stream) {
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    check_cuda(cudaStreamIsCapturing(stream, &status));
    return status;
}

std::size_t node_count(cudaGraph_t graph) {
    std::size_t count = 0;
    check_cuda(cudaGraphGetNodes(graph, nullptr, &count));
    return count;
}

// Ends the capture of `stream` (begun with one kernel) after `call` has run
// inside it; returns what cudaStreamEndCapture returned, the graph destroyed.
template <class Call>
cudaError_t capture_around(cudaStream_t stream, cudaStreamCaptureMode mode, int* data, Call call) {
    check_cuda(cudaStreamBeginCapture(stream, mode));
    add_one<<<1, 32, 0, stream>>>(data, 32);
    call();
    cudaGraph_t graph = nullptr;
    const cudaError_t ended = cudaStreamEndCapture(stream, &graph);
    if (graph) cudaGraphDestroy(graph);
    cudaGetLastError();
    return ended;
}

}  // namespace

TEST_CASE("a captured stream's work becomes a graph, which runs each time it is launched",
          "[graphs][capture]") {
    DeviceBuffer<int> data(64);
    std::vector<int> host(64, -5);
    int calls = 0;
    Stream stream;
    CHECK(capture_status(stream) == cudaStreamCaptureStatusNone);
    check_cuda(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    CHECK(capture_status(stream) == cudaStreamCaptureStatusActive);
    check_cuda(cudaMemsetAsync(data.data(), 0, 64 * sizeof(int), stream));
    add_one<<<2, 32, 0, stream>>>(data.data(), 64);
    check_cuda(cudaGetLastError());
    check_cuda(cudaMemcpyAsync(host.data(), data.data(), 64 * sizeof(int), cudaMemcpyDeviceToHost, stream));
    check_cuda(cudaLaunchHostFunc(stream, count_call, &calls));
    cudaGraph_t graph = nullptr;
    check_cuda(cudaStreamEndCapture(stream, &graph));
    CHECK(capture_status(stream) == cudaStreamCaptureStatusNone);
    CHECK(host[0] == -5);  // captured, not run
    CHECK(calls == 0);

    // The nodes in the order captured, one chain.
    REQUIRE(node_count(graph) == 4);
    cudaGraphNode_t nodes[4];
    std::size_t count = 4;
    check_cuda(cudaGraphGetNodes(graph, nodes, &count));
    const cudaGraphNodeType expected[] = {cudaGraphNodeTypeMemset, cudaGraphNodeTypeKernel,
                                          cudaGraphNodeTypeMemcpy, cudaGraphNodeTypeHost};
    for (int i = 0; i < 4; ++i) {
        cudaGraphNodeType type;
        check_cuda(cudaGraphNodeGetType(nodes[i], &type));
        CHECK(type == expected[i]);
    }
    std::size_t roots = 0, edges = 0;
    check_cuda(cudaGraphGetRootNodes(graph, nullptr, &roots));
    check_cuda(cudaGraphGetEdges(graph, nullptr, nullptr, nullptr, &edges));
    CHECK(roots == 1);
    CHECK(edges == 3);

    cudaGraphExec_t exec = nullptr;
    check_cuda(cudaGraphInstantiate(&exec, graph, 0));
    check_cuda(cudaGraphLaunch(exec, stream));
    check_cuda(cudaGraphLaunch(exec, stream));
    check_cuda(cudaStreamSynchronize(stream));
    CHECK(host[0] == 1);
    CHECK(host[63] == 1);
    CHECK(calls == 2);
    // An executable graph outlives the graph it was made from.
    check_cuda(cudaGraphDestroy(graph));
    check_cuda(cudaGraphLaunch(exec, stream));
    check_cuda(cudaStreamSynchronize(stream));
    CHECK(calls == 3);
    check_cuda(cudaGraphExecDestroy(exec));
}

TEST_CASE("a graph's launches on one stream run one after another", "[graphs][launch]") {
    DeviceBuffer<int> data(32);
    check_cuda(cudaMemset(data.data(), 0, 32 * sizeof(int)));
    Stream stream(cudaStreamNonBlocking);
    check_cuda(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    double_plus_one<<<1, 32, 0, stream>>>(data.data());
    cudaGraph_t graph = nullptr;
    check_cuda(cudaStreamEndCapture(stream, &graph));
    cudaGraphExec_t exec = nullptr;
    check_cuda(cudaGraphInstantiate(&exec, graph, 0));
    for (int launch = 0; launch < 3; ++launch) check_cuda(cudaGraphLaunch(exec, stream));
    check_cuda(cudaStreamSynchronize(stream));
    CHECK(data.download()[31] == 7);  // 0 -> 1 -> 3 -> 7
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
}

TEST_CASE("other streams join a capture through events, and must be joined back before it ends",
          "[graphs][capture][fork]") {
    DeviceBuffer<int> data(64);
    Stream origin(cudaStreamNonBlocking), other(cudaStreamNonBlocking);
    Event fork, join;
    check_cuda(cudaStreamBeginCapture(origin, cudaStreamCaptureModeGlobal));
    check_cuda(cudaEventRecord(fork, origin));
    check_cuda(cudaStreamWaitEvent(other, fork, 0));
    CHECK(capture_status(other) == cudaStreamCaptureStatusActive);
    check_cuda(cudaMemsetAsync(data.data(), 0, 64 * sizeof(int), other));
    check_cuda(cudaEventRecord(join, other));
    check_cuda(cudaStreamWaitEvent(origin, join, 0));
    add_one<<<2, 32, 0, origin>>>(data.data(), 64);
    cudaGraph_t graph = nullptr;
    check_cuda(cudaStreamEndCapture(origin, &graph));
    CHECK(capture_status(other) == cudaStreamCaptureStatusNone);
    CHECK(node_count(graph) == 2);  // an event marks a place; it makes no node
    cudaGraphExec_t exec = nullptr;
    check_cuda(cudaGraphInstantiate(&exec, graph, 0));
    check_cuda(cudaGraphLaunch(exec, origin));
    check_cuda(cudaStreamSynchronize(origin));
    CHECK(data.download() == std::vector<int>(64, 1));
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);

    SECTION("a stream that joined and was not joined back: no graph") {
        check_cuda(cudaStreamBeginCapture(origin, cudaStreamCaptureModeGlobal));
        check_cuda(cudaEventRecord(fork, origin));
        check_cuda(cudaStreamWaitEvent(other, fork, 0));
        check_cuda(cudaMemsetAsync(data.data(), 0, 64, other));
        graph = nullptr;
        CHECK(cudaStreamEndCapture(origin, &graph) == cudaErrorStreamCaptureUnjoined);
        CHECK(graph == nullptr);
        CHECK(capture_status(other) == cudaStreamCaptureStatusNone);
    }
    SECTION("ended on the stream that joined, not the one that began it") {
        check_cuda(cudaStreamBeginCapture(origin, cudaStreamCaptureModeGlobal));
        check_cuda(cudaEventRecord(fork, origin));
        check_cuda(cudaStreamWaitEvent(other, fork, 0));
        CHECK(cudaStreamEndCapture(other, &graph) == cudaErrorStreamCaptureUnmatched);
        CHECK(capture_status(origin) == cudaStreamCaptureStatusInvalidated);
        CHECK(cudaStreamEndCapture(origin, &graph) == cudaErrorStreamCaptureInvalidated);
        CHECK(graph == nullptr);
    }
    SECTION("an event recorded outside the capture, waited for inside it") {
        check_cuda(cudaEventRecord(join, other));
        check_cuda(cudaStreamBeginCapture(origin, cudaStreamCaptureModeGlobal));
        CHECK(cudaStreamWaitEvent(origin, join, 0) == cudaErrorStreamCaptureIsolation);
        CHECK(cudaStreamEndCapture(origin, &graph) == cudaErrorStreamCaptureInvalidated);
    }
    SECTION("an event recorded in a capture is a place in its graph: it cannot be waited for") {
        check_cuda(cudaStreamBeginCapture(origin, cudaStreamCaptureModeGlobal));
        check_cuda(cudaEventRecord(fork, origin));
        CHECK(cudaEventQuery(fork) == cudaErrorCapturedEvent);
        CHECK(capture_status(origin) == cudaStreamCaptureStatusInvalidated);
        CHECK(cudaEventSynchronize(fork) == cudaErrorInvalidValue);
        CHECK(cudaStreamEndCapture(origin, &graph) == cudaErrorStreamCaptureInvalidated);
        // Once the capture has ended, the event stands for no work.
        CHECK(cudaStreamWaitEvent(other, fork, 0) == cudaErrorInvalidValue);
        CHECK(cudaEventQuery(fork) == cudaErrorInvalidValue);
    }
    cudaGetLastError();
}

TEST_CASE("a capture refuses calls that wait for the GPU or allocate, and is invalidated by them",
          "[graphs][capture][refused]") {
    DeviceBuffer<int> data(64);
    check_cuda(cudaMemset(data.data(), 0, 64 * sizeof(int)));
    Stream stream(cudaStreamNonBlocking);
    void* buffer = nullptr;
    CHECK(capture_around(stream, cudaStreamCaptureModeGlobal, data.data(), [&] {
              CHECK(cudaMalloc(&buffer, 256) == cudaErrorStreamCaptureUnsupported);
              CHECK(capture_status(stream) == cudaStreamCaptureStatusInvalidated);
              // Work queued into the invalidated capture is refused with its own error.
              add_one<<<1, 32, 0, stream>>>(data.data(), 32);
              CHECK(cudaGetLastError() == cudaErrorStreamCaptureInvalidated);
              CHECK(cudaMemsetAsync(data.data(), 0, 16, stream) == cudaErrorStreamCaptureInvalidated);
          }) == cudaErrorStreamCaptureInvalidated);
    CHECK(capture_around(stream, cudaStreamCaptureModeThreadLocal, data.data(), [&] {
              CHECK(cudaMalloc(&buffer, 256) == cudaErrorStreamCaptureUnsupported);
          }) == cudaErrorStreamCaptureInvalidated);
    CHECK(capture_around(stream, cudaStreamCaptureModeRelaxed, data.data(), [&] {
              CHECK(cudaMalloc(&buffer, 256) == cudaSuccess);
              CHECK(cudaFree(buffer) == cudaSuccess);
          }) == cudaSuccess);
    CHECK(capture_around(stream, cudaStreamCaptureModeGlobal, data.data(), [&] {
              CHECK(cudaFree(nullptr) == cudaErrorStreamCaptureUnsupported);
          }) == cudaErrorStreamCaptureInvalidated);
    CHECK(capture_around(stream, cudaStreamCaptureModeGlobal, data.data(), [&] {
              CHECK(cudaStreamSynchronize(stream) == cudaErrorStreamCaptureUnsupported);
          }) == cudaErrorStreamCaptureInvalidated);
    CHECK(capture_around(stream, cudaStreamCaptureModeGlobal, data.data(), [&] {
              CHECK(cudaStreamQuery(stream) == cudaErrorStreamCaptureUnsupported);
          }) == cudaErrorStreamCaptureInvalidated);
    CHECK(capture_around(stream, cudaStreamCaptureModeRelaxed, data.data(), [&] {
              CHECK(cudaDeviceSynchronize() == cudaErrorStreamCaptureUnsupported);
          }) == cudaErrorStreamCaptureInvalidated);
    CHECK(capture_around(stream, cudaStreamCaptureModeGlobal, data.data(), [&] {
              Stream uncaptured(cudaStreamNonBlocking);
              CHECK(cudaStreamSynchronize(uncaptured) == cudaErrorStreamCaptureUnsupported);
          }) == cudaErrorStreamCaptureInvalidated);
    // A launch CUDA refuses invalidates the capture too, with its own error.
    CHECK(capture_around(stream, cudaStreamCaptureModeGlobal, data.data(), [&] {
              add_one<<<1, 2048, 0, stream>>>(data.data(), 32);
              CHECK(cudaGetLastError() == cudaErrorInvalidValue);
          }) == cudaErrorStreamCaptureInvalidated);
}

TEST_CASE("a capture of a non-blocking stream leaves the legacy stream and synchronous copies alone",
          "[graphs][capture]") {
    DeviceBuffer<int> data(64);
    check_cuda(cudaMemset(data.data(), 0, 64 * sizeof(int)));
    Stream stream(cudaStreamNonBlocking);
    int host[4] = {};
    CHECK(capture_around(stream, cudaStreamCaptureModeGlobal, data.data(), [&] {
              CHECK(cudaMemcpy(host, data.data(), sizeof host, cudaMemcpyDeviceToHost) == cudaSuccess);
              CHECK(cudaMemset(data.data(), 0, 16) == cudaSuccess);
              CHECK(cudaMemsetAsync(data.data(), 0, 16, nullptr) == cudaSuccess);
              add_one<<<1, 32>>>(data.data(), 32);
              CHECK(cudaGetLastError() == cudaSuccess);
              cudaEvent_t start, end;
              check_cuda(cudaEventCreate(&start));
              check_cuda(cudaEventCreate(&end));
              check_cuda(cudaEventRecord(start, stream));
              check_cuda(cudaEventRecord(end, stream));
              float ms = 0;
              CHECK(cudaEventElapsedTime(&ms, start, end) == cudaErrorCapturedEvent);
              cudaEventDestroy(start);
              cudaEventDestroy(end);
          }) == cudaSuccess);
}

TEST_CASE("a capture of a blocking stream: the legacy stream may not wait for it",
          "[graphs][capture][implicit]") {
    DeviceBuffer<int> data(64);
    check_cuda(cudaMemset(data.data(), 0, 64 * sizeof(int)));
    Stream stream;
    CHECK(capture_around(stream, cudaStreamCaptureModeGlobal, data.data(), [&] {
              cudaStreamCaptureStatus status;
              CHECK(cudaStreamIsCapturing(nullptr, &status) == cudaErrorStreamCaptureImplicit);
              CHECK(cudaMemsetAsync(data.data(), 0, 16, nullptr) == cudaErrorStreamCaptureImplicit);
              CHECK(capture_status(stream) == cudaStreamCaptureStatusInvalidated);
          }) == cudaErrorStreamCaptureInvalidated);
}

TEST_CASE("a capture begins and ends on one stream, once", "[graphs][capture]") {
    Stream stream(cudaStreamNonBlocking);
    cudaGraph_t graph = nullptr;
    CHECK(cudaStreamEndCapture(stream, &graph) == cudaErrorIllegalState);
    CHECK(cudaStreamBeginCapture(nullptr, cudaStreamCaptureModeGlobal) == cudaErrorStreamCaptureUnsupported);
    check_cuda(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal) == cudaErrorIllegalState);
    check_cuda(cudaStreamEndCapture(stream, &graph));
    // Nothing captured: an empty graph, which runs.
    CHECK(node_count(graph) == 0);
    cudaGraphExec_t exec = nullptr;
    check_cuda(cudaGraphInstantiate(&exec, graph, 0));
    check_cuda(cudaGraphLaunch(exec, stream));
    check_cuda(cudaStreamSynchronize(stream));
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
    CHECK(cudaGraphLaunch(nullptr, stream) == cudaErrorInvalidValue);
    cudaGetLastError();
}

TEST_CASE("a kernel node copies its arguments when made; an executable graph takes new ones",
          "[graphs][nodes]") {
    DeviceBuffer<int> data(32);
    std::vector<int> host(32, 0);
    cudaGraph_t graph = nullptr;
    check_cuda(cudaGraphCreate(&graph, 0));
    int* pointer = data.data();
    int value = 11;
    void* arguments[] = {&pointer, &value};
    cudaKernelNodeParams params{};
    params.func = (void*)set_to;
    params.gridDim = dim3(1);
    params.blockDim = dim3(32);
    params.kernelParams = arguments;
    cudaGraphNode_t kernel = nullptr;
    check_cuda(cudaGraphAddKernelNode(&kernel, graph, nullptr, 0, &params));
    value = 22;  // after the node was made: not what it launches with
    cudaMemcpy3DParms copy{};
    copy.srcPtr = make_cudaPitchedPtr(data.data(), 32 * sizeof(int), 32, 1);
    copy.dstPtr = make_cudaPitchedPtr(host.data(), 32 * sizeof(int), 32, 1);
    copy.extent = make_cudaExtent(32 * sizeof(int), 1, 1);
    copy.kind = cudaMemcpyDeviceToHost;
    cudaGraphNode_t download = nullptr;
    check_cuda(cudaGraphAddMemcpyNode(&download, graph, &kernel, 1, &copy));
    cudaGraphExec_t exec = nullptr;
    check_cuda(cudaGraphInstantiate(&exec, graph, nullptr, nullptr, 0));  // CUDA 11's form
    check_cuda(cudaGraphLaunch(exec, nullptr));
    check_cuda(cudaDeviceSynchronize());
    CHECK(host[31] == 11);

    int changed = 33;
    void* changed_arguments[] = {&pointer, &changed};
    cudaKernelNodeParams changed_params = params;
    changed_params.kernelParams = changed_arguments;
    check_cuda(cudaGraphExecKernelNodeSetParams(exec, kernel, &changed_params));
    check_cuda(cudaGraphLaunch(exec, nullptr));
    check_cuda(cudaDeviceSynchronize());
    CHECK(host[31] == 33);

    // The graph's own node kept its copy.
    cudaKernelNodeParams read_back{};
    check_cuda(cudaGraphKernelNodeGetParams(kernel, &read_back));
    CHECK(read_back.func == (void*)set_to);
    CHECK(read_back.kernelParams != arguments);
    CHECK(*static_cast<int*>(read_back.kernelParams[1]) == 11);

    cudaGraph_t clone = nullptr;
    check_cuda(cudaGraphClone(&clone, graph));
    cudaGraphExec_t clone_exec = nullptr;
    check_cuda(cudaGraphInstantiate(&clone_exec, clone, 0));
    check_cuda(cudaGraphLaunch(clone_exec, nullptr));
    check_cuda(cudaDeviceSynchronize());
    CHECK(host[31] == 11);

    // An update from a graph of the same shape takes its parameters.
    cudaGraphNode_t clone_nodes[2];
    std::size_t count = 2;
    check_cuda(cudaGraphGetNodes(clone, clone_nodes, &count));
    int updated = 44;
    void* updated_arguments[] = {&pointer, &updated};
    cudaKernelNodeParams updated_params = params;
    updated_params.kernelParams = updated_arguments;
    check_cuda(cudaGraphKernelNodeSetParams(clone_nodes[0], &updated_params));
    cudaGraphExecUpdateResultInfo result{};
    check_cuda(cudaGraphExecUpdate(exec, clone, &result));
    CHECK(result.result == cudaGraphExecUpdateSuccess);
    check_cuda(cudaGraphLaunch(exec, nullptr));
    check_cuda(cudaDeviceSynchronize());
    CHECK(host[31] == 44);

    // One of another shape: no update.
    cudaGraph_t other = nullptr;
    check_cuda(cudaGraphCreate(&other, 0));
    cudaGraphNode_t empty = nullptr;
    check_cuda(cudaGraphAddEmptyNode(&empty, other, nullptr, 0));
    CHECK(cudaGraphExecUpdate(exec, other, &result) == cudaErrorGraphExecUpdateFailure);
    CHECK(result.result == cudaGraphExecUpdateErrorTopologyChanged);
    cudaGetLastError();

    cudaGraphExecDestroy(exec);
    cudaGraphExecDestroy(clone_exec);
    cudaGraphDestroy(graph);
    cudaGraphDestroy(clone);
    cudaGraphDestroy(other);
}

TEST_CASE("nodes CUDA refuses to make, and a memset node's elements", "[graphs][nodes][refused]") {
    DeviceBuffer<int> data(8);
    check_cuda(cudaMemset(data.data(), 0, 8 * sizeof(int)));
    int host[8] = {};
    cudaGraph_t graph = nullptr, other = nullptr;
    check_cuda(cudaGraphCreate(&graph, 0));
    check_cuda(cudaGraphCreate(&other, 0));
    int* pointer = data.data();
    int value = 1;
    void* arguments[] = {&pointer, &value};
    cudaKernelNodeParams params{};
    cudaGraphNode_t kernel = nullptr;
    CHECK(cudaGraphAddKernelNode(&kernel, graph, nullptr, 0, &params) == cudaErrorInvalidDeviceFunction);
    params.func = (void*)set_to;
    params.gridDim = dim3(1);
    params.kernelParams = arguments;
    for (const dim3 block : {dim3(2048), dim3(0)}) {
        params.blockDim = block;
        CHECK(cudaGraphAddKernelNode(&kernel, graph, nullptr, 0, &params) == cudaErrorInvalidValue);
    }
    params.blockDim = dim3(1);
    params.sharedMemBytes = 1 << 20;
    CHECK(cudaGraphAddKernelNode(&kernel, graph, nullptr, 0, &params) == cudaErrorInvalidValue);
    params.sharedMemBytes = 0;
    check_cuda(cudaGraphAddKernelNode(&kernel, graph, nullptr, 0, &params));
    cudaGraphNode_t elsewhere = nullptr;
    CHECK(cudaGraphAddKernelNode(&elsewhere, other, &kernel, 1, &params) == cudaErrorInvalidValue);
    CHECK(cudaGraphAddDependencies(graph, &kernel, &kernel, nullptr, 1) == cudaErrorInvalidValue);

    cudaMemsetParams memset{};
    memset.dst = data.data();
    memset.value = 0x01020304;
    memset.elementSize = 3;
    memset.width = 4;
    memset.height = 1;
    cudaGraphNode_t words = nullptr;
    CHECK(cudaGraphAddMemsetNode(&words, graph, nullptr, 0, &memset) == cudaErrorInvalidValue);
    memset.elementSize = 4;
    memset.dst = host;
    CHECK(cudaGraphAddMemsetNode(&words, graph, nullptr, 0, &memset) == cudaErrorInvalidValue);
    memset.dst = data.data();
    memset.height = 2;
    memset.pitch = 8;  // rows of 16 bytes cannot stand 8 bytes apart
    CHECK(cudaGraphAddMemsetNode(&words, graph, nullptr, 0, &memset) == cudaErrorInvalidValue);
    memset.height = 1;
    check_cuda(cudaGraphAddMemsetNode(&words, graph, &kernel, 1, &memset));

    cudaGraphExec_t exec = nullptr;
    check_cuda(cudaGraphInstantiate(&exec, graph, 0));
    check_cuda(cudaGraphLaunch(exec, nullptr));
    check_cuda(cudaMemcpy(host, data.data(), sizeof host, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 4; ++i) CHECK(host[i] == 0x01020304);
    CHECK(host[4] == 0);
    cudaGetLastError();
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
    cudaGraphDestroy(other);
}

TEST_CASE("cudaLaunchKernel through a void* that a variable holds", "[graphs][untyped]") {
    DeviceBuffer<int> data(32);
    void* kernel = reinterpret_cast<void*>(set_to);
    int* pointer = data.data();
    int value = 5;
    void* arguments[] = {&pointer, &value};
    check_cuda(cudaLaunchKernel(kernel, dim3(1), dim3(32), arguments, 0, nullptr));
    CHECK(data.download() == std::vector<int>(32, 5));
}

TEST_CASE("the graph errors' names and texts are CUDA's", "[graphs][errors]") {
    const auto text = [](cudaError_t error) { return std::string(cudaGetErrorString(error)); };
    CHECK(text(cudaErrorIllegalState) == "the operation cannot be performed in the present state");
    CHECK(text(cudaErrorStreamCaptureUnsupported) == "operation not permitted when stream is capturing");
    CHECK(text(cudaErrorStreamCaptureInvalidated) ==
          "operation failed due to a previous error during capture");
    CHECK(text(cudaErrorStreamCaptureUnjoined) == "capturing stream has unjoined work");
    CHECK(text(cudaErrorCapturedEvent) ==
          "operation not permitted on an event last recorded in a capturing stream");
    CHECK(std::string(cudaGetErrorName(cudaErrorGraphExecUpdateFailure)) ==
          "cudaErrorGraphExecUpdateFailure");
}
