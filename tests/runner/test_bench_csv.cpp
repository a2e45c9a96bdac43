// `warpdrill bench` and `warpdrill profile` read gpu_bench's CSV by its
// header's names: a kernel's name may hold commas, inside quotes, and a file
// from before a column existed gives no rows rather than wrong ones.
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include "bench_csv.h"
#include "warpdrill/catch.h"

namespace fs = std::filesystem;
using warpdrill::runner::read_bench_csv;

namespace {

fs::path write_file(const std::string& text) {
    const fs::path file = fs::temp_directory_path() / ("warpdrill-bench-csv-" + std::to_string(getpid()));
    std::ofstream(file) << text;
    return file;
}

}  // namespace

TEST_CASE("gpu_bench's rows, read by the header's names", "[bench_csv]") {
    const fs::path file = write_file(
        "kernel,idea,floats,time_us,gpu_us,gbps,correct\n"
        "\"lesson 10\",\"one launch, the last block finishes\",65536,8.768,5.152,29.9,yes\n"
        "\"lesson 9, warp per row, float4\",\"ReduceScale (442368, 128)\",56623104,157.6,153.4,2873.7,yes\n"
        "\"lesson 3\",\"sequential addressing\",65536,11.2,7.1,23.4,no\n");
    const auto rows = read_bench_csv(file);
    fs::remove(file);
    REQUIRE(rows.size() == 3);
    CHECK(rows[0].kernel == "lesson 10");
    CHECK(rows[0].floats == 65536);
    CHECK(rows[0].time_us == 8.768);
    CHECK(rows[0].gpu_us == 5.152);
    CHECK(rows[0].correct);
    CHECK(rows[1].kernel == "lesson 9, warp per row, float4");
    CHECK(rows[1].gbps == 2873.7);
    CHECK_FALSE(rows[2].correct);
}

TEST_CASE("a CSV without gpu_bench's columns gives no rows", "[bench_csv]") {
    // The columns before the GPU-alone time existed.
    const fs::path file =
        write_file("kernel,idea,floats,time_us,gbps,correct\nlesson 10,x,65536,8.2,32,yes\n");
    const auto rows = read_bench_csv(file);
    fs::remove(file);
    CHECK(rows.empty());
    CHECK(read_bench_csv(fs::temp_directory_path() / "warpdrill-no-such-file.csv").empty());
}
