// Inline PTX that the CPU backend has no translation for: a load from the
// .shared state space, through a 32-bit shared address. nvcc compiles it;
// the CPU backend must refuse it at compile time, naming the PTX and why,
// never run something else.
__global__ void second_half_of_tile(float* out) {
    __shared__ float tile[64];
    tile[threadIdx.x] = static_cast<float>(threadIdx.x);
    __syncthreads();
    float value;
    asm volatile("ld.shared.f32 %0, [%1];" : "=f"(value) : "r"((32 + threadIdx.x) * 4));
    out[threadIdx.x] = value;
}
