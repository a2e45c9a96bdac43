#include "launch_faults.h"

#include <csignal>

#include "faults.h"  // dims, where_text
#include "warpdrill/messages.h"

namespace warpdrill::cpu::detail {

namespace {

// "block (1,0,0), thread 5, last at the sync point at reduce.cu:14"
std::string running_text(const RunningThread& running) {
    const std::string block = dims(running.block);
    if (!running.rank) return messages::text("backend.name.block", {{"block", block}});
    if (running.last_sync.line() == 0) {
        return messages::text("backend.launch.running_thread", {{"block", block}, {"thread", *running.rank}});
    }
    return messages::text(
        "backend.launch.running_thread_at_sync",
        {{"block", block}, {"thread", *running.rank}, {"where", where_text(running.last_sync)}});
}

}  // namespace

std::string trap_called(Where where) {
    return messages::text("backend.launch.trap", {{"where", where_text(where)}});
}

std::string assert_failed(const char* assertion, const std::string& file, unsigned line, const char* function,
                          uint3 block, uint3 thread) {
    const std::string where = file + ":" + std::to_string(line);
    // A GPU's own words, printed to the program's standard output; it writes
    // an index as dims() does, in brackets: "[1,0,0]".
    const auto bracketed = [](uint3 v) {
        std::string text = dims(v);
        text.front() = '[';
        text.back() = ']';
        return text;
    };
    const std::string gpu_line = where + ": " + function + ": block: " + bracketed(block) +
                                 ", thread: " + bracketed(thread) + " Assertion `" + assertion + "` failed.";
    return messages::text("backend.launch.assert_failed",
                          {{"assertion", assertion}, {"where", where}, {"gpu_line", gpu_line}});
}

std::string device_double_free() { return messages::text("backend.launch.device_double_free"); }
std::string device_free_of_other_memory() {
    return messages::text("backend.launch.device_free_of_other_memory");
}

std::string host_function_called_runtime(const std::string& function) {
    return messages::text("backend.launch.host_function_called_runtime", {{"function", function}});
}

std::string intrinsic_outside_kernel() { return messages::text("backend.launch.intrinsic_outside_kernel"); }

std::string kernel_crashed(int signal, const RunningThread& running, bool in_device_memory) {
    return "\n" +
           messages::text(
               "backend.launch.crashed",
               {{"signal", messages::text(signal == SIGSEGV ? "backend.launch.segmentation_fault"
                                                            : "backend.launch.bus_error")},
                {"running", running_text(running)},
                {"cause", messages::text(in_device_memory ? "backend.launch.cause.device_memory"
                                                          : "backend.launch.cause.other_memory")}}) +
           "\n";
}

std::string kernel_never_finished(long long seconds, const std::vector<RunningThread>& running) {
    std::string where;
    for (const RunningThread& thread : running) where += "\n  " + running_text(thread);
    return "\n" +
           messages::text("backend.launch.never_finished", {{"seconds", seconds}, {"running", where}}) + "\n";
}

std::string program_stopped(const std::string& fault, bool backend_lacks) {
    return messages::text(backend_lacks ? "backend.fault.program_stopped_lacking"
                                        : "backend.fault.program_stopped") +
           "\n" + fault + "\n";
}

}  // namespace warpdrill::cpu::detail
