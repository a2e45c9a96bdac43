// What a lesson's profile driver (common/src/profile/profile_lesson.cpp) tells
// the runner, in data: one JSON document, written on the CPU backend at the
// path given with --record, and read by `warpdrill profile`
// (runner/profile/gpu_model.cpp) and tests/runner/ncu_agreement.py. The driver's
// output is not read: a kernel's printf can write anything there.
//   {"lesson": 3, "floats": 1048576, "workload": "sum",
//    "launches": [{"kernel": "reduce_sum", "race": "",
//                  "grid": [4096, 1, 1], "block": [256, 1, 1],
//                  "counts": {"global_load_requests": 32768, ...},
//                  "sources": {"reduce.cuh:24": {"shared_load_wavefronts": 8192, ...}},
//                  "branches": [{"place": "reduce.cuh:20", "statement": "if",
//                                "evaluations": 72, "divergent": 64, "lanes_taken": 120,
//                                "lanes_not_taken": 1928}]}]}
// "race" is the first race the launch made ("" when none): its counts are
// then the racy kernel's. A count's name is the backend's
// (warpdrill/cpu/backend.h), as the driver writes it; so are a branch's
// (cpu::BranchProfile), in the order of the source.
#pragma once

namespace warpdrill::profile_record {

inline constexpr const char* kLesson = "lesson";
inline constexpr const char* kFloats = "floats";
inline constexpr const char* kWorkload = "workload";
inline constexpr const char* kLaunches = "launches";
inline constexpr const char* kKernel = "kernel";
inline constexpr const char* kRace = "race";
inline constexpr const char* kGrid = "grid";
inline constexpr const char* kBlock = "block";
inline constexpr const char* kCounts = "counts";
inline constexpr const char* kSources = "sources";
inline constexpr const char* kBranches = "branches";
inline constexpr const char* kPlace = "place";
inline constexpr const char* kStatement = "statement";
inline constexpr const char* kEvaluations = "evaluations";
inline constexpr const char* kDivergent = "divergent";
inline constexpr const char* kLanesTaken = "lanes_taken";
inline constexpr const char* kLanesNotTaken = "lanes_not_taken";

}  // namespace warpdrill::profile_record

#if defined(WARPDRILL_BACKEND_CPU)
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "warpdrill/cpu/backend.h"

namespace warpdrill::profile_record {

// Writes the record of a driver's `launches` to `path` (common/src/profile/
// profile_record.cpp, the warpdrill::profile_record library); false, after
// saying so, when it cannot.
bool write(const std::string& path, int lesson, long long floats, const char* workload,
           const std::vector<cpu::LaunchProfile>& launches);

// The memory counts, each under the name the record gives it (the key of
// runner/profile/metrics.toml).
std::vector<std::pair<const char*, std::uint64_t>> memory_counts(const cpu::MemoryCounts& counts);

}  // namespace warpdrill::profile_record
#endif
