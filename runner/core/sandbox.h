// The grading sandbox: a learner's build and checks run under bubblewrap
// (bwrap), with no network, their own processes, the system read-only, only
// what grading shows them of the reference, and limits on what each may take.
// On the CPU backend a kernel is plain C++ that runs with the grader's rights;
// in here it can write only its own build, and nothing of it outlives the run.
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "process.h"

namespace warpdrill::runner {

namespace fs = std::filesystem;

// What a program in the sandbox may take (grade's and grade-all's options).
struct SandboxLimits {
    long cpu_seconds = 600;     // CPU time, each process (a check run's wall time is --time-limit)
    long memory_mib = 4096;     // memory it can write to, each process
    long processes = 512;       // processes and threads, all of the sandbox's together
    long open_files = 512;      // open files, each process
    long file_size_mib = 1024;  // size of each file written
    // What all the files of its writable folders (its kernel files and its
    // build) may take on disk together. A build of the 13 lessons takes
    // about 320 MiB on the CPU backend.
    long disk_mib = 2048;
};

// What a program in the sandbox sees of this machine besides the system
// (/usr, /etc, ...), at the same paths; nothing else is there. Paths that do
// not exist are left out.
struct SandboxView {
    std::vector<fs::path> read_only;
    std::vector<fs::path> writable;
    fs::path working_dir;  // where programs start; "/" when empty
};

// A limit that stopped a program, and the sentence that names it.
struct LimitReached {
    enum class Kind { time, memory, file_size, disk, processes, open_files } kind;
    std::string sentence;  // "Sandbox: it reached the memory limit (4096 MiB a process)."
};

class Sandbox {
  public:
    // What makes the sandboxes here ("bubblewrap 0.8.0"), after making one;
    // when none can be made, throws saying what is missing.
    static std::string check_available(const SandboxLimits& limits);

    // Run by root, the programs run as the user nobody (see sandbox.cpp), and
    // the writable folders become nobody's.
    Sandbox(const SandboxView& view, const SandboxLimits& limits);

    // run_process, inside. The environment is PATH, LANG and LC_ALL, and the
    // WARPDRILL_ settings of this one's, then `environment` ("NAME=value");
    // the exit code of a program a signal ended becomes its signal.
    ProcessResult run(const std::vector<std::string>& argv, std::chrono::seconds limit,
                      const std::vector<std::string>& environment = {}) const;

    // Which limit stopped a program run here, if one did.
    std::optional<LimitReached> limit_reached(const ProcessResult& run) const;

  private:
    std::vector<std::string> command(const std::vector<std::string>& argv,
                                     const std::vector<std::string>& environment) const;

    SandboxLimits limits_;
    std::vector<std::string> mounts_;  // bwrap's options that make the view
    ChildLimits child_limits_;
};

// Runs a program: in `sandbox` where there is one (grading), else as it is.
ProcessResult run_in(const Sandbox* sandbox, const std::vector<std::string>& argv, std::chrono::seconds limit,
                     const std::vector<std::string>& environment = {});

}  // namespace warpdrill::runner
