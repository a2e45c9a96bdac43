// Host code that calls one of CUDA's device built-ins: nvcc refuses it,
// "calling a __device__ function("__popc") from a __host__ function("main")
// is not allowed", and so does cudacc, where the CPU backend would run it
// (its __popc is a host function). A kernel may call it.
#include <cstdio>

__global__ void count_bits(const unsigned* words, int* counts) { counts[threadIdx.x] = __popc(words[threadIdx.x]); }

int main() {
    std::printf("%d\n", __popc(7u));
    return 0;
}
