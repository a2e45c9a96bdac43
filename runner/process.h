// Runs a program with its output captured and a time limit.
#pragma once

#include <sys/resource.h>
#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace warpdrill::runner {

struct ProcessResult {
    int exit_code = -1;      // when it exited
    int signal = 0;          // when a signal ended it
    bool timed_out = false;  // stopped after the time limit
    std::string output;      // stdout and stderr, interleaved
    double seconds = 0;
};

// What a child process is confined to before it runs its program, set
// between fork and exec (the grading sandbox, sandbox.h, fills it in). Its
// descriptors above stderr close on exec too, whoever opened them.
struct ChildLimits {
    std::vector<std::pair<int, rlimit>> resource_limits;    // setrlimit(resource, limit)
    std::optional<std::pair<uid_t, gid_t>> user_and_group;  // whom to become (only root may)
};

inline constexpr std::size_t kMaxOutputBytes = std::size_t{16} << 20;

// Runs argv[0] with the arguments, extra environment entries ("NAME=value")
// added, confined by `child_limits` when given; after `limit` the whole
// process group is killed. Of output past kMaxOutputBytes it keeps the first
// and last halves.
ProcessResult run_process(const std::vector<std::string>& argv, std::chrono::seconds limit,
                          const std::vector<std::string>& environment = {}, const ChildLimits* child_limits = nullptr);

// Runs argv[0] in `directory` with the terminal (or whatever stdin, stdout
// and stderr are) as its own, and returns its exit code (128 + the signal
// when a signal ended it).
int run_attached(const std::vector<std::string>& argv, const std::filesystem::path& directory);

}  // namespace warpdrill::runner
