// Streams and events: the queue of work that has not run yet, the order it
// runs in when a synchronisation needs it, and the runtime API on top.
#include "streams.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "capture.h"
#include "device.h"
#include "launch_faults.h"
#include "program.h"
#include "state.h"
#include "warpdrill/cpu/backend.h"

namespace warpdrill::cpu::detail {
namespace {

// An H200's range of stream priorities (results/host-runtime-probe-h200.txt):
// lower numbers are greater priorities.
constexpr int kLeastPriority = 0;
constexpr int kGreatestPriority = -5;

std::atomic<StreamOrder> order{StreamOrder::latest_first};
// The host function running on this thread, if one is.
thread_local const void* running_host_function = nullptr;
std::atomic<std::uint64_t> waits{0};

struct Work {
    int device = 0;
    std::vector<WorkSerial> after;
    std::function<void()> run;
};

class WorkQueue {
  public:
    WorkQueue() : legacy_(kMaxDevices), blocking_(kMaxDevices) {
        for (int d = 0; d < kMaxDevices; ++d) legacy_[d].device = d;
    }

    cudaError_t check(cudaStream_t stream) {
        std::lock_guard lock(mutex_);
        return stream == nullptr || streams_.contains(stream) ? cudaSuccess : cudaErrorInvalidResourceHandle;
    }

    int device_of(cudaStream_t stream) {
        std::lock_guard lock(mutex_);
        return resolve(stream).device;
    }

    WorkSerial last_of(cudaStream_t stream) {
        std::lock_guard lock(mutex_);
        return resolve(stream).last;
    }

    cudaStream_t create(int device, bool blocking, int priority) {
        std::lock_guard lock(mutex_);
        auto* stream = new CUstream_st;
        stream->device = device;
        stream->blocking = blocking;
        stream->priority = priority;
        streams_.insert(stream);
        if (blocking) blocking_[device].push_back(stream);
        return stream;
    }

    void destroy(cudaStream_t stream) {
        forget_capture_of(stream);
        finish({stream->last});
        std::lock_guard lock(mutex_);
        streams_.erase(stream);
        std::erase(blocking_[stream->device], stream);
        delete stream;
    }

    WorkSerial enqueue(cudaStream_t handle, std::function<void()> run, WorkSerial also_after) {
        WorkSerial serial = 0;
        {
            std::lock_guard lock(mutex_);
            CUstream_st& stream = resolve(handle);
            serial = add(stream.device, after_stream_order(handle, {also_after}), std::move(run));
            stream.last = serial;
        }
        if (handle == nullptr && alone(serial)) finish({serial});
        return serial;
    }

    // Returns each piece's serial, then the serial of the work that stands for all.
    std::vector<WorkSerial> enqueue_graph(cudaStream_t handle, const std::vector<GraphPiece>& pieces,
                                          WorkSerial also_after) {
        std::lock_guard lock(mutex_);
        CUstream_st& stream = resolve(handle);
        const std::vector<WorkSerial> first = after_stream_order(handle, {also_after});
        std::vector<WorkSerial> serials;
        for (const GraphPiece& piece : pieces) {
            std::vector<WorkSerial> after = first;
            for (const std::size_t earlier : piece.after) after.push_back(serials[earlier]);
            serials.push_back(add(stream.device, std::move(after), piece.work));
        }
        stream.last = add(stream.device, serials.empty() ? first : serials, [] {});
        serials.push_back(stream.last);
        return serials;
    }

    // Runs what `targets` need, one piece at a time, in the chosen order.
    void finish(const std::vector<WorkSerial>& targets) {
        std::lock_guard lock(mutex_);
        std::set<WorkSerial> needed = closure(targets);
        while (!needed.empty()) {
            const WorkSerial next = choose(needed);
            needed.erase(next);
            const auto found = pending_.find(next);
            const std::function<void()> run = std::move(found->second.run);
            pending_.erase(found);
            try {
                run();
            } catch (...) {
                pending_.clear();
                throw;
            }
        }
    }

