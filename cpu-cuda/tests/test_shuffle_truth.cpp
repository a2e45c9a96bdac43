// The backend's shuffles against the table measured on a GPU: every op,
// every width 1..32, lanes and offsets from -33 to 65 and a few extremes.
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "truth_kernels.h"
#include "warpdrill/catch.h"

namespace {

struct TruthRow {
    ShuffleCase shuffle;
    std::string lanes;  // character k names the lane that lane k read
    std::string text;
};

std::vector<TruthRow> read_truth_table() {
    std::ifstream file(WARPDRILL_TEST_DATA_DIR "/shuffle_truth.txt");
    REQUIRE(file.good());
    const std::map<std::string, ShuffleOp> ops{
        {"idx", ShuffleOp::idx}, {"up", ShuffleOp::up}, {"down", ShuffleOp::down}, {"xor", ShuffleOp::xor_}};
    std::vector<TruthRow> rows;
    for (std::string line; std::getline(file, line);) {
        std::istringstream fields(line);
        std::string op;
        TruthRow row;
        if (!(fields >> op) || !ops.count(op)) continue;  // comments and launch lines
        fields >> row.shuffle.width >> row.shuffle.param >> row.lanes;
        row.shuffle.op = ops.at(op);
        row.text = line;
        rows.push_back(row);
    }
    return rows;
}

// CUDA defines shuffles for widths that are powers of two; the table holds
// what a GPU does with the others too, but the CPU backend faults on them
// (cpu-cuda/tests/test_cpu_backend.cpp), so only the defined widths run here.
bool width_runs_here(int width) {
#if defined(WARPDRILL_BACKEND_CPU)
    return (width & (width - 1)) == 0;
#else
    (void)width;
    return true;
#endif
}

}  // namespace

TEST_CASE("every shuffle reads the lane a GPU reads, for every width and parameter", "[backend][shuffle]") {
    std::vector<TruthRow> rows = read_truth_table();
    REQUIRE(rows.size() == 4 * 32 * 104);
    std::erase_if(rows, [](const TruthRow& row) { return !width_runs_here(row.shuffle.width); });

    std::vector<ShuffleCase> cases;
    for (const TruthRow& row : rows) cases.push_back(row.shuffle);
    const std::vector<int> source_lanes = run_shuffle_cases(cases);

    const std::string digits = "0123456789abcdefghijklmnopqrstuv";
    std::size_t wrong = 0;
    for (std::size_t c = 0; c < rows.size(); ++c) {
        std::string got(32, '?');
        for (int lane = 0; lane < 32; ++lane) {
            const int source = source_lanes[c * 32 + lane];
            if (source >= 0 && source < 32) got[lane] = digits[source];
        }
        if (got != rows[c].lanes && ++wrong <= 5) {
            FAIL_CHECK("measured on a GPU: " << rows[c].text << "\nthis backend:      " << got);
        }
    }
    CHECK(wrong == 0);
}
