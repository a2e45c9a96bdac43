// What a GPU's min.f32, max.f32, min.f64 and max.f64 give where C leaves a
// choice: two zeros of either sign, and two NaNs with their own bits (a
// signaling one too); in inline PTX, through CUDA's min() and max() of
// floats, and through the C library's fminf, fmaxf, fmin and fmax. The
// operands come from memory, so that nothing is folded at compile time.
// results/float-min-max-probe-h200.txt keeps what an H200 printed;
// device_functions.h's min_max() follows it, and tests/runner/cc_run.sh
// holds the CPU backend to it.
//   nvcc -arch=sm_90 -o float_min_max_probe cpu-cuda/tests/gpu/float_min_max_probe.cu &&
//   ./float_min_max_probe
#include <cstdio>
#include <cstring>

// The same bits as another type (std::bit_cast is host code to nvcc).
template <class To, class From>
__device__ To bits_as(From from) {
    To to;
    std::memcpy(&to, &from, sizeof to);
    return to;
}

enum class Via { ptx, cuda_min_max, c_library };

// Each thread: min and max of its pair, as bits, by way of `via`.
template <class Float, class Bits, Via via>
__global__ void min_and_max(const Bits* pairs, Bits* out) {
    const Float a = bits_as<Float>(pairs[2 * threadIdx.x]), b = bits_as<Float>(pairs[2 * threadIdx.x + 1]);
    Float low, high;
    if constexpr (via == Via::cuda_min_max) {
        low = min(a, b);
        high = max(a, b);
    } else if constexpr (via == Via::c_library && sizeof(Float) == 4) {
        low = fminf(a, b);
        high = fmaxf(a, b);
    } else if constexpr (via == Via::c_library) {
        low = fmin(a, b);
        high = fmax(a, b);
    } else if constexpr (sizeof(Float) == 4) {
        asm("min.f32 %0, %2, %3;\n\tmax.f32 %1, %2, %3;" : "=f"(low), "=f"(high) : "f"(a), "f"(b));
    } else {
        asm("min.f64 %0, %2, %3;\n\tmax.f64 %1, %2, %3;" : "=d"(low), "=d"(high) : "d"(a), "d"(b));
    }
    out[2 * threadIdx.x] = bits_as<Bits>(low);
    out[2 * threadIdx.x + 1] = bits_as<Bits>(high);
}

template <class Float, Via via, class Bits>
void probe(const char* type, const Bits* pairs, int count) {
    Bits *in, *out, results[64];
    cudaMalloc(&in, 2 * count * sizeof(Bits));
    cudaMalloc(&out, 2 * count * sizeof(Bits));
    cudaMemcpy(in, pairs, 2 * count * sizeof(Bits), cudaMemcpyHostToDevice);
    min_and_max<Float, Bits, via><<<1, count>>>(in, out);
    cudaMemcpy(results, out, 2 * count * sizeof(Bits), cudaMemcpyDeviceToHost);
    for (int i = 0; i < count; ++i) {
        std::printf("%s %0*llx %0*llx: min %0*llx max %0*llx\n", type, int(2 * sizeof(Bits)),
                    (unsigned long long)pairs[2 * i], int(2 * sizeof(Bits)),
                    (unsigned long long)pairs[2 * i + 1], int(2 * sizeof(Bits)),
                    (unsigned long long)results[2 * i], int(2 * sizeof(Bits)),
                    (unsigned long long)results[2 * i + 1]);
    }
    cudaFree(in);
    cudaFree(out);
}

int main() {
    const unsigned f32[] = {0x00000000, 0x80000000, 0x80000000, 0x00000000, 0x7fc00001, 0xffc00002,
                            0x7f800001, 0x3f800000, 0x3f800000, 0xffc00000, 0x7fc00000, 0x7fc00000};
    const unsigned long long f64[] = {
        0x0000000000000000, 0x8000000000000000, 0x8000000000000000, 0x0000000000000000, 0x7ff8000000000001,
        0x7ff8000000000002, 0x7ff8000000000002, 0x7ff8000000000001, 0xfff8000000000001, 0x7ff8000000000002,
        0x7ff0000000000001, 0x7ff8000000000000, 0x7ff0000000000001, 0x3ff0000000000000};
    const int f32_pairs = sizeof f32 / sizeof f32[0] / 2, f64_pairs = sizeof f64 / sizeof f64[0] / 2;
    probe<float, Via::ptx>("f32", f32, f32_pairs);
    probe<double, Via::ptx>("f64", f64, f64_pairs);
    probe<float, Via::cuda_min_max>("min(float, float), max(float, float)", f32, f32_pairs);
    probe<double, Via::cuda_min_max>("min(double, double), max(double, double)", f64, f64_pairs);
    probe<float, Via::c_library>("fminf, fmaxf", f32, f32_pairs);
    probe<double, Via::c_library>("fmin, fmax", f64, f64_pairs);
}
