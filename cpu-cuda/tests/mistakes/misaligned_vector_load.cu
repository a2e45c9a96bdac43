// class: a vector load from an address that is not a multiple of its size
// expect: misaligned 16-byte read|is not a multiple of 16
#include <cstdio>

__global__ void sum_fours(const float* in, float* out) {
    const float4 v = reinterpret_cast<const float4*>(in)[threadIdx.x];
    out[threadIdx.x] = v.x + v.y + v.z + v.w;
}

int main() {
    constexpr int n = 4 * 65;
    float *in, *out;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, 64 * sizeof(float));
    cudaMemset(in, 0, n * sizeof(float));
    sum_fours<<<1, 64>>>(in + 1, out);  // in + 1 is 4 bytes past a 16-byte boundary
    std::printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    cudaFree(in);
    cudaFree(out);
}
