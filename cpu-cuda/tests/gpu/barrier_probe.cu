// What a GPU does with cuda::barrier<cuda::thread_scope_block>, and what
// compute-sanitizer says of it: one case a run, each in a process of its own
// (three cases hang a GPU: those get a time limit, and synccheck only).
// results/barrier-probe-h200.txt keeps what an H200 printed.
//   nvcc -std=c++20 -arch=sm_90 -lineinfo -o barrier_probe cpu-cuda/tests/gpu/barrier_probe.cu &&
//   for c in sum split_sum write_after_arrive read_before_wait drop completion old_token parity \
//            uninitialized over_arrival exit_without_arriving arrive_past_count; do
//     timeout 15 ./barrier_probe $c || echo "$c: hangs"
//     for tool in racecheck synccheck initcheck; do
//       timeout 60 compute-sanitizer --tool $tool --show-backtrace no ./barrier_probe $c; done; done
#include <cstdio>
#include <cstring>

#include "barrier_kernels.cuh"

int main(int argc, char** argv) {
    if (argc != 2) return 2;
    const char* which = argv[1];
    int *in = nullptr, *out = nullptr;
    cudaMalloc(&in, 256 * sizeof(int));
    cudaMalloc(&out, 1024 * sizeof(int));
    int ones[256];
    for (int& one : ones) one = 1;
    cudaMemcpy(in, ones, sizeof ones, cudaMemcpyHostToDevice);
    cudaMemset(out, 0, 1024 * sizeof(int));
    int shown = 1;
    if (!std::strcmp(which, "sum")) sum<<<1, 256>>>(in, out);
    if (!std::strcmp(which, "split_sum")) split_sum<<<1, 256>>>(in, out), shown = 4;
    if (!std::strcmp(which, "write_after_arrive")) write_after_arrive<<<1, 64>>>(out);
    if (!std::strcmp(which, "read_before_wait")) read_before_wait<<<1, 64>>>(out), shown = 2;
    if (!std::strcmp(which, "drop")) drop<<<1, 64>>>(out), shown = 2;
    if (!std::strcmp(which, "completion")) completion<<<1, 64>>>(out), shown = 192;
    if (!std::strcmp(which, "old_token")) old_token<<<1, 1>>>(out);
    if (!std::strcmp(which, "parity")) parity<<<1, 1>>>(out);
    if (!std::strcmp(which, "uninitialized")) uninitialized<<<1, 64>>>(out), shown = 2;
    if (!std::strcmp(which, "over_arrival")) over_arrival<<<1, 64>>>(out), shown = 64;
    if (!std::strcmp(which, "exit_without_arriving")) exit_without_arriving<<<1, 64>>>(out), shown = 2;
    if (!std::strcmp(which, "arrive_past_count")) arrive_past_count<<<1, 64>>>(out), shown = 2;
    const cudaError_t error = cudaDeviceSynchronize();
    int got[1024] = {};
    cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost);
    int total = 0;
    for (int i = 0; i < 1024; ++i) total += got[i];
    std::printf("%s: %s, out[0..%d) =", which, cudaGetErrorName(error), shown < 8 ? shown : 8);
    for (int i = 0; i < shown && i < 8; ++i) std::printf(" %d", got[i]);
    std::printf(", sum of out %d\n", total);
    return 0;
}
