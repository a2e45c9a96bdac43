// The runner reads compute-sanitizer's reports as an H100 printed them
// (tests/data/compute-sanitizer/, made by scripts/gpu-check.sh --sanitizer).
#include <fstream>
#include <sstream>
#include <string>

#include "sanitizer.h"
#include "warpdrill/catch.h"

namespace {

std::vector<std::string> findings(const std::string& tool, const std::string& probe) {
    std::ifstream file(WARPDRILL_TEST_DATA_DIR "/compute-sanitizer/" + tool + "-" + probe + ".txt");
    REQUIRE(file.good());
    std::ostringstream text;
    text << file.rdbuf();
    return warpdrill::runner::read_sanitizer_report(tool, text.str());
}

}  // namespace

TEST_CASE("memcheck: an access past a __shared__ array, with the thread and the line", "[runner][sanitizer]") {
    const auto found = findings("memcheck", "shared-past-end");
    REQUIRE(found.size() == 1);
    CHECK(found[0] ==
          "out-of-bounds write of 4 bytes to shared memory by thread (63,0,0) of block (0,0,0) at sanitizer_probe.cu:13");
}

TEST_CASE("racecheck: both accesses of a race, with their lines", "[runner][sanitizer]") {
    const auto tree = findings("racecheck", "tree-without-barrier");
    REQUIRE(tree.size() == 1);
    CHECK(tree[0] == "race on shared memory: a read at sanitizer_probe.cu:24 and a write at sanitizer_probe.cu:24 "
                     "that no barrier orders (508 times)");
    const auto unroll = findings("racecheck", "volatile-last-warp");
    REQUIRE(unroll.size() == 4);
    CHECK(unroll[0].starts_with("race on shared memory: a read at sanitizer_probe.cu:55 and a write at "
                                "sanitizer_probe.cu:54"));
}

TEST_CASE("racecheck: code without line information is named by its kernel, and a race seen in every launch once",
          "[runner][sanitizer]") {
    const auto found = findings("racecheck", "lesson-3-without-lineinfo");
    REQUIRE(found.size() == 1);
    CHECK(found[0] == "race on shared memory: a read at reduce_sequential (no line: built without -lineinfo) and a "
                      "write at reduce_sequential (no line: built without -lineinfo) that no barrier orders (180 times in 3 "
                      "launches)");
}

TEST_CASE("clean reports give no finding", "[runner][sanitizer]") {
    CHECK(findings("memcheck", "global-past-end").empty());
    CHECK(findings("synccheck", "barrier-in-branch").empty());
}

// Reports of cpu-cuda/tests/mistakes/ on an H100 (scripts/mistake-classes.sh gpu, 2026-11-26).
TEST_CASE("memcheck: a misaligned vector load is named as one", "[runner][sanitizer]") {
    const auto found = findings("memcheck", "misaligned-vector-load");
    REQUIRE(found.size() == 1);
    CHECK(found[0] == "misaligned 16-byte read of global memory by thread (0,0,0) of block (0,0,0) at "
                      "misaligned_vector_load.cu:6");
}

TEST_CASE("memcheck: a runtime call's error, with the program's line, and not the errors a kernel fault causes",
          "[runner][sanitizer]") {
    CHECK(findings("memcheck", "copy-past-end") ==
          std::vector<std::string>{"cudaMemcpy at copy_past_end.cu:10 returned cudaErrorInvalidValue"});
    CHECK(findings("memcheck", "double-free") ==
          std::vector<std::string>{"cudaFree at double_free.cu:9 returned cudaErrorInvalidValue"});
    const auto shared = findings("memcheck", "oob-shared-write");
    REQUIRE(!shared.empty());
    CHECK(shared[0].starts_with("out-of-bounds write of 4 bytes to shared memory by thread (255,0,0)"));
    for (const std::string& finding : shared) CHECK(finding.find("cudaErrorLaunchFailure") == std::string::npos);
}

TEST_CASE("memcheck: a leak, with the line that allocated it", "[runner][sanitizer]") {
    CHECK(findings("memcheck", "leak") == std::vector<std::string>{"256 bytes never freed, allocated at leak.cu:7"});
}

TEST_CASE("initcheck: an uninitialized read once per line, at the program's line before CUDA's header",
          "[runner][sanitizer]") {
    CHECK(findings("initcheck", "uninitialized-tail") ==
          std::vector<std::string>{"uninitialized read of 4 bytes of global memory by thread (0,0,0) of block "
                                   "(1,0,0) at uninitialized_tail.cu:8"});
    const auto accumulator = findings("initcheck", "uninitialized-accumulator");
    REQUIRE(accumulator.size() == 1);
    CHECK(accumulator[0].ends_with("at uninitialized_accumulator.cu:7 (through sm_20_atomic_functions.hpp:84)"));
}
