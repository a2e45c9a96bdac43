// Stream capture (capture.h) and its part of the runtime API.
#include "capture.h"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <thread>

#include "device.h"
#include "graph_nodes.h"
#include "state.h"
#include "warpdrill/messages.h"

namespace warpdrill::cpu::detail {

struct Capture {
    unsigned long long id = 0;
    cudaStreamCaptureMode mode = cudaStreamCaptureModeGlobal;
    std::thread::id thread;
    cudaStream_t origin = nullptr;
    int device = 0;
    cudaGraph_t graph = nullptr;
    bool invalidated = false;
    std::vector<cudaStream_t> streams;  // the origin first, then those that joined
};

namespace {

// How the calling thread lets other threads' captures forbid its calls
// (cudaThreadExchangeStreamCaptureMode).
thread_local cudaStreamCaptureMode thread_mode = cudaStreamCaptureModeGlobal;

class Captures {
  public:
    std::mutex mutex;

    Capture& begin(cudaStream_t stream, cudaStreamCaptureMode mode) {
        auto capture = std::make_unique<Capture>();
        capture->id = ++last_id_;
        capture->mode = mode;
        capture->thread = std::this_thread::get_id();
        capture->origin = stream;
        capture->device = stream->device;
        capture->graph = new CUgraph_st;
        capture->streams = {stream};
        stream->capture = capture.get();
        stream->tail.clear();
        return *live_.emplace(capture->id, std::move(capture)).first->second;
    }

    // Ends `capture`: its streams capture no more. Returns its graph, or
    // nullptr (and the graph destroyed) when `keep_graph` is false.
    cudaGraph_t end(Capture& capture, bool keep_graph) {
        for (cudaStream_t stream : capture.streams) {
            stream->capture = nullptr;
            stream->tail.clear();
        }
        cudaGraph_t graph = capture.graph;
        if (!keep_graph) {
            delete graph;
            graph = nullptr;
        }
        live_.erase(capture.id);
        return graph;
    }

    // A stream destroyed while it captures: the capture it began ends with no
    // graph; one it joined is invalidated.
    void forget(cudaStream_t stream) {
        Capture* capture = stream->capture;
        if (!capture) return;
        if (capture->origin == stream) {
            end(*capture, false);
            return;
        }
        std::erase(capture->streams, stream);
        capture->invalidated = true;
    }

    Capture* live(unsigned long long id) {
        const auto found = live_.find(id);
        return found == live_.end() ? nullptr : found->second.get();
    }

    // The captures that forbid the calling thread's potentially unsafe calls:
    // its own unless relaxed, and unless the thread is relaxed, other threads'
    // global ones (cudaStreamCaptureMode's documentation).
    std::vector<Capture*> forbidding() {
        std::vector<Capture*> found;
        if (thread_mode == cudaStreamCaptureModeRelaxed) return found;
        const std::thread::id self = std::this_thread::get_id();
        for (const auto& [id, capture] : live_) {
            const bool forbids = capture->thread == self ? capture->mode != cudaStreamCaptureModeRelaxed
                                                         : capture->mode == cudaStreamCaptureModeGlobal &&
                                                               thread_mode == cudaStreamCaptureModeGlobal;
            if (forbids) found.push_back(capture.get());
        }
        return found;
    }

    // A capture of GPU `device` that holds a blocking stream, which the legacy stream orders itself with.
    Capture* with_blocking_stream(int device) {
        for (const auto& [id, capture] : live_) {
            if (capture->device == device &&
                std::ranges::any_of(capture->streams, [](cudaStream_t s) { return s->blocking; })) {
                return capture.get();
            }
        }
        return nullptr;
    }

    std::vector<Capture*> on_device(int device) {
        std::vector<Capture*> found;
        for (const auto& [id, capture] : live_) {
            if (capture->device == device) found.push_back(capture.get());
        }
        return found;
    }

