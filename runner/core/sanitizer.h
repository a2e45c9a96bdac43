// On a GPU, a failing lesson (any lesson, with `check --sanitize`) is run
// again under compute-sanitizer (memcheck, initcheck, racecheck, synccheck),
// and what it reports is said in the words the CPU backend uses for the same
// mistakes.
#pragma once

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

namespace warpdrill::runner {

// One finding per report of `tool`'s output, in plain words ("out-of-bounds
// write of 4 bytes to shared memory by thread (63,0,0) of block (0,0,0) at
// reduce.cuh:13"); none for a clean report.
std::vector<std::string> read_sanitizer_report(const std::string& tool, const std::string& report);

// Runs the check program under each tool that finds something, with a time
// limit each, and returns the findings; empty when compute-sanitizer is not
// installed or finds nothing.
std::vector<std::string> explain_with_sanitizer(const std::filesystem::path& check_program,
                                                std::chrono::seconds limit_per_tool);

}  // namespace warpdrill::runner
