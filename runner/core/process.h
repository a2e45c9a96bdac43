// Runs a program with its output captured and a time limit.
#pragma once

#include <sys/resource.h>
#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace warpdrill::runner {

struct ProcessResult {
    int exit_code = -1;            // when it exited
    int signal = 0;                // when a signal ended it
    bool timed_out = false;        // stopped after the time limit
    bool over_disk_limit = false;  // its folders took more than ChildLimits::disk (stopped, if it still ran)
    std::string output;            // stdout and stderr, interleaved
    double seconds = 0;
};

// What the files in the folders a child process may write may take on disk,
// all together. run_process looks every quarter second (less often when a
// look takes long, so that looking takes at most a tenth of a core) and once
// more when the process has ended, and kills the process group when they
// take more. A look counts all there is, what was there before the process
// started too: each file and folder the blocks the file system gave it
// (st_blocks: a sparse file counts only what it holds), and at least 16 KiB,
// what an inode takes of an ext4 disk, so that many empty files count too
// (and a look walks at most one entry for each 16 KiB of the limit). Links
// are not followed. A folder the runner may not enter, or one nested more
// than 32 folders deep (no build makes either), counts as past the limit:
// what it holds cannot be seen.
struct DiskLimit {
    std::vector<std::filesystem::path> folders;
    std::uintmax_t bytes = 0;
};

// What a child process is confined to: resources and user set between fork
// and exec, and a disk limit watched while it runs (the grading sandbox,
// sandbox.h, fills it in). Its descriptors above stderr close on exec too,
// whoever opened them.
struct ChildLimits {
    std::vector<std::pair<int, rlimit>> resource_limits;    // setrlimit(resource, limit)
    std::optional<std::pair<uid_t, gid_t>> user_and_group;  // whom to become (only root may)
    std::optional<DiskLimit> disk;
};

inline constexpr std::size_t kMaxOutputBytes = std::size_t{16} << 20;

// Runs argv[0] with the arguments, extra environment entries ("NAME=value")
// added, confined by `child_limits` when given; after `limit`, or once its
// folders pass the disk limit, the whole process group is killed. Of output
// past kMaxOutputBytes it keeps the first and last halves.
ProcessResult run_process(const std::vector<std::string>& argv, std::chrono::seconds limit,
                          const std::vector<std::string>& environment = {}, const ChildLimits* child_limits = nullptr);

// Runs argv[0] in `directory` with the terminal (or whatever stdin, stdout
// and stderr are) as its own, and returns its exit code (128 + the signal
// when a signal ended it).
int run_attached(const std::vector<std::string>& argv, const std::filesystem::path& directory);

}  // namespace warpdrill::runner
