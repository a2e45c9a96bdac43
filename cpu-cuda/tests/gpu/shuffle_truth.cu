// Measures, on a real GPU, which source lane each of the four warp shuffles
// reads for every width 1..32 and a wide range of lane/offset parameters,
// including out-of-range and negative ones, and the error codes of launches
// that break CUDA's limits. The CPU backend is tested against this table
// (cpu-cuda/tests/data/shuffle_truth.txt); regenerate it with scripts/gpu-check.sh.
#include <cuda_runtime.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CUDA_OK(call)                                                                          \
    do {                                                                                       \
        cudaError_t err_ = (call);                                                             \
        if (err_ != cudaSuccess) {                                                             \
            std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
            std::exit(1);                                                                      \
        }                                                                                      \
    } while (0)

enum Op { kIdx, kUp, kDown, kXor };
constexpr const char* kOpNames[] = {"idx", "up", "down", "xor"};

// Each lane shuffles its own lane id, so the value it receives names the source lane.
__global__ void read_source_lanes(Op op, int width, int param, int* source_lane) {
    const int lane = threadIdx.x;
    int got = 0;
    switch (op) {
        case kIdx: got = __shfl_sync(0xffffffffu, lane, param, width); break;
        case kUp: got = __shfl_up_sync(0xffffffffu, lane, static_cast<unsigned>(param), width); break;
        case kDown: got = __shfl_down_sync(0xffffffffu, lane, static_cast<unsigned>(param), width); break;
        case kXor: got = __shfl_xor_sync(0xffffffffu, lane, param, width); break;
    }
    source_lane[lane] = got;
}

__global__ void empty_kernel() {}

static std::vector<int> parameters() {
    std::vector<int> params;
    for (int p = -33; p <= 65; ++p) params.push_back(p);
    for (int p : {-1024, 1000, 1024, INT_MIN, INT_MAX}) params.push_back(p);
    return params;
}

static void print_launch_error(const char* what, dim3 block, size_t dynamic_smem) {
    empty_kernel<<<1, block, dynamic_smem>>>();
    const cudaError_t err = cudaGetLastError();
    std::printf("launch %s -> %s %d\n", what, cudaGetErrorName(err), static_cast<int>(err));
    CUDA_OK(cudaDeviceSynchronize());
}

int main() {
    cudaDeviceProp prop{};
    CUDA_OK(cudaGetDeviceProperties(&prop, 0));
    std::printf("# device: %s (sm_%d%d)\n", prop.name, prop.major, prop.minor);
    std::printf("# line: OP WIDTH PARAM LANES; LANES has 32 characters, character k names\n");
    std::printf("# (0-9, a-v) the lane whose value lane k received, mask 0xffffffff\n");

    int* d_source_lane = nullptr;
    CUDA_OK(cudaMalloc(&d_source_lane, 32 * sizeof(int)));
    int source_lane[32];
    const char* digits = "0123456789abcdefghijklmnopqrstuv";
    for (int op = kIdx; op <= kXor; ++op) {
        for (int width = 1; width <= 32; ++width) {
            for (int param : parameters()) {
                CUDA_OK(cudaMemset(d_source_lane, 0xff, 32 * sizeof(int)));
                read_source_lanes<<<1, 32>>>(static_cast<Op>(op), width, param, d_source_lane);
                CUDA_OK(cudaGetLastError());
                CUDA_OK(cudaMemcpy(source_lane, d_source_lane, sizeof source_lane, cudaMemcpyDeviceToHost));
                char lanes[33] = {};
                for (int k = 0; k < 32; ++k) lanes[k] = digits[source_lane[k] & 31];
                std::printf("%s %d %d %s\n", kOpNames[op], width, param, lanes);
            }
        }
    }
    CUDA_OK(cudaFree(d_source_lane));

    print_launch_error("block=1024", dim3(1024), 0);
    print_launch_error("block=1025", dim3(1025), 0);
    print_launch_error("block=32x32x2", dim3(32, 32, 2), 0);
    print_launch_error("block=1x1x65", dim3(1, 1, 65), 0);
    print_launch_error("dynamic_smem=49152", dim3(32), 49152);
    print_launch_error("dynamic_smem=49153", dim3(32), 49153);
    print_launch_error("dynamic_smem=1048576", dim3(32), 1 << 20);
    return 0;
}
