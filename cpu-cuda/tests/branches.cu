// The profile's branches: compiled as `warpdrill profile` compiles a
// lesson's kernels (cudacc --branches, cmake/Lessons.cmake), so that each
// condition of this file tells the profiler how a warp's lanes went.
#include <vector>

#include "warpdrill/catch.h"
#include "warpdrill/cuda.h"
#include "warpdrill/host.h"

using warpdrill::cpu::BranchProfile;

namespace {

// Its if is counted where it runs in a kernel, and still evaluates at compile time.
__host__ __device__ constexpr int at_least_zero(int x) {
    if (x < 0) return 0;
    return x;
}
static_assert(at_least_zero(-3) == 0);

__global__ void branchy(int* out) {
    const int lane = threadIdx.x % 32;
    int sum = at_least_zero(lane);
    if (lane < 5) sum += 1;
    if (threadIdx.x < 32) sum += 2;
    for (int i = 0; i < lane % 4; ++i) sum += i;
    if (const int twice = 2 * lane; twice > 100) sum = 0;
    // Not counted: a condition that declares a variable, a range for, a constant.
    if (int* const mine = out + threadIdx.x) *mine = 0;
    for (const int step : {1, 2}) sum += step;
    do {
        sum += 1;
    } while (false);
    out[threadIdx.x] = sum;
}

__device__ bool below(int x, int limit) {
    if (x < limit) return true;
    return false;
}

// The same condition reached in two phases apart, each uniform among the
// lanes that reach it: the barrier between restarts the lanes' counts.
__global__ void two_phases(int* out) {
    const int lane = threadIdx.x % 32;
    int sum = 0;
    if (lane < 16) sum += below(lane, 100);
    __syncthreads();
    if (lane >= 16) sum += below(lane, 0);
    out[threadIdx.x] = sum;
}

}  // namespace

TEST_CASE("profile: each condition of the source, warp by warp") {
    warpdrill::DeviceBuffer<int> out(64);
    warpdrill::cpu::ProfileScope scope;
    warpdrill::launch(branchy, {1, 64}, out.data());
    warpdrill::check_launch();
    const std::vector<warpdrill::cpu::LaunchProfile> launches = scope.launches();
    REQUIRE(launches.size() == 1);
    const std::vector<BranchProfile>& branches = launches[0].branches;
    REQUIRE(branches.size() == 5);
    for (const BranchProfile& branch : branches) CHECK(branch.file == "cpu-cuda/tests/branches.cu");
    const auto expect = [](const BranchProfile& branch, const char* statement, std::uint64_t evaluations,
                           std::uint64_t divergent, std::uint64_t taken, std::uint64_t not_taken) {
        INFO(branch.place() << " (" << branch.statement << ")");
        CHECK(branch.statement == statement);
        CHECK(branch.evaluations == evaluations);
        CHECK(branch.divergent == divergent);
        CHECK(branch.lanes_taken == taken);
        CHECK(branch.lanes_not_taken == not_taken);
    };
    // Two warps of 32 lanes each.
    expect(branches[0], "if", 2, 0, 0, 0);    // x < 0: never
    expect(branches[1], "if", 2, 2, 10, 54);  // lanes 0-4 of each warp
    expect(branches[2], "if", 2, 0, 0, 0);    // the first warp all, the second none
    // A lane's k-th test of i < lane % 4 meets its warp's other lanes' k-th:
    // 32 lanes test first (24 go on), then 24 (16 go on), 16 (8), and 8 (none).
    expect(branches[3], "for", 8, 6, 2 * (24 + 16 + 8), 2 * (8 + 8 + 8));
    expect(branches[4], "if", 2, 0, 0, 0);  // the condition after an init-statement
    CHECK(branches[1].line == branches[0].line + 8);
}

TEST_CASE("profile: a branch's evaluations are matched again after the warp converges") {
    warpdrill::DeviceBuffer<int> out(32);
    warpdrill::cpu::ProfileScope scope;
    warpdrill::launch(two_phases, {1, 32}, out.data());
    warpdrill::check_launch();
    const std::vector<BranchProfile> branches = scope.launches().at(0).branches;
    REQUIRE(branches.size() == 3);
    // below()'s if: lanes 0-15 all below 100, then lanes 16-31 none below 0.
    CHECK(branches[0].evaluations == 2);
    CHECK(branches[0].divergent == 0);
    CHECK(branches[1].divergent == 1);  // lane < 16
    CHECK(branches[2].divergent == 1);  // lane >= 16
}