    std::vector<WorkSerial> pending_on(int device) {
        std::lock_guard lock(mutex_);
        std::vector<WorkSerial> serials;
        for (const auto& [serial, work] : pending_) {
            if (device < 0 || work.device == device) serials.push_back(serial);
        }
        return serials;
    }

    bool finished(WorkSerial serial) {
        std::lock_guard lock(mutex_);
        return !pending_.contains(serial);
    }

  private:
    CUstream_st& resolve(cudaStream_t stream) { return stream ? *stream : legacy_[current_device()]; }

    // What work queued on `handle` runs after by the streams' rules, with `also`.
    std::vector<WorkSerial> after_stream_order(cudaStream_t handle, std::vector<WorkSerial> also) {
        CUstream_st& stream = resolve(handle);
        also.push_back(stream.last);
        if (handle == nullptr) {
            for (const CUstream_st* other : blocking_[stream.device]) also.push_back(other->last);
        } else if (stream.blocking) {
            also.push_back(legacy_[stream.device].last);
        }
        return also;
    }

    // Queues `run` on GPU `device` after `after`; returns its serial.
    WorkSerial add(int device, std::vector<WorkSerial> after, std::function<void()> run) {
        std::erase_if(after, [&](WorkSerial s) { return !pending_.contains(s); });
        const WorkSerial serial = ++serial_;
        pending_.emplace(serial, Work{device, std::move(after), std::move(run)});
        return serial;
    }

    bool alone(WorkSerial serial) {
        std::lock_guard lock(mutex_);
        return pending_.size() == 1 && pending_.contains(serial);
    }

    // The pending work among `targets` and all the pending work it waits for.
    std::set<WorkSerial> closure(const std::vector<WorkSerial>& targets) const {
        std::set<WorkSerial> needed;
        std::vector<WorkSerial> stack(targets);
        while (!stack.empty()) {
            const WorkSerial serial = stack.back();
            stack.pop_back();
            const auto found = pending_.find(serial);
            if (found == pending_.end() || !needed.insert(serial).second) continue;
            stack.insert(stack.end(), found->second.after.begin(), found->second.after.end());
        }
        return needed;
    }

    bool ready(WorkSerial serial) const {
        const Work& work = pending_.at(serial);
        return std::ranges::none_of(work.after, [&](WorkSerial s) { return pending_.contains(s); });
    }

    // The first ready work in the chosen order; one exists, since work waits
    // only for work queued before it.
    WorkSerial choose(const std::set<WorkSerial>& needed) const {
        if (order.load() == StreamOrder::latest_first) {
            return *std::ranges::find_if(needed.rbegin(), needed.rend(), [&](WorkSerial s) { return ready(s); });
        }
        return *std::ranges::find_if(needed, [&](WorkSerial s) { return ready(s); });
    }

    std::mutex mutex_;
    std::map<WorkSerial, Work> pending_;
    WorkSerial serial_ = 0;
    std::vector<CUstream_st> legacy_;                  // each GPU's default stream
    std::vector<std::vector<CUstream_st*>> blocking_;  // each GPU's streams that order with it
    std::set<cudaStream_t> streams_;                   // the live ones
};

WorkQueue& queue() {
    static WorkQueue instance;
    return instance;
}

// Runs each host function as soon as the work before it has run, on a
// thread of its own, as a GPU's driver does: a program may wait for what a
// host function does without synchronising (NVIDIA's simpleCallback does).
class HostFunctionThread {
  public:
    void run_when_ready(WorkSerial serial) {
        std::lock_guard lock(mutex_);
        waiting_.push_back(serial);
        if (!thread_.joinable()) thread_ = std::thread([this] { loop(); });
        ready_.notify_one();
    }
    // At the program's end: host functions not begun are dropped.
    ~HostFunctionThread() {
        {
            std::lock_guard lock(mutex_);
            stopping_ = true;
            ready_.notify_one();
        }
        if (thread_.joinable()) thread_.join();
    }

  private:
    // A fault of the work or the function ends the program (std::terminate's handler says why).
    void loop() {
        std::unique_lock lock(mutex_);
        while (true) {
            ready_.wait(lock, [&] { return stopping_ || !waiting_.empty(); });
            if (stopping_) return;
            const WorkSerial serial = waiting_.front();
            waiting_.pop_front();
            lock.unlock();
            queue().finish({serial});
            lock.lock();
        }
    }

