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

#include <cstdint>
#include <functional>

#include "warpdrill/cpu/cuda_runtime.h"

namespace warpdrill::cpu::detail {

// The n-th piece of work queued, from 1; 0 is "none", which counts as done.
using WorkSerial = std::uint64_t;

// Whether `stream` is nullptr or a live stream; cudaErrorInvalidResourceHandle if not.
cudaError_t check_stream(cudaStream_t stream);
// The GPU of a live stream; nullptr's is the calling thread's current GPU.
int device_of(cudaStream_t stream);

// Queues `work` on a live stream, after what the stream's rules order it
// after and after `also_after`. On the default stream with nothing else
// queued, it runs at once, as on a GPU that is idle.
WorkSerial enqueue(cudaStream_t stream, std::function<void()> work, WorkSerial also_after = 0);

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
