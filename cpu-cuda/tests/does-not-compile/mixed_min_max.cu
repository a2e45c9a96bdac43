// CUDA declares max() for pairs of integers of one width and for float and
// double, not for a float and an int: nvcc finds max(x, 0) ambiguous ("more
// than one instance of overloaded function"), and so must the CPU backend.
__global__ void clamp_below(float* out) {
    const float x = out[threadIdx.x];
    out[threadIdx.x] = max(x, 0);
}
