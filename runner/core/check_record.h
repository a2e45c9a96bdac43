// The record a check program writes of its run (warpdrill/check_record.h
// says what it holds), as the runner reads it: the verdict is made from it
// and the exit status, never from the program's output.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace warpdrill::runner {

struct CaseRecord {
    std::string name;
    int lesson = 0;
    bool passed = false;
    std::vector<std::string> failures;  // as the learner reads them
    std::vector<std::string> warnings;
    std::string skipped;  // why this machine could not run its checks, or ""
};

struct CheckRecord {
    std::vector<CaseRecord> cases;
    bool matched_nothing = false;  // the test filter matched no test case
    bool finished = false;         // the end line came: every check ran
    std::string backend;
    int failed_cases = 0;
    std::string damage;  // a line that is not the record's ("" when every line was)

    const CaseRecord* first_failed() const;
    // Every case's warnings, then why checks were skipped, one paragraph each.
    std::string warnings() const;
    std::string skip_reasons() const;
};

// Reads the record at `path` (no file: nothing ran).
CheckRecord read_check_record(const std::filesystem::path& path);

}  // namespace warpdrill::runner
