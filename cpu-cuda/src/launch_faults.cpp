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

std::string program_stopped(const std::string& fault) {
    return messages::text("backend.fault.program_stopped") + "\n" + fault + "\n";
}

}  // namespace warpdrill::cpu::detail
