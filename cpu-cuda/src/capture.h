// Stream capture: while a stream captures, the work queued on it becomes
// nodes of a graph instead of running, and CUDA holds the runtime's other
// calls to rules that an H200 showed (results/graphs-h200.txt): a call that
// would wait for the GPU or allocate is refused and invalidates the capture,
// an event recorded in a capture marks a place in its graph, not work.
// Internal to the backend.
#pragma once

#include <functional>
#include <vector>

#include "device_memory.h"
#include "streams.h"

namespace warpdrill::cpu::detail {

// Whether `stream` takes part in a capture now.
bool captures(cudaStream_t stream);
// `stream` is being destroyed: a capture it began ends without a graph, one
// it joined is invalidated.
void forget_capture_of(cudaStream_t stream);

// Each returns cudaSuccess, or the error CUDA returns for the call, having
// invalidated the captures CUDA invalidates and warned why (refuse()).
// Work queued on `stream`: its capture was invalidated, or the legacy stream
// would wait for a capturing blocking stream.
cudaError_t check_queue(cudaStream_t stream, const HostCall& call);
// A wait for `stream` (cudaStreamSynchronize, cudaStreamQuery).
cudaError_t check_stream_wait(cudaStream_t stream, const HostCall& call);
// A wait for the whole GPU (cudaDeviceSynchronize).
cudaError_t check_device_wait(const HostCall& call);
// A call that may wait for the GPU or change its memory map (cudaMalloc,
// cudaFree): refused while a capture forbids "potentially unsafe" calls.
cudaError_t check_unsafe_call(const HostCall& call);
// A wait for or query of `event` (cudaEventSynchronize, cudaEventQuery).
cudaError_t check_event_wait(cudaEvent_t event, const HostCall& call);
// A launch on `stream` that CUDA refused (launch.cpp): within a capture CUDA
// returns cudaErrorInvalidValue instead, and the capture is invalidated.
cudaError_t launch_refused(cudaStream_t stream, cudaError_t error);

// Work queued on a capturing stream: a node of its capture's graph, after
// what the stream's earlier work left, as are a graph's pieces.
void capture_work(cudaStream_t stream, WorkKind kind, std::function<void()> work);
void capture_graph(cudaStream_t stream, const std::vector<GraphPiece>& pieces);
// cudaEventRecord on a capturing stream: the event marks where it stands.
void capture_event_record(cudaEvent_t event, cudaStream_t stream);
// cudaStreamWaitEvent where the stream captures or the event was recorded
// in a capture: the stream joins that capture, or the call is refused.
cudaError_t capture_event_wait(cudaStream_t stream, cudaEvent_t event, const HostCall& call);
bool recorded_in_capture(cudaEvent_t event);

}  // namespace warpdrill::cpu::detail
