// A kernel that calls a function declared for the host alone: nvcc refuses
// it, "calling a __host__ function("square") from a __global__
// function("square_each") is not allowed", and so does cudacc, where the
// CPU backend would otherwise run it.
float square(float x) { return x * x; }

__global__ void square_each(float* values) { values[threadIdx.x] = square(values[threadIdx.x]); }
