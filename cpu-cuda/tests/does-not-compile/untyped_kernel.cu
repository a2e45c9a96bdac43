// A kernel launched through a void* that holds it, in a file that cudacc
// does not compile (a .cpp file of the CPU backend's build). nvcc accepts it;
// the CPU backend cannot, since the void* has lost the kernel's parameter
// types, and must say what to write instead. (In a .cu file cudacc remembers
// the types where the name is cast: graphs.cu launches so.)
#include "warpdrill/cuda.h"

__global__ void scale(float* values, float by) { values[threadIdx.x] *= by; }

cudaError_t launch_untyped(float* values, float by) {
    void* kernel = reinterpret_cast<void*>(scale);
    void* args[] = {&values, &by};
    return cudaLaunchKernel(kernel, dim3(1), dim3(32), args, 0, nullptr);
}
