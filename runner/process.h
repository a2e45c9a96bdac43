// Runs a program with its output captured and a time limit.
#pragma once

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

namespace warpdrill::runner {

struct ProcessResult {
    int exit_code = -1;      // when it exited
    int signal = 0;          // when a signal ended it
    bool timed_out = false;  // stopped after the time limit
    std::string output;      // stdout and stderr, interleaved
    double seconds = 0;
};

// Runs argv[0] with the arguments, extra environment entries ("NAME=value")
// added; after `limit` the whole process group is killed.
ProcessResult run_process(const std::vector<std::string>& argv, std::chrono::seconds limit,
                          const std::vector<std::string>& environment = {});

// Runs argv[0] in `directory` with the terminal (or whatever stdin, stdout
// and stderr are) as its own, and returns its exit code (128 + the signal
// when a signal ended it).
int run_attached(const std::vector<std::string>& argv, const std::filesystem::path& directory);

}  // namespace warpdrill::runner
