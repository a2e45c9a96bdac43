// Building one of the course's CMake targets: every command that needs a
// program built (check, verify, profile, bench, run, grading) builds it here.
#pragma once

#include <chrono>
#include <filesystem>
#include <string>

#include "process.h"

namespace warpdrill::runner {

class Sandbox;

inline constexpr std::chrono::seconds kBuildLimit{900};

// `cmake --build BUILD_DIR --target TARGET`, in the grading sandbox when one is given.
ProcessResult build_target(const std::filesystem::path& build_dir, const std::string& target,
                           std::chrono::seconds limit = kBuildLimit, const Sandbox* sandbox = nullptr);

}  // namespace warpdrill::runner
