// class: a buffer freed twice
// expect: cudaFree at|that buffer was freed before (a double free)
#include <cstdio>

int main() {
    float* buffer;
    cudaMalloc(&buffer, 64 * sizeof(float));
    cudaFree(buffer);
    cudaFree(buffer);
    std::printf("freed\n");
}
