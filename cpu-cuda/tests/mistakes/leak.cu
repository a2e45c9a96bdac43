// class: a buffer never freed
// expect: never freed with cudaFree|256 bytes, allocated by cudaMalloc at
#include <cstdio>

int main() {
    float* buffer;
    cudaMalloc(&buffer, 64 * sizeof(float));
    cudaMemset(buffer, 0, 64 * sizeof(float));
    std::printf("done\n");
}
