#include "launch_faults.h"

#include <csignal>

#include "faults.h"  // dims, where_text

namespace warpdrill::cpu::detail {

namespace {

// "block (1,0,0), thread 5, last at the sync point at reduce.cu:14"
std::string running_text(const RunningThread& running) {
    std::string text = "block " + dims(running.block);
    if (running.rank) {
        text += ", thread " + std::to_string(*running.rank);
        if (running.last_sync.line() != 0) {
            text += ", last at the sync point at " + where_text(running.last_sync);
        }
    }
    return text;
}

}  // namespace

std::string trap_called(Where where) {
    return "__trap() at " + where_text(where) +
           ": the kernel stops here (a GPU ends it with cudaErrorIllegalInstruction)";
}

std::string intrinsic_outside_kernel() {
    return "a CUDA device intrinsic was called outside a kernel launched with warpdrill::launch";
}

std::string kernel_crashed(int signal, const RunningThread& running, bool in_device_memory) {
    const std::string cause =
        in_device_memory
            ? "an access past the end of a cudaMalloc'd buffer, or to one already freed (launches of up to "
              "2^17 threads name the line: run a smaller size)"
            : "an access outside its buffers, or a fiber stack overflow (raise WARPDRILL_FIBER_STACK_KB)";
    return "\nwarpdrill: the kernel crashed (" +
           std::string(signal == SIGSEGV ? "segmentation fault" : "bus error") + ") in " +
           running_text(running) + ": " + cause + "\n";
}

std::string kernel_never_finished(long long seconds, const std::vector<RunningThread>& running) {
    std::string where;
    for (const RunningThread& thread : running) where += "\n  " + running_text(thread);
    return "\nwarpdrill: the kernel has not finished after " + std::to_string(seconds) +
           " s\nstill running:" + where +
           "\na loop that never ends? (WARPDRILL_KERNEL_TIMEOUT_S sets the limit)\n";
}

std::string program_stopped(const std::string& fault) {
    return "warpdrill's CPU backend stopped the program: a kernel broke a rule of CUDA's\n" + fault + "\n";
}

}  // namespace warpdrill::cpu::detail