  private:
    unsigned long long last_id_ = 0;
    std::map<unsigned long long, std::unique_ptr<Capture>> live_;
};

Captures& captures_now() {
    static Captures instance;
    return instance;
}

cudaError_t refused(const HostCall& call, cudaError_t error, const char* why) {
    return refuse(call, error, messages::text(why));
}

// A call that a capture in progress forbids: `capturing` are invalidated.
cudaError_t forbidden(const HostCall& call, const std::vector<Capture*>& capturing) {
    for (Capture* capture : capturing) capture->invalidated = true;
    return refuse(call, cudaErrorStreamCaptureUnsupported,
                  messages::text("backend.capture.forbidden", {{"call", call.name}}));
}

// Nodes and the nodes they depend on, transitively.
std::set<cudaGraphNode_t> with_ancestors(const std::vector<cudaGraphNode_t>& nodes) {
    std::set<cudaGraphNode_t> found;
    std::vector<cudaGraphNode_t> stack = nodes;
    while (!stack.empty()) {
        const cudaGraphNode_t node = stack.back();
        stack.pop_back();
        if (found.insert(node).second)
            stack.insert(stack.end(), node->dependencies.begin(), node->dependencies.end());
    }
    return found;
}

// Whether every stream that joined the capture has had its work waited for
// by the origin stream: the nodes each one left are among those the
// origin's next work would run after.
bool all_joined(const Capture& capture) {
    const std::set<cudaGraphNode_t> origin = with_ancestors(capture.origin->tail);
    return std::ranges::all_of(capture.streams, [&](cudaStream_t stream) {
        return std::ranges::all_of(stream->tail, [&](cudaGraphNode_t node) { return origin.contains(node); });
    });
}

}  // namespace

bool captures(cudaStream_t stream) { return stream && stream->capture; }

void forget_capture_of(cudaStream_t stream) {
    Captures& all = captures_now();
    std::lock_guard lock(all.mutex);
    all.forget(stream);
}

cudaError_t check_queue(cudaStream_t stream, const HostCall& call) {
    Captures& all = captures_now();
    std::lock_guard lock(all.mutex);
    if (stream && stream->capture && stream->capture->invalidated) {
        return refused(call, cudaErrorStreamCaptureInvalidated, "backend.capture.invalidated");
    }
    if (!stream) {
        if (Capture* capture = all.with_blocking_stream(current_device())) {
            capture->invalidated = true;
            return refused(call, cudaErrorStreamCaptureImplicit, "backend.capture.implicit");
        }
    }
    return cudaSuccess;
}

cudaError_t check_unsafe_call(const HostCall& call) {
    Captures& all = captures_now();
    std::lock_guard lock(all.mutex);
    const std::vector<Capture*> forbidding = all.forbidding();
    return forbidding.empty() ? cudaSuccess : forbidden(call, forbidding);
}

cudaError_t check_stream_wait(cudaStream_t stream, const HostCall& call) {
    {
        Captures& all = captures_now();
        std::lock_guard lock(all.mutex);
        Capture* capture = stream ? stream->capture : all.with_blocking_stream(current_device());
        if (capture) return forbidden(call, {capture});
    }
    return check_unsafe_call(call);
}

cudaError_t check_device_wait(const HostCall& call) {
    Captures& all = captures_now();
    std::lock_guard lock(all.mutex);
    const std::vector<Capture*> capturing = all.on_device(current_device());
    return capturing.empty() ? cudaSuccess : forbidden(call, capturing);
}

cudaError_t check_event_wait(cudaEvent_t event, const HostCall& call) {
    if (!event->capture_id) return cudaSuccess;
    Captures& all = captures_now();
    std::lock_guard lock(all.mutex);
    Capture* capture = all.live(event->capture_id);
    if (!capture || capture->invalidated) {
        return refused(call, cudaErrorInvalidValue, "backend.capture.stale_event");
    }
    capture->invalidated = true;
    return refused(call, cudaErrorCapturedEvent, "backend.capture.captured_event");
}

bool recorded_in_capture(cudaEvent_t event) { return event->capture_id != 0; }

cudaError_t launch_refused(cudaStream_t stream, cudaError_t error) {
    if (!captures(stream)) return error;
    Captures& all = captures_now();
    std::lock_guard lock(all.mutex);
    stream->capture->invalidated = true;
    return cudaErrorInvalidValue;
}

void capture_work(cudaStream_t stream, WorkKind kind, std::function<void()> work) {
    Captures& all = captures_now();
    std::lock_guard lock(all.mutex);
    stream->tail = {add_node(stream->capture->graph, node_type(kind), std::move(work), stream->tail)};
}

void capture_graph(cudaStream_t stream, const std::vector<GraphPiece>& pieces) {
    Captures& all = captures_now();
    std::lock_guard lock(all.mutex);
    std::vector<cudaGraphNode_t> nodes;
    std::set<cudaGraphNode_t> waited_for;  // nodes that a later piece runs after
    for (const GraphPiece& piece : pieces) {
        std::vector<cudaGraphNode_t> after;
        for (const std::size_t earlier : piece.after) {
            after.push_back(nodes[earlier]);
            waited_for.insert(nodes[earlier]);
        }
        if (piece.after.empty()) after = stream->tail;
        nodes.push_back(
            add_node(stream->capture->graph, node_type(piece.kind), piece.work, std::move(after)));
    }
    if (nodes.empty()) return;
    stream->tail.clear();
    for (const cudaGraphNode_t node : nodes) {
        if (!waited_for.contains(node)) stream->tail.push_back(node);
    }
}

void capture_event_record(cudaEvent_t event, cudaStream_t stream) {
    Captures& all = captures_now();
    std::lock_guard lock(all.mutex);
    event->capture_id = stream->capture->id;
    event->captured = stream->tail;
    event->recorded = 0;
}

cudaError_t capture_event_wait(cudaStream_t stream, cudaEvent_t event, const HostCall& call) {
    Captures& all = captures_now();
    std::lock_guard lock(all.mutex);
    Capture* recorded_in = event->capture_id ? all.live(event->capture_id) : nullptr;
    if (event->capture_id && (!recorded_in || recorded_in->invalidated)) {
        return refused(call, cudaErrorInvalidValue, "backend.capture.stale_event");
    }
    if (!recorded_in) {  // the stream captures; the event marks work outside
        stream->capture->invalidated = true;
        return refused(call, cudaErrorStreamCaptureIsolation, "backend.capture.isolation");
    }
    if (stream->capture && stream->capture != recorded_in) {
        stream->capture->invalidated = true;
        recorded_in->invalidated = true;
        return refused(call, cudaErrorStreamCaptureMerge, "backend.capture.merge");
    }
    if (!stream->capture) {  // the stream joins the capture
        stream->capture = recorded_in;
        stream->tail.clear();
        recorded_in->streams.push_back(stream);
    }
    for (const cudaGraphNode_t node : event->captured) {
        if (std::ranges::find(stream->tail, node) == stream->tail.end()) stream->tail.push_back(node);
    }
    return cudaSuccess;
}

}  // namespace warpdrill::cpu::detail