    std::mutex mutex_;
    std::condition_variable ready_;
    std::deque<WorkSerial> waiting_;
    bool stopping_ = false;
    std::thread thread_;
};

HostFunctionThread& host_function_thread() {
    static HostFunctionThread instance;
    return instance;
}

// The queue, for a call of the runtime's: none may come from a host function.
WorkQueue& queue_for_call() {
    refuse_inside_host_function();
    return queue();
}

// A program of its own (`warpdrill run`) does not catch the KernelFault of
// queued work (a kernel, or a library's operation) that broke a rule: it ends
// there, with the fault's message, as compute-sanitizer would report it,
// instead of std::terminate's abort. Here, where every piece of work is
// queued, so that any program that queues work has it.
std::terminate_handler previous_terminate = nullptr;

[[noreturn]] void end_program_at_fault() {
    try {
        if (std::current_exception()) std::rethrow_exception(std::current_exception());
    } catch (const KernelFault& fault) {
        std::fflush(nullptr);  // what the program printed before comes first
        const bool backend_lacks = dynamic_cast<const BackendLacks*>(&fault) != nullptr;
        std::fputs(program_stopped(fault.what(), backend_lacks).c_str(), stderr);
        std::_Exit(1);
    } catch (...) {
    }
    if (previous_terminate) previous_terminate();
    std::abort();
}
const bool terminate_handler_set = (previous_terminate = std::set_terminate(end_program_at_fault), true);

}  // namespace

void refuse_inside_host_function() {
    if (running_host_function) {
        throw KernelFault(host_function_called_runtime(function_name(running_host_function)));
    }
}

cudaError_t check_stream(cudaStream_t stream) { return queue_for_call().check(stream); }
int device_of(cudaStream_t stream) { return queue_for_call().device_of(stream); }

WorkSerial enqueue(cudaStream_t stream, WorkKind kind, std::function<void()> work, WorkSerial also_after) {
    WorkQueue& queue = queue_for_call();
    if (captures(stream)) {
        capture_work(stream, kind, std::move(work));
        return 0;
    }
    return queue.enqueue(stream, std::move(work), also_after);
}

WorkSerial enqueue_graph(cudaStream_t stream, const std::vector<GraphPiece>& pieces, WorkSerial also_after) {
    WorkQueue& queue = queue_for_call();
    if (captures(stream)) {
        capture_graph(stream, pieces);
        return 0;
    }
    const std::vector<WorkSerial> serials = queue.enqueue_graph(stream, pieces, also_after);
    // A graph's host functions run once the work before them has, as a stream's do.
    for (std::size_t i = 0; i < pieces.size(); ++i) {
        if (pieces[i].kind == WorkKind::host_function) host_function_thread().run_when_ready(serials[i]);
    }
    return serials.back();
}

std::function<void()> host_function_work(const void* code, std::function<void()> function) {
    return [code, function = std::move(function)] {
        struct Running {
            explicit Running(const void* code) { running_host_function = code; }
            ~Running() { running_host_function = nullptr; }
        } running(code);
        function();
    };
}

void finish(WorkSerial serial) { queue_for_call().finish({serial}); }
void finish_device(int device) {
    WorkQueue& work = queue_for_call();
    work.finish(work.pending_on(device));
}
void finish_all() { finish_device(-1); }  // pending_on(-1): the work of every GPU
bool finished(WorkSerial serial) { return queue().finished(serial); }

void count_host_wait() { ++waits; }

}  // namespace warpdrill::cpu::detail

namespace warpdrill::cpu {

void set_stream_order(StreamOrder stream_order) { detail::order = stream_order; }
StreamOrder stream_order() { return detail::order; }

const char* to_string(StreamOrder stream_order) {
    switch (stream_order) {
        case StreamOrder::latest_first: return "latest queued first";
        case StreamOrder::queued: return "in the order queued";
    }
    return "?";
}

ScopedStreamOrder::ScopedStreamOrder(StreamOrder stream_order) : saved_(cpu::stream_order()) {
    set_stream_order(stream_order);
}
ScopedStreamOrder::~ScopedStreamOrder() { set_stream_order(saved_); }

std::uint64_t host_waits() { return detail::waits; }

}  // namespace warpdrill::cpu

