// What checks need beyond Catch2: the thread orders and launch counters of
// the CPU backend (absent on a GPU, where checks skip what needs them), and
// messages that say which element is wrong. Their wording is in
// messages/checks.toml, in English and Chinese, rendered by the functions
// declared here (not in this header: nvcc compiles the .cu files that include it).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "warpdrill/cuda.h"

namespace warpdrill {

#if defined(WARPDRILL_BACKEND_CPU)
inline constexpr bool cpu_backend = true;
using LaunchStats = cpu::LaunchStats;
#else
inline constexpr bool cpu_backend = false;
struct LaunchStats {
    std::uint64_t blocks, threads, block_barriers, warp_syncs, shuffles, votes, atomics, warp_reductions,
        grid_syncs, cluster_syncs, wide_accesses;
};
#endif

// "cpu" or "gpu", as the run's record names the backend (warpdrill/check_record.h).
const char* backend_id();
// "backend: CPU (fibers)", in the learner's language.
std::string describe_backend();

// What the CPU backend advised against since the last call (a mask naming
// lanes a partial warp lacks, lanes of one warp writing one value to one
// word: cpu::take_warnings()); nothing on a GPU.
std::vector<std::string> backend_warnings();

// This machine cannot run a test case's checks (lesson 12 on a GPU without
// clusters): the reason goes into the run's record for the runner
// (check_record.h), which says so instead of calling the test passed.
void note_skip(const std::string& reason);
// The reason noted since the last call, or "".
std::string take_skip_reason();

// The counters of the last launch, on the CPU backend.
std::optional<LaunchStats> last_launch_stats();
// How many times the host has waited for the GPUs so far, on the CPU backend
// (warpdrill::cpu::host_waits() says which calls count).
std::optional<std::uint64_t> host_waits();

// "the result depends on the order in which threads run, ...: " and `difference`.
std::string describe_order_dependence(const std::string& difference);

// `ascending` is what `run` gave in the default thread order (ascending);
// on the CPU backend this runs it again with each block's threads in
// descending order and returns how the two differ, described by
// `differs(ascending, descending)` ("" when they are the same), or nothing.
template <class Result, class Run, class Differs>
std::optional<std::string> order_dependence(const Result& ascending, Run run, Differs differs) {
#if defined(WARPDRILL_BACKEND_CPU)
    Result descending;
    {
        cpu::ScopedThreadOrder order(cpu::ThreadOrder::descending);
        descending = run();
    }
    std::string difference = differs(ascending, descending);
    if (difference.empty()) return std::nullopt;
    return describe_order_dependence(difference);
#else
    (void)ascending;
    (void)run;
    (void)differs;
    return std::nullopt;
#endif
}

// "input seed 42 (WARPDRILL_SEED=42 replays it)"
std::string describe_seed(std::uint64_t seed);

// "1 block", "4 blocks": the catalog's message `one` or `many`, its {count} filled in.
std::string counted(std::uint64_t count, const char* one, const char* many);

// A value as printed in messages: every digit a float has ("%.9g").
std::string number_text(double value);
// A value as a std::ostream prints it with `precision` digits ("nan" and
// "inf" included), as some checks print theirs.
std::string stream_text(double value, int precision = 6);

struct Mismatch {
    std::size_t index;
    double got;
    double want;
    double tolerance;
};

// The first element where |got - want| > tolerance[i]; NaN passes only where
// the reference is NaN too, an infinity only where it is the same infinity.
std::optional<Mismatch> first_mismatch(std::span<const float> got, std::span<const double> want,
                                       std::span<const double> tolerance);
std::optional<Mismatch> first_mismatch(std::span<const int> got, std::span<const int> want);

// ReduceScale (lesson 9): y = x * (1 / max|x|) per row of a row-major (rows,
// cols) matrix, against the same in double, within two roundings of a float
// (1 / max|x| and the product). NaN does not count towards the abs-max (as
// with fmaxf) and stays NaN; a zero row stays zero; an infinite abs-max
// scales every finite element to 0 and the infinity itself to NaN. The
// first element of y that is off, with its index in y.
std::optional<Mismatch> reduce_scale_mismatch(std::span<const float> x, std::span<const float> y, int rows,
                                              int cols);

// "block_sums[3] = 12.5, but the reference is 10.25 (off by 2.25, tolerance 1e-05)"
std::string describe(const Mismatch& mismatch, const std::string& name);

// Why an output might be wrong, judged from the value alone: never written
// (still the poison pattern) or NaN from elsewhere; "" for a plain wrong number.
std::string likely_cause(const Mismatch& mismatch);

// "\nLikely cause: <cause>." for the end of a failure; "" when `cause` is "".
std::string likely_cause_line(const std::string& cause);

}  // namespace warpdrill
