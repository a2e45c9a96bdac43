// What ends a launch, or the program, other than a rule that faults.h or
// sync_faults.h words: a __trap(), a failed assert(), a device intrinsic called outside a
// kernel, a crash, a kernel that never finishes, and the line a program that
// did not catch a fault ends with. Each message is a function of named
// fields; the wording, in English and Chinese, is in messages/backend.toml.
// Internal to the backend.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "warpdrill/cpu/cuda_runtime.h"

namespace warpdrill::cpu::detail {

// A kernel thread called __trap().
std::string trap_called(Where where);
// assert(`assertion`) failed in `function` at `file`:`line`, in thread
// `thread` of block `block`: the kernel stops, as a GPU's does, and the
// message quotes the line a GPU prints.
std::string assert_failed(const char* assertion, const std::string& file, unsigned line, const char* function,
                          uint3 block, uint3 thread);
// free() in a kernel of memory that free() took back before, or that
// malloc() in a kernel did not give.
std::string device_double_free();
std::string device_free_of_other_memory();
// A host function queued on a stream, `function`, called CUDA's runtime.
std::string host_function_called_runtime(const std::string& function);
// A device intrinsic (a barrier, a shuffle, ...) was called where no kernel runs.
std::string intrinsic_outside_kernel();

// What a worker is running when the launch must end: its block, and the
// thread running in it with the last sync point it reached, if any.
struct RunningThread {
    uint3 block;
    std::optional<int> rank;
    Where last_sync;  // line 0: none yet
};
// The kernel crashed with SIGSEGV or SIGBUS (`signal`) in `running`;
// `in_device_memory` says whether the address it touched is in a GPU's memory.
std::string kernel_crashed(int signal, const RunningThread& running, bool in_device_memory);
// The kernel has not finished after `seconds` (WARPDRILL_KERNEL_TIMEOUT_S):
// where each worker still is.
std::string kernel_never_finished(long long seconds, const std::vector<RunningThread>& running);
// A program of its own (`warpdrill run`) that did not catch the KernelFault
// of a kernel ends with this, and the fault's message; a BackendLacks says
// that the backend, not the program, is short.
std::string program_stopped(const std::string& fault, bool backend_lacks);

}  // namespace warpdrill::cpu::detail
