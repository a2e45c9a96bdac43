// What a check program tells the runner, in data: a file of JSON lines,
// written by the checks' reporter (common/src/catch/catch_main.cpp) at the
// path the runner names in WARPDRILL_RESULT_FILE, and read by the runner,
// grading and the profile (runner/core/check_record.cpp). The verdict is made
// from this record and the program's exit status alone: the program's
// output is the learner's to read, and a kernel's printf can write anything
// there. One object a line, each with an "event":
//   {"event": "case", "name": "...", "lesson": 3, "passed": false,
//    "failures": ["..."], "warnings": ["..."], "skipped": "..."}
//      a test case ended: each failure as the learner reads it, each
//      warning (a check's WARN, the backend's advice), and why this machine
//      could not run its checks ("" when it could);
//   {"event": "no-match", "filter": "[shuffle]"}
//      the test filter matched no test case;
//   {"event": "end", "backend": "cpu", "cases": {"passed": 2, "failed": 1},
//    "assertions": {"passed": 40, "failed": 1}}
//      every check ran. A program that ends without it did not finish.
// A program whose every test case was skipped (this machine cannot run
// them) and none failed exits with kSkippedExitCode, so that ctest reports
// it skipped (SKIP_RETURN_CODE; cmake/CheckRecord.cmake reads the number here).
#pragma once

namespace warpdrill::check_record {

inline constexpr const char* kFileVariable = "WARPDRILL_RESULT_FILE";
inline constexpr int kSkippedExitCode = 77;

inline constexpr const char* kEvent = "event";
inline constexpr const char* kCaseEvent = "case";
inline constexpr const char* kNoMatchEvent = "no-match";
inline constexpr const char* kEndEvent = "end";

inline constexpr const char* kName = "name";
inline constexpr const char* kLesson = "lesson";
inline constexpr const char* kPassed = "passed";
inline constexpr const char* kFailures = "failures";
inline constexpr const char* kWarnings = "warnings";
inline constexpr const char* kSkipped = "skipped";
inline constexpr const char* kFilter = "filter";
inline constexpr const char* kBackend = "backend";
inline constexpr const char* kCases = "cases";
inline constexpr const char* kAssertions = "assertions";
inline constexpr const char* kFailed = "failed";

}  // namespace warpdrill::check_record
