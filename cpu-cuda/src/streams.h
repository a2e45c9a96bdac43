// Streams and events on the CPU backend. Work queued on a stream (a kernel,
// a copy, a memset, an event record) is kept until a synchronisation needs it
// and then run in an order that honours exactly what CUDA promises:
//   - the order of one stream;
//   - cudaStreamWaitEvent: what follows the wait in the stream runs after the
//     work that the event's latest cudaEventRecord stood behind;
//   - the legacy default stream of each GPU (nullptr) waits for the work
//     queued before on the GPU's blocking streams, and they wait for it;
// and nothing more. Where those leave a choice, the work queued last runs
// first (StreamOrder::latest_first), so that a consumer whose wait is missing
// runs before its producer, every time. Internal to the backend.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "warpdrill/cpu/cuda_runtime.h"

namespace warpdrill::cpu::detail {

// The n-th piece of work queued, from 1; 0 is "none", which counts as done.
using WorkSerial = std::uint64_t;
struct Capture;  // capture.h

}  // namespace warpdrill::cpu::detail

struct CUstream_st {
    int device = 0;
    bool blocking = true;  // orders itself with the GPU's legacy default stream
    int priority = 0;
    warpdrill::cpu::detail::WorkSerial last = 0;
    // While the stream takes part in a capture: the capture, and the captured
    // nodes that its next work depends on.
    warpdrill::cpu::detail::Capture* capture = nullptr;
    std::vector<cudaGraphNode_t> tail;
};

struct CUevent_st {
    int device = 0;
    bool timing = true;
    warpdrill::cpu::detail::WorkSerial recorded = 0;  // the latest record's work; 0 before the first
    // Set when that record's work runs (each record has its own).
    std::shared_ptr<std::chrono::steady_clock::time_point> time;
    // Recorded in a capture: which one (0 for none), and the captured nodes
    // that a stream waiting for the event then depends on.
    unsigned long long capture_id = 0;
    std::vector<cudaGraphNode_t> captured;
};

namespace warpdrill::cpu::detail {

// What a piece of stream work is: the type of the node a capture makes of it.
enum class WorkKind : std::uint8_t { kernel, copy, memset, host_function, nothing };

// Whether `stream` is nullptr or a live stream; cudaErrorInvalidResourceHandle if not.
cudaError_t check_stream(cudaStream_t stream);
// The GPU of a live stream; nullptr's is the calling thread's current GPU.
int device_of(cudaStream_t stream);

// Queues `work` on a live stream, after what the stream's rules order it
// after and after `also_after`. On the default stream with nothing else
// queued, it runs at once, as on a GPU that is idle. On a stream that
// captures, it becomes a node of the capture's graph instead (0 returned).
WorkSerial enqueue(cudaStream_t stream, WorkKind kind, std::function<void()> work, WorkSerial also_after = 0);

// A graph's work, each piece after the pieces it names (indices of earlier pieces).
struct GraphPiece {
    WorkKind kind = WorkKind::nothing;
    std::function<void()> work;
    std::vector<std::size_t> after;
};
// Queues a graph's pieces on `stream`: the first after what the stream's
// rules order them after and after `also_after`; the stream's next work
// after all of them. Returns the serial of the last, which stands for all.
WorkSerial enqueue_graph(cudaStream_t stream, const std::vector<GraphPiece>& pieces, WorkSerial also_after);

// A host function as stream work: it runs with the runtime's calls refused
// (refuse_inside_host_function), `code` naming it in the fault.
std::function<void()> host_function_work(const void* code, std::function<void()> function);

// Run queued work until `serial`, everything on one GPU, or everything has
// run. Work that throws (a KernelFault) drops all queued work, as a fault
// ends a GPU's context, and the exception goes on to the caller.
void finish(WorkSerial serial);
void finish_device(int device);
void finish_all();
bool finished(WorkSerial serial);

// Counts one wait of the host for the GPUs (host_waits()).
void count_host_wait();

// Ends the program (a KernelFault) when a host function queued on a stream
// (cudaLaunchHostFunc, cudaStreamAddCallback) is running on the calling
// thread: CUDA's runtime may not be called from one. Every call that names
// the current GPU or a stream asks first.
void refuse_inside_host_function();

}  // namespace warpdrill::cpu::detail