// ---- the runtime API -------------------------------------------------------------------

using namespace warpdrill::cpu::detail;

cudaError_t cudaStreamCreate(cudaStream_t* stream) { return cudaStreamCreateWithFlags(stream, cudaStreamDefault); }

cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned flags) {
    return cudaStreamCreateWithPriority(stream, flags, kLeastPriority);
}

cudaError_t cudaDeviceGetStreamPriorityRange(int* least, int* greatest) {
    if (least) *least = kLeastPriority;
    if (greatest) *greatest = kGreatestPriority;
    return cudaSuccess;
}

cudaError_t cudaStreamCreateWithPriority(cudaStream_t* stream, unsigned flags, int priority) {
    if (!stream || (flags & ~cudaStreamNonBlocking)) return record(cudaErrorInvalidValue);
    priority = std::clamp(priority, kGreatestPriority, kLeastPriority);
    *stream = queue().create(current_device(), !(flags & cudaStreamNonBlocking), priority);
    return cudaSuccess;
}

cudaError_t cudaStreamGetPriority(cudaStream_t stream, int* priority) {
    if (!priority) return record(cudaErrorInvalidValue);
    if (check_stream(stream) != cudaSuccess) return record(cudaErrorInvalidResourceHandle);
    *priority = stream ? stream->priority : kLeastPriority;
    return cudaSuccess;
}

cudaError_t cudaStreamGetFlags(cudaStream_t stream, unsigned* flags) {
    if (!flags) return record(cudaErrorInvalidValue);
    if (check_stream(stream) != cudaSuccess) return record(cudaErrorInvalidResourceHandle);
    *flags = stream && !stream->blocking ? cudaStreamNonBlocking : cudaStreamDefault;
    return cudaSuccess;
}

cudaError_t cudaStreamDestroy(cudaStream_t stream) {
    if (!stream || check_stream(stream) != cudaSuccess) return record(cudaErrorInvalidResourceHandle);
    queue().destroy(stream);
    return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
    const HostCall call = WARPDRILL_HOST_CALL("cudaStreamSynchronize");
    if (check_stream(stream) != cudaSuccess) return record(cudaErrorInvalidResourceHandle);
    if (const cudaError_t error = check_stream_wait(stream, call); error != cudaSuccess) return error;
    count_host_wait();
    finish(queue().last_of(stream));
    return cudaSuccess;
}

// The queued work runs when a synchronisation needs it, so a program that
// polls (while (cudaStreamQuery(s) == cudaErrorNotReady) ...) would wait
// forever: the query runs it, and the program does not count as waiting.
cudaError_t cudaStreamQuery(cudaStream_t stream) {
    const HostCall call = WARPDRILL_HOST_CALL("cudaStreamQuery");
    if (check_stream(stream) != cudaSuccess) return record(cudaErrorInvalidResourceHandle);
    if (const cudaError_t error = check_stream_wait(stream, call); error != cudaSuccess) return error;
    finish(queue().last_of(stream));
    return cudaSuccess;
}

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned flags) {
    const HostCall call = WARPDRILL_HOST_CALL("cudaStreamWaitEvent");
    if (check_stream(stream) != cudaSuccess || !event) return record(cudaErrorInvalidResourceHandle);
    if (flags != 0) return record(cudaErrorInvalidValue);
    if (const cudaError_t error = check_queue(stream, call); error != cudaSuccess) return error;
    if (captures(stream) || recorded_in_capture(event)) return capture_event_wait(stream, event, call);
    enqueue(
        stream, WorkKind::nothing, [] {}, event->recorded);
    return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize() {
    const HostCall call = WARPDRILL_HOST_CALL("cudaDeviceSynchronize");
    if (const cudaError_t error = check_device_wait(call); error != cudaSuccess) return error;
    count_host_wait();
    finish_device(current_device());
    return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t* event) { return cudaEventCreateWithFlags(event, cudaEventDefault); }

cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned flags) {
    if (!event || (flags & ~(cudaEventBlockingSync | cudaEventDisableTiming))) return record(cudaErrorInvalidValue);
    *event = new CUevent_st;
    (*event)->device = current_device();
    (*event)->timing = !(flags & cudaEventDisableTiming);
    return cudaSuccess;
}

