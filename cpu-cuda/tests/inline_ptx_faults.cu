// Inline PTX is checked as the C++ around it is: a load past a buffer, a
// misaligned vector load and a bar.sync that only some threads reach are
// named at the asm statement, as compute-sanitizer names them on a GPU.
#include <string>
#include <vector>

#include "fault_of.h"
#include "warpdrill/catch.h"
#include "warpdrill/cuda.h"
#include "warpdrill/host.h"

using warpdrill::DeviceBuffer;
using warpdrill::launch;
using warpdrill::testing::expect_says;
using warpdrill::testing::fault_of;

namespace {

__global__ void copy_through_ptx(const float* in, float* out) {
    float value;
    asm("ld.global.nc.f32 %0, [%1];" : "=f"(value) : "l"(in + threadIdx.x));
    out[threadIdx.x] = value;
}

__global__ void sum_packs_through_ptx(const float* in, float* out, int offset) {
    float x, y, z, w;
    asm("ld.global.v4.f32 {%0, %1, %2, %3}, [%4];"
        : "=f"(x), "=f"(y), "=f"(z), "=f"(w)
        : "l"(in + offset + 4 * threadIdx.x));
    out[threadIdx.x] = x + y + z + w;
}

__global__ void barrier_in_a_branch(float* out) {
    if (threadIdx.x < 16) asm volatile("bar.sync 0;" ::: "memory");
    out[threadIdx.x] = 1.0f;
}

__global__ void shuffle_with_control(unsigned* out, unsigned c) {
    unsigned value;
    asm volatile("shfl.sync.down.b32 %0, %1, 1, %2, -1;" : "=r"(value) : "r"(threadIdx.x), "r"(c));
    out[threadIdx.x] = value;
}

}  // namespace

TEST_CASE("a shfl.sync whose c in a register is none __shfl_*_sync makes is named, not guessed",
          "[inline_ptx][diagnostics]") {
    DeviceBuffer<unsigned> out(32);
    launch(shuffle_with_control, {1, 32}, out.data(), 0x101fu);  // width 16
    warpdrill::check_launch();
    const std::vector<unsigned> got = out.download();
    for (unsigned lane = 0; lane < 32; ++lane) CHECK(got[lane] == (lane % 16 == 15 ? lane : lane + 1));
    const std::string message = fault_of([&] { launch(shuffle_with_control, {1, 32}, out.data(), 0x1eu); });
    expect_says(message, {"inline PTX shfl.sync at cpu-cuda/tests/inline_ptx_faults.cu:", "with c = 0x1e"});
}

TEST_CASE("a load of inline PTX past a buffer's end is named at the asm", "[inline_ptx][diagnostics]") {
    DeviceBuffer<float> in(32), out(33);
    const std::string message = fault_of([&] { launch(copy_through_ptx, {1, 33}, in.data(), out.data()); });
    expect_says(message, {"out-of-bounds read of 4 bytes by thread 32 (warp 1, lane 0) at "
                          "cpu-cuda/tests/inline_ptx_faults.cu:21",
                          "the address is in[32], byte 128 of a buffer of 128 bytes"});
}

TEST_CASE("a v4 load of inline PTX at an address that is not a multiple of 16 is misaligned",
          "[inline_ptx][diagnostics]") {
    DeviceBuffer<float> in{std::span<const float>(std::vector<float>(4 * 32 + 1, 1.0f))}, out(32);
    launch(sum_packs_through_ptx, {1, 32}, in.data(), out.data(), 0);
    warpdrill::check_launch();
    for (const float sum : out.download()) CHECK(sum == 4.0f);
    const std::string message = fault_of([&] {
        launch(sum_packs_through_ptx, {1, 32}, in.data(), out.data(), 1);
    });
    expect_says(
        message,
        {"misaligned 16-byte read by thread 0 (warp 0, lane 0) at cpu-cuda/tests/inline_ptx_faults.cu:",
         "is not a multiple of 16"});
}

TEST_CASE("a bar.sync 0 that half a warp skips is named as __syncthreads() would be",
          "[inline_ptx][diagnostics]") {
    DeviceBuffer<float> out(64);
    const std::string message = fault_of([&] { launch(barrier_in_a_branch, {1, 64}, out.data()); });
    expect_says(message, {"cpu-cuda/tests/inline_ptx_faults.cu:34"});
}
