// Broken kernels, one per class of mistake, for compute-sanitizer on a GPU:
// its reports are kept in tests/data/compute-sanitizer/ and are what the
// runner's parser (runner/core/sanitizer.cpp) is tested against.
//   nvcc -lineinfo -Icommon/include -o probe cpu-cuda/tests/gpu/sanitizer_probe.cu && compute-sanitizer --tool memcheck ./probe global-past-end
#include <cstdio>
#include <cstring>

#include "../broken_kernels.cuh"

__global__ void shared_past_end(float* out) {
    __shared__ float s[64];
    float* volatile p = s;
    p[threadIdx.x + 1] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x % 64];
}

__global__ void barrier_in_branch(const float* in, float* out) {
    __shared__ float partial[256];
    const unsigned tid = threadIdx.x;
    partial[tid] = in[tid];
    __syncthreads();
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        if (tid % (2 * stride) == 0) {
            partial[tid] += partial[tid + stride];
            __syncthreads();
        }
    }
    if (tid == 0) out[0] = partial[0];
}

int main(int argc, char** argv) {
    const char* mode = argc > 1 ? argv[1] : "";
    float *in = nullptr, *out = nullptr;
    cudaMalloc(&in, 256 * sizeof(float));
    cudaMalloc(&out, 256 * sizeof(float));
    cudaMemset(in, 0, 256 * sizeof(float));
    if (!std::strcmp(mode, "global-past-end")) past_global<<<1, 256>>>(in, out);
    else if (!std::strcmp(mode, "shared-past-end")) shared_past_end<<<1, 64>>>(out);
    else if (!std::strcmp(mode, "tree-without-barrier")) tree_without_barrier<<<1, 256>>>(in, out);
    else if (!std::strcmp(mode, "barrier-in-branch")) barrier_in_branch<<<1, 256>>>(in, out);
    else if (!std::strcmp(mode, "volatile-last-warp")) volatile_last_warp<<<1, 32>>>(in, out);
    else if (!std::strcmp(mode, "grid-zero")) past_global<<<0, 32>>>(in, out);
    else if (!std::strcmp(mode, "block-zero")) past_global<<<1, 0>>>(in, out);
    else {
        std::fprintf(stderr, "unknown mode '%s'\n", mode);
        return 2;
    }
    const cudaError_t launch = cudaGetLastError();
    const cudaError_t run = cudaDeviceSynchronize();
    std::printf("%s: launch %s, run %s\n", mode, cudaGetErrorName(launch), cudaGetErrorName(run));
    return 0;
}
