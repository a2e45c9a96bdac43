// A lesson's kernels at one fixed size, for `warpdrill profile`: its
// workload (warpdrill/course/workload.h), every part of it, launched once.
// Linked per lesson with its check/launch.cu, the learner's or the
// solution's kernel files and the workload its manifest entry names
// (cmake/Lessons.cmake), for either backend:
//   - on the CPU backend it profiles every launch (warpdrill/cpu/backend.h)
//     and writes the counts, and each source line's memory counts, as the
//     record that warpdrill/profile_record.h describes, for the runner;
//   - on a GPU it only runs the launches, for Nsight Compute to measure
//     (scripts/ncu-table.sh, or `warpdrill profile` in a GPU build).
// A wrong result ends it with exit code 1 and no counts.
//   profile-NN [--floats N] [--multiprocessors M] [--register-limited-blocks B] [--record FILE]
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <span>
#include <string>
#include <vector>

#include "warpdrill/course/workload.h"
#include "warpdrill/data.h"
#include "warpdrill/host.h"
#include "warpdrill/reference.h"

#if defined(WARPDRILL_BACKEND_CPU)
#include "warpdrill/profile_record.h"
#endif

namespace {

using warpdrill::DeviceBuffer;

struct Options {
    std::int64_t floats = std::int64_t{1} << 20;
    // On the CPU backend, the GPU's to imitate (an H100's): lessons 8 and 10 size their grid from it.
    int multiprocessors = 132;
    // On the CPU backend, the most blocks an SM holds by the kernel's registers on that GPU (0: no limit).
    int register_limited_blocks = 0;
    // On the CPU backend, where the record of the counts goes (none without it).
    std::string record;
};

Options parse(int argc, char** argv) {
    Options options;
    for (int a = 1; a + 1 < argc; a += 2) {
        if (std::strcmp(argv[a], "--floats") == 0) options.floats = std::atoll(argv[a + 1]);
        if (std::strcmp(argv[a], "--multiprocessors") == 0) options.multiprocessors = std::atoi(argv[a + 1]);
        if (std::strcmp(argv[a], "--register-limited-blocks") == 0) {
            options.register_limited_blocks = std::atoi(argv[a + 1]);
        }
        if (std::strcmp(argv[a], "--record") == 0) options.record = argv[a + 1];
    }
    return options;
}

// A grid barrier keeps every block's threads alive at once, and the CPU
// backend holds at most 8 SMs' worth (64 blocks of 256 threads); the GPU
// runs the same grid, so that ncu counts the same launch.
constexpr unsigned kCoResidentBlocks = 64;

// Every part of the workload, once; true when every result is right.
bool run_workload(warpdrill::course::Workload& workload, const warpdrill::course::WorkloadInput& input,
                  const DeviceBuffer<float>& d_in) {
    for (std::size_t part = 0; part < workload.parts().size(); ++part) {
        workload.reset();
        workload.launch(part, d_in.data());
        warpdrill::check_launch();
        if (const std::string wrong = workload.wrong(part, input); !wrong.empty()) {
            std::fprintf(stderr, "%s\n", wrong.c_str());
            return false;
        }
    }
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    const Options options = parse(argc, argv);
    const std::vector<float> values =
        warpdrill::random_floats(static_cast<std::size_t>(options.floats), warpdrill::fresh_seed());
    const warpdrill::course::WorkloadInput input{values, warpdrill::reference_sum(values),
                                                 warpdrill::reference_sum_abs(values)};
    try {
        const DeviceBuffer<float> d_in{std::span<const float>(values)};
#if defined(WARPDRILL_BACKEND_CPU)
        warpdrill::cpu::set_multiprocessor_count(options.multiprocessors);
        warpdrill::cpu::set_register_limited_blocks(options.register_limited_blocks);
#endif
        const auto workload = warpdrill::course::make_workload(options.floats, kCoResidentBlocks);
#if defined(WARPDRILL_BACKEND_CPU)
        warpdrill::cpu::ProfileScope scope;
        if (!run_workload(*workload, input, d_in)) return 1;
        if (!options.record.empty() &&
            !warpdrill::profile_record::write(options.record, warpdrill::course::lesson_number(),
                                              options.floats, workload->computes(), scope.launches()))
            return 1;
#else
        if (!run_workload(*workload, input, d_in)) return 1;
#endif
    } catch (const std::exception& error) {
        std::fprintf(stderr, "%s\n", error.what());
        return 1;
    }
    return 0;
}
