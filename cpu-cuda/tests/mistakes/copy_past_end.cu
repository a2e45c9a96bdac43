// class: a cudaMemcpy past the end of its buffer, its error ignored
// expect: cudaMemcpy at|returned cudaErrorInvalidValue|reach past the end of a buffer of 1024 bytes
#include <cstdio>
#include <vector>

int main() {
    std::vector<float> host(512, 1.0f);
    float* buffer;
    cudaMalloc(&buffer, 256 * sizeof(float));
    cudaMemcpy(buffer, host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice);
    std::printf("copied\n");
    cudaFree(buffer);
}
