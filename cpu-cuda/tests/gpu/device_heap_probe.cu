// Which of compute-sanitizer's checks look at the GPU's heap (malloc() and
// free() in a kernel), and what a GPU answers without it: one mistake a run.
// results/device-heap-probe-h200.txt keeps what an H200 printed.
//   nvcc -std=c++20 -arch=sm_90 -lineinfo -o device_heap_probe cpu-cuda/tests/gpu/device_heap_probe.cu &&
//   for c in read_unwritten write_past_end free_twice free_not_malloced use_after_free; do
//     ./device_heap_probe $c; compute-sanitizer --tool memcheck ./device_heap_probe $c;
//     compute-sanitizer --tool initcheck ./device_heap_probe $c; done
#include <cstdio>
#include <cstring>

// Reads a piece of the heap nothing wrote.
__global__ void read_unwritten(int* out) {
    int* piece = static_cast<int*>(malloc(64));
    out[threadIdx.x] = piece[threadIdx.x % 16];
    free(piece);
}
// Writes the 17th int of a 16-int piece.
__global__ void write_past_end(int* out) {
    int* piece = static_cast<int*>(malloc(64));
    piece[16] = 1;
    out[0] = piece[0];
    free(piece);
}
__global__ void free_twice() {
    void* piece = malloc(64);
    free(piece);
    free(piece);
}
// Frees memory cudaMalloc gave.
__global__ void free_not_malloced(int* out) { free(out); }
__global__ void use_after_free(int* out) {
    int* piece = static_cast<int*>(malloc(64));
    piece[0] = 1;
    free(piece);
    out[0] = piece[0];
}

int main(int argc, char** argv) {
    if (argc != 2) return 2;
    const char* mistake = argv[1];
    int* out = nullptr;
    cudaMalloc(&out, 1024);
    if (!std::strcmp(mistake, "read_unwritten")) read_unwritten<<<1, 32>>>(out);
    if (!std::strcmp(mistake, "write_past_end")) write_past_end<<<1, 1>>>(out);
    if (!std::strcmp(mistake, "free_twice")) free_twice<<<1, 1>>>();
    if (!std::strcmp(mistake, "free_not_malloced")) free_not_malloced<<<1, 1>>>(out);
    if (!std::strcmp(mistake, "use_after_free")) use_after_free<<<1, 1>>>(out);
    std::printf("%s: sync %s\n", mistake, cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
}
