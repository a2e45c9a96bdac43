// Host code that calls a function declared for the device alone: nvcc
// refuses it, "calling a __device__ function("twice") from a __host__
// function("main") is not allowed", and so does cudacc, where the CPU
// backend would otherwise run it. A device lambda in host code may call it.
__device__ int twice(int x) { return 2 * x; }

__global__ void twice_each(int* values) { values[threadIdx.x] = twice(values[threadIdx.x]); }

template <class F>
__global__ void apply(int* values, F f) { values[threadIdx.x] = f(values[threadIdx.x]); }

void launch_both(int* values) {
    twice_each<<<1, 32>>>(values);
    apply<<<1, 32>>>(values, [] __device__(int x) { return twice(x) + 1; });
}

int main() { return twice(21); }
