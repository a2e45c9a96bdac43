// `warpdrill profile` on a GPU runs Nsight Compute. Here stand-ins for ncu
// and nvidia-smi, first on the PATH, answer as they do: the CSV as ncu 2025.3
// writes it (its own "==PROF==" lines among the rows, numbers with thousands
// separators), a refusal to read the counters, and no ncu at all.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include "ncu.h"
#include "warpdrill/catch.h"

namespace fs = std::filesystem;
using warpdrill::runner::NcuRun;
using warpdrill::runner::run_ncu;

namespace {

// A directory of stand-in programs put first on the PATH while it lives.
class StandIns {
  public:
    StandIns() : dir_(fs::temp_directory_path() / ("warpdrill-ncu-test-" + std::to_string(getpid()))),
                 saved_path_(std::getenv("PATH") ? std::getenv("PATH") : "") {
        fs::create_directories(dir_);
        setenv("PATH", (dir_.string() + ":" + saved_path_).c_str(), 1);
    }
    ~StandIns() {
        setenv("PATH", saved_path_.c_str(), 1);
        fs::remove_all(dir_);
    }
    void program(const std::string& name, const std::string& script) {
        const fs::path file = dir_ / name;
        std::ofstream(file) << "#!/bin/sh\n" << script;
        fs::permissions(file, fs::perms::owner_all);
    }
    fs::path log() const { return dir_ / "ncu.csv"; }
    // The PATH without the stand-ins nor anything else: no ncu anywhere.
    void hide_everything() { setenv("PATH", dir_.string().c_str(), 1); }

  private:
    fs::path dir_;
    std::string saved_path_;
};

// Two launches of lesson 3's kernel, three metrics each.
constexpr const char* kNcuWritesCsv = R"SH(while [ $# -gt 0 ]; do [ "$1" = --log-file ] && log=$2; shift; done
cat > "$log" <<'CSV'
==PROF== Connected to process 4242
"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC","Section Name","Metric Name","Metric Unit","Metric Value"
"0","4242","profile-lesson-03","h","reduce_sequential","1","7","(256, 1, 1)","(4096, 1, 1)","0","9.0","Command line profiler metrics","l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum","","32,768"
"0","4242","profile-lesson-03","h","reduce_sequential","1","7","(256, 1, 1)","(4096, 1, 1)","0","9.0","Command line profiler metrics","gpu__time_duration.sum","ns","7,904"
"0","4242","profile-lesson-03","h","reduce_sequential","1","7","(256, 1, 1)","(4096, 1, 1)","0","9.0","Command line profiler metrics","launch__occupancy_limit_registers","block","n/a"
==PROF== Profiling "reduce_sequential" - 1: 0%....50%....100% - 1 pass
"1","4242","profile-lesson-03","h","reduce_sequential","1","7","(256, 1, 1)","(16, 1, 1)","0","9.0","Command line profiler metrics","l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum","","128"
"1","4242","profile-lesson-03","h","reduce_sequential","1","7","(256, 1, 1)","(16, 1, 1)","0","9.0","Command line profiler metrics","gpu__time_duration.sum","ns","2,144"
==PROF== Disconnected from process 4242
CSV
)SH";

NcuRun measure(const StandIns& stand_ins) {
    return run_ncu({.lesson = 3,
                    .what = "your kernel",
                    .program = {"profile-lesson-03", "--floats", "1048576"},
                    .metrics = {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "gpu__time_duration.sum"},
                    .log = stand_ins.log(),
                    .time_limit = std::chrono::seconds(30)});
}

}  // namespace

TEST_CASE("ncu's CSV becomes the lesson's launches, with the GPU named", "[runner][ncu]") {
    StandIns stand_ins;
    stand_ins.program("ncu", kNcuWritesCsv);
    stand_ins.program("nvidia-smi", "echo 'NVIDIA H100 80GB HBM3'\n");
    const NcuRun run = measure(stand_ins);
    INFO(run.problem);
    REQUIRE(run.table);
    CHECK(run.problem.empty());
    CHECK(run.table->kernels.size() == 2);
    CHECK(run.table->kernels.at({3, 1}) == "reduce_sequential");
    CHECK(run.table->launch(3, 1)->at("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum") == 32768);
    CHECK(run.table->launch(3, 2)->at("gpu__time_duration.sum") == 2144);
    CHECK_FALSE(run.table->launch(3, 1)->contains("launch__occupancy_limit_registers"));  // "n/a": no value
    CHECK(run.table->launch(3, 3) == nullptr);
    CHECK(run.table->device == "NVIDIA H100 80GB HBM3");
    CHECK(run.table->source.find("your kernel measured just now by Nsight Compute on this GPU, an NVIDIA H100") !=
          std::string::npos);
}

TEST_CASE("ncu that may not read the counters, or none at all, gets one line that says so", "[runner][ncu]") {
    StandIns stand_ins;
    SECTION("ERR_NVGPUCTRPERM") {
        stand_ins.program("ncu", "echo '==ERROR== ERR_NVGPUCTRPERM - The user does not have permission'; exit 1\n");
        const NcuRun run = measure(stand_ins);
        CHECK_FALSE(run.table);
        CHECK(run.problem.starts_with("ncu may not read this GPU's performance counters (ERR_NVGPUCTRPERM)"));
    }
    SECTION("no ncu on the PATH") {
        stand_ins.hide_everything();
        const NcuRun run = measure(stand_ins);
        CHECK_FALSE(run.table);
        CHECK(run.problem.starts_with("Nsight Compute (ncu) is not on the PATH"));
    }
    SECTION("the program failed under ncu") {
        stand_ins.program("ncu", "echo 'profile-lesson-03: an illegal memory access'; exit 1\n");
        const NcuRun run = measure(stand_ins);
        CHECK_FALSE(run.table);
        CHECK(run.problem.find("ncu did not measure lesson 3") != std::string::npos);
        CHECK(run.problem.find("an illegal memory access") != std::string::npos);
    }
}