// Work queued before the destruction still records into its own time slot.
cudaError_t cudaEventDestroy(cudaEvent_t event) {
    if (!event) return record(cudaErrorInvalidResourceHandle);
    delete event;
    return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
    const HostCall call = WARPDRILL_HOST_CALL("cudaEventRecord");
    if (!event || check_stream(stream) != cudaSuccess) return record(cudaErrorInvalidResourceHandle);
    // As on a GPU: an event records only on a stream of its own GPU.
    if (device_of(stream) != event->device) return record(cudaErrorInvalidResourceHandle);
    if (const cudaError_t error = check_queue(stream, call); error != cudaSuccess) return error;
    if (captures(stream)) {
        capture_event_record(event, stream);
        return cudaSuccess;
    }
    auto time = std::make_shared<std::chrono::steady_clock::time_point>();
    event->time = time;
    event->capture_id = 0;
    event->recorded =
        enqueue(stream, WorkKind::nothing, [time] { *time = std::chrono::steady_clock::now(); });
    return cudaSuccess;
}

cudaError_t cudaEventSynchronize(cudaEvent_t event) {
    const HostCall call = WARPDRILL_HOST_CALL("cudaEventSynchronize");
    if (!event) return record(cudaErrorInvalidResourceHandle);
    if (const cudaError_t error = check_event_wait(event, call); error != cudaSuccess) return error;
    count_host_wait();
    finish(event->recorded);
    return cudaSuccess;
}

cudaError_t cudaEventQuery(cudaEvent_t event) {
    const HostCall call = WARPDRILL_HOST_CALL("cudaEventQuery");
    if (!event) return record(cudaErrorInvalidResourceHandle);
    if (const cudaError_t error = check_event_wait(event, call); error != cudaSuccess) return error;
    finish(event->recorded);
    return cudaSuccess;
}

cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
    if (!ms || !start || !end) return record(cudaErrorInvalidValue);
    if (recorded_in_capture(start) || recorded_in_capture(end)) return record(cudaErrorCapturedEvent);
    if (!start->time || !end->time || !start->timing || !end->timing || start->device != end->device) {
        return record(cudaErrorInvalidResourceHandle);
    }
    if (!finished(start->recorded) || !finished(end->recorded)) return record(cudaErrorNotReady);
    *ms = std::chrono::duration<float, std::milli>(*end->time - *start->time).count();
    return cudaSuccess;
}

namespace {

// Queues `function` (the user's, named by `code` in a fault) on `stream`.
cudaError_t enqueue_host_function(const HostCall& call, cudaStream_t stream, const void* code,
                                  std::function<void()> function) {
    if (check_stream(stream) != cudaSuccess) return record(cudaErrorInvalidResourceHandle);
    if (const cudaError_t error = check_queue(stream, call); error != cudaSuccess) return error;
    const WorkSerial serial =
        enqueue(stream, WorkKind::host_function, host_function_work(code, std::move(function)));
    if (!finished(serial)) host_function_thread().run_when_ready(serial);
    return cudaSuccess;
}

}  // namespace

cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t function, void* data) {
    if (!function) return record(cudaErrorInvalidValue);
    const HostCall call = WARPDRILL_HOST_CALL("cudaLaunchHostFunc");
    return enqueue_host_function(call, stream, reinterpret_cast<const void*>(function),
                                 [function, data] { function(data); });
}

// No error can reach a callback here: a fault ends the program first.
cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void* data,
                                  unsigned flags) {
    if (!callback || flags != 0) return record(cudaErrorInvalidValue);
    const HostCall call = WARPDRILL_HOST_CALL("cudaStreamAddCallback");
    return enqueue_host_function(call, stream, reinterpret_cast<const void*>(callback),
                                 [stream, callback, data] { callback(stream, cudaSuccess, data); });
}
