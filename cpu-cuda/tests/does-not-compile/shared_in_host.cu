// A host function that declares a __shared__ variable: nvcc refuses it, "a
// static "__shared__" variable declaration is not allowed inside a host
// function body", and so does cudacc, where the CPU backend would make it a
// variable of the host's thread and run it. The kernel's own is no error.
__global__ void scale(float* values) {
    __shared__ float factor;
    if (threadIdx.x == 0) factor = 2.0f;
    __syncthreads();
    values[threadIdx.x] *= factor;
}

float host_total(const float* values, int n) {
    __shared__ float total;
    total = 0.0f;
    for (int i = 0; i < n; ++i) total += values[i];
    return total;
}