using namespace warpdrill::cpu::detail;

cudaError_t cudaStreamBeginCapture(cudaStream_t stream, cudaStreamCaptureMode mode) {
    const HostCall call = WARPDRILL_HOST_CALL("cudaStreamBeginCapture");
    if (!stream) return refused(call, cudaErrorStreamCaptureUnsupported, "backend.capture.legacy_stream");
    if (check_stream(stream) != cudaSuccess) return record(cudaErrorInvalidResourceHandle);
    if (mode > cudaStreamCaptureModeRelaxed) return record(cudaErrorInvalidValue);
    Captures& all = captures_now();
    std::lock_guard lock(all.mutex);
    if (stream->capture) return refused(call, cudaErrorIllegalState, "backend.capture.already_capturing");
    all.begin(stream, mode);
    return cudaSuccess;
}

cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t* graph) {
    const HostCall call = WARPDRILL_HOST_CALL("cudaStreamEndCapture");
    if (stream && check_stream(stream) != cudaSuccess) return record(cudaErrorInvalidResourceHandle);
    Captures& all = captures_now();
    std::lock_guard lock(all.mutex);
    if (!stream || !stream->capture)
        return refused(call, cudaErrorIllegalState, "backend.capture.not_capturing");
    if (!graph) return record(cudaErrorInvalidValue);
    Capture& capture = *stream->capture;
    if (capture.mode == cudaStreamCaptureModeThreadLocal && capture.thread != std::this_thread::get_id()) {
        return refused(call, cudaErrorStreamCaptureWrongThread, "backend.capture.wrong_thread");
    }
    if (stream != capture.origin) {
        capture.invalidated = true;
        return refused(call, cudaErrorStreamCaptureUnmatched, "backend.capture.unmatched");
    }
    *graph = nullptr;
    if (capture.invalidated) {
        all.end(capture, false);
        return refused(call, cudaErrorStreamCaptureInvalidated, "backend.capture.invalidated");
    }
    if (!all_joined(capture)) {
        all.end(capture, false);
        return refused(call, cudaErrorStreamCaptureUnjoined, "backend.capture.unjoined");
    }
    *graph = all.end(capture, true);
    return cudaSuccess;
}

cudaError_t cudaStreamIsCapturing(cudaStream_t stream, cudaStreamCaptureStatus* status) {
    return cudaStreamGetCaptureInfo(stream, status);
}

cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream, cudaStreamCaptureStatus* status,
                                     unsigned long long* id, cudaGraph_t* graph,
                                     const cudaGraphNode_t** dependencies,
                                     const cudaGraphEdgeData** edge_data, std::size_t* dependency_count) {
    if (!status) return record(cudaErrorInvalidValue);
    if (check_stream(stream) != cudaSuccess) return record(cudaErrorInvalidResourceHandle);
    Captures& all = captures_now();
    std::lock_guard lock(all.mutex);
    if (!stream && all.with_blocking_stream(current_device())) return record(cudaErrorStreamCaptureImplicit);
    const Capture* capture = stream ? stream->capture : nullptr;
    *status = !capture               ? cudaStreamCaptureStatusNone
              : capture->invalidated ? cudaStreamCaptureStatusInvalidated
                                     : cudaStreamCaptureStatusActive;
    if (!capture) return cudaSuccess;
    if (id) *id = capture->id;
    if (graph) *graph = capture->graph;
    if (dependencies) *dependencies = stream->tail.data();
    if (edge_data) *edge_data = nullptr;  // default edges only
    if (dependency_count) *dependency_count = stream->tail.size();
    return cudaSuccess;
}

cudaError_t cudaThreadExchangeStreamCaptureMode(cudaStreamCaptureMode* mode) {
    if (!mode || *mode > cudaStreamCaptureModeRelaxed) return record(cudaErrorInvalidValue);
    std::swap(*mode, thread_mode);
    return cudaSuccess;
}
