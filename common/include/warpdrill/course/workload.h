// A lesson's workload: its sum (or ReduceScale, or lesson 13's add) at n
// floats, launched through the lesson's own launch code (check/launch.cu),
// the way the course's manifest (lessons/lessons.toml) names it. `warpdrill
// profile` runs a workload once (common/src/profile/profile_lesson.cpp), the
// GPU benchmark times it (bench/lesson_bench.cu): both launch what the
// lesson's checks launch.
// Each workload is one file of common/src/workloads/, named as in the
// manifest, compiled once and linked with each lesson that names it.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace warpdrill::course {

// A workload's input as the host knows it: the values on the device, and
// their sums in double precision.
struct WorkloadInput {
    std::span<const float> values;
    double sum = 0;
    double sum_abs = 0;
};

class Workload {
  public:
    // What a benchmark times on its own: the whole sum, or one of
    // ReduceScale's two kernels. The profile runs every part, in order.
    struct Part {
        std::string name;  // after "lesson N": "", " baseline, block per row", ...
        std::string grid;  // each launch's blocks, then the threads per block: "1024+4+1 x 256"
    };

    virtual ~Workload() = default;
    // What the workload computes ("sum", "reduce_scale", "ring_add"): the
    // profile compares the counts of lessons that compute the same.
    virtual const char* computes() const = 0;
    const std::vector<Part>& parts() const { return parts_; }
    // Before a run whose result is checked: outputs poisoned, and whatever a
    // run changes in place set back.
    virtual void reset() = 0;
    // Launches part `part` over d_in (the workload's n floats, 16-byte
    // aligned): launches only, nothing allocated, nothing waited for.
    virtual void launch(std::size_t part, const float* d_in) = 0;
    // After reset(), launch(part, input's values on the device) and
    // check_launch(): "" when the part's result is right, else what is wrong.
    virtual std::string wrong(std::size_t part, const WorkloadInput& input) = 0;

  protected:
    std::vector<Part> parts_;
};

// What make_workload throws where this GPU cannot run the lesson (lesson
// 12's clusters need compute capability 9.0): the reason, to skip it by.
struct NotOnThisGpu : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The workload at n floats. A lesson that sizes its grid to the GPU
// launches at most max_blocks blocks where it must hold them all at once
// (0: as many as the GPU holds).
std::unique_ptr<Workload> make_workload(std::int64_t n, unsigned max_blocks = 0);

// The sizes a benchmark runs the workload at (none: it is not benchmarked
// as a sum; lesson 13 has its own).
std::vector<std::int64_t> benchmark_sizes(bool quick);

// Defined for each lesson by its build (cmake/Lessons.cmake): its number,
// and its title as its README gives it ("sequential addressing").
int lesson_number();
const char* lesson_title();

// The reduce_scale workload's matrix: its n floats as rows of this many columns.
inline constexpr int kReduceScaleCols = 128;

// "" when `got`, a sum of input.values whose longest chain of dependent
// additions is sequential_terms long, is within the sum's tolerance, else
// what is wrong.
std::string sum_error(double got, const WorkloadInput& input, std::size_t sequential_terms);

// "1024+4+1 x 256"
std::string grid_text(const std::vector<unsigned>& launch_blocks, unsigned threads);

}  // namespace warpdrill::course
