// What a GPU's runtime answers where the CPU backend imitates it: the device
// properties and attributes a reduction program reads, and the error codes of
// pinned memory, kernel attributes and launches with much dynamic shared memory,
// how __match_any_sync compares floats, and managed memory.
// results/runtime-probe-h100.txt keeps what an H100 printed (before managed
// memory was probed), results/runtime-probe-h200.txt what an H200 did.
//   nvcc -std=c++20 -arch=sm_90 -o runtime_probe cpu-cuda/tests/gpu/runtime_probe.cu && ./runtime_probe
#include <cstdio>
#include <cstdlib>

constexpr int kOptInBytes = 232448;  // sharedMemPerBlockOptin on an H100

__global__ void touch_shared(int* out) {
    extern __shared__ int words[];
    words[threadIdx.x] = 1;
    __syncthreads();
    if (threadIdx.x == 0) *out = words[0];
}

// Lanes 0 and 1 hold -0.0 and +0.0, lanes 2 and 3 a NaN each (the same bits);
// then every lane holds that NaN.
__global__ void match_floats(unsigned* any, unsigned* all, int* pred) {
    const float values[4] = {-0.0f, 0.0f, __int_as_float(0x7fc00000), __int_as_float(0x7fc00000)};
    const unsigned lane = threadIdx.x;
    any[lane] = __match_any_sync(0xfu, values[lane]);
    all[lane] = __match_all_sync(0xfu, values[lane | 2], &pred[lane]);
}

void print_error(const char* what, cudaError_t error) {
    std::printf("%s: %s\n", what, cudaGetErrorName(error));
}

void print_properties() {
    cudaDeviceProp p{};
    cudaGetDeviceProperties(&p, 0);
    std::printf("name %s\ntotalGlobalMem %zu\nsharedMemPerBlock %zu\nsharedMemPerBlockOptin %zu\n", p.name,
                p.totalGlobalMem, p.sharedMemPerBlock, p.sharedMemPerBlockOptin);
    std::printf("sharedMemPerMultiprocessor %zu\nreservedSharedMemPerBlock %zu\nregsPerBlock %d\n",
                p.sharedMemPerMultiprocessor, p.reservedSharedMemPerBlock, p.regsPerBlock);
    std::printf("regsPerMultiprocessor %d\nwarpSize %d\nmaxThreadsPerBlock %d\nmaxThreadsDim %d %d %d\n",
                p.regsPerMultiprocessor, p.warpSize, p.maxThreadsPerBlock, p.maxThreadsDim[0],
                p.maxThreadsDim[1], p.maxThreadsDim[2]);
    std::printf("maxGridSize %d %d %d\nmaxThreadsPerMultiProcessor %d\nmaxBlocksPerMultiProcessor %d\n",
                p.maxGridSize[0], p.maxGridSize[1], p.maxGridSize[2], p.maxThreadsPerMultiProcessor,
                p.maxBlocksPerMultiProcessor);
    std::printf("major %d minor %d\nmultiProcessorCount %d\nl2CacheSize %d\npersistingL2CacheMaxSize %d\n",
                p.major, p.minor, p.multiProcessorCount, p.l2CacheSize, p.persistingL2CacheMaxSize);
    std::printf("memoryBusWidth %d\ntotalConstMem %zu\nmemPitch %zu\ntextureAlignment %zu\n",
                p.memoryBusWidth, p.totalConstMem, p.memPitch, p.textureAlignment);
    std::printf("concurrentKernels %d\nasyncEngineCount %d\nunifiedAddressing %d\nmanagedMemory %d\n",
                p.concurrentKernels, p.asyncEngineCount, p.unifiedAddressing, p.managedMemory);
    std::printf("canMapHostMemory %d\ncooperativeLaunch %d\nclusterLaunch %d\nintegrated %d\nECCEnabled %d\n",
                p.canMapHostMemory, p.cooperativeLaunch, p.clusterLaunch, p.integrated, p.ECCEnabled);
    std::printf("streamPrioritiesSupported %d\nglobalL1CacheSupported %d\nlocalL1CacheSupported %d\n",
                p.streamPrioritiesSupported, p.globalL1CacheSupported, p.localL1CacheSupported);
    std::printf("pageableMemoryAccess %d\nconcurrentManagedAccess %d\nhostNativeAtomicSupported %d\n",
                p.pageableMemoryAccess, p.concurrentManagedAccess, p.hostNativeAtomicSupported);
    const struct {
        const char* name;
        cudaDeviceAttr attribute;
    } attributes[] = {{"cudaDevAttrClockRate", cudaDevAttrClockRate},
                      {"cudaDevAttrMemoryClockRate", cudaDevAttrMemoryClockRate},
                      {"cudaDevAttrGlobalMemoryBusWidth", cudaDevAttrGlobalMemoryBusWidth},
                      {"cudaDevAttrMaxSharedMemoryPerBlockOptin", cudaDevAttrMaxSharedMemoryPerBlockOptin},
                      {"cudaDevAttrMaxSharedMemoryPerBlock", cudaDevAttrMaxSharedMemoryPerBlock},
                      {"cudaDevAttrMaxRegistersPerBlock", cudaDevAttrMaxRegistersPerBlock},
                      {"cudaDevAttrMaxRegistersPerMultiprocessor", cudaDevAttrMaxRegistersPerMultiprocessor},
                      {"cudaDevAttrL2CacheSize", cudaDevAttrL2CacheSize},
                      {"cudaDevAttrWarpSize", cudaDevAttrWarpSize},
                      {"cudaDevAttrMaxThreadsPerBlock", cudaDevAttrMaxThreadsPerBlock},
                      {"cudaDevAttrMaxGridDimX", cudaDevAttrMaxGridDimX},
                      {"cudaDevAttrMaxGridDimY", cudaDevAttrMaxGridDimY},
                      {"cudaDevAttrMaxBlockDimZ", cudaDevAttrMaxBlockDimZ},
                      {"cudaDevAttrReservedSharedMemoryPerBlock", cudaDevAttrReservedSharedMemoryPerBlock}};
    for (const auto& a : attributes) {
        int value = -1;
        const cudaError_t error = cudaDeviceGetAttribute(&value, a.attribute, 0);
        std::printf("%s %d (%s)\n", a.name, value, cudaGetErrorName(error));
    }
}

void probe_pinned_memory() {
    void* pinned = nullptr;
    print_error("cudaMallocHost", cudaMallocHost(&pinned, 1024));
    void* mapped = nullptr;
    print_error("cudaHostGetDevicePointer(pinned, 0)", cudaHostGetDevicePointer(&mapped, pinned, 0));
    std::printf("device pointer == host pointer: %d\n", mapped == pinned);
    print_error("cudaHostGetDevicePointer(pinned, 1)", cudaHostGetDevicePointer(&mapped, pinned, 1));
    print_error("cudaFreeHost(pinned + 16)", cudaFreeHost(static_cast<char*>(pinned) + 16));
    print_error("cudaGetLastError after it", cudaGetLastError());
    print_error("cudaFreeHost(pinned)", cudaFreeHost(pinned));
    print_error("cudaFreeHost(pinned) again", cudaFreeHost(pinned));
    cudaGetLastError();
    print_error("cudaFreeHost(nullptr)", cudaFreeHost(nullptr));
    void* pageable = std::malloc(1024);
    print_error("cudaFreeHost(malloc'd)", cudaFreeHost(pageable));
    cudaGetLastError();
    print_error("cudaHostGetDevicePointer(malloc'd, 0)", cudaHostGetDevicePointer(&mapped, pageable, 0));
    cudaGetLastError();
    std::free(pageable);
    int* device = nullptr;
    cudaMalloc(&device, 1024);
    print_error("cudaFreeHost(cudaMalloc'd)", cudaFreeHost(device));
    cudaGetLastError();
    print_error("cudaFree(cudaMallocHost'd)", [] {
        void* p = nullptr;
        cudaMallocHost(&p, 64);
        const cudaError_t error = cudaFree(p);
        cudaFreeHost(p);
        return error;
    }());
    cudaGetLastError();
    print_error("cudaFree(cudaMalloc'd + 16)", cudaFree(reinterpret_cast<char*>(device) + 16));
    cudaGetLastError();
    print_error("cudaFree(malloc'd)", [] {
        void* p = std::malloc(64);
        const cudaError_t error = cudaFree(p);
        std::free(p);
        return error;
    }());
    cudaGetLastError();
    cudaFree(device);
    print_error("cudaFree(cudaMalloc'd) again", cudaFree(device));
    cudaGetLastError();
    for (unsigned flags : {0u, 1u, 2u, 4u, 7u, 8u, 16u}) {
        void* p = nullptr;
        char what[64];
        std::snprintf(what, sizeof what, "cudaHostAlloc(flags %u)", flags);
        print_error(what, cudaHostAlloc(&p, 64, flags));
        cudaGetLastError();
        if (p) cudaFreeHost(p);
    }
    void* p = nullptr;
    print_error("cudaHostAlloc(0 bytes)", cudaHostAlloc(&p, 0, 0));
    std::printf("pointer after 0 bytes: %s\n", p ? "non-null" : "null");
    cudaGetLastError();
}

void launch_with(int bytes, const char* what) {
    int* out = nullptr;
    cudaMalloc(&out, sizeof(int));
    touch_shared<<<1, 32, bytes>>>(out);
    const cudaError_t launched = cudaGetLastError();
    const cudaError_t finished = cudaDeviceSynchronize();
    std::printf("launch with %d bytes %s: %s, then %s\n", bytes, what, cudaGetErrorName(launched),
                cudaGetErrorName(finished));
    cudaFree(out);
}

void probe_function_attributes() {
    cudaFuncAttributes a{};
    print_error("cudaFuncGetAttributes", cudaFuncGetAttributes(&a, touch_shared));
    std::printf(
        "maxDynamicSharedSizeBytes %d preferredShmemCarveout %d maxThreadsPerBlock %d sharedSizeBytes %zu "
        "numRegs %d ptxVersion %d binaryVersion %d\n",
        a.maxDynamicSharedSizeBytes, a.preferredShmemCarveout, a.maxThreadsPerBlock, a.sharedSizeBytes,
        a.numRegs, a.ptxVersion, a.binaryVersion);
    launch_with(48 * 1024, "(the default limit)");
    launch_with(48 * 1024 + 1, "without the attribute");
    print_error(
        "cudaFuncSetAttribute(max dynamic, optin + 1)",
        cudaFuncSetAttribute(touch_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, kOptInBytes + 1));
    print_error("cudaGetLastError after it", cudaGetLastError());
    print_error("cudaFuncSetAttribute(max dynamic, -1)",
                cudaFuncSetAttribute(touch_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, -1));
    cudaGetLastError();
    print_error("cudaFuncSetAttribute(max dynamic, 64 KB)",
                cudaFuncSetAttribute(touch_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024));
    launch_with(64 * 1024, "with the attribute at 64 KB");
    launch_with(64 * 1024 + 4, "with the attribute at 64 KB");
    print_error("cudaFuncSetAttribute(max dynamic, optin)",
                cudaFuncSetAttribute(touch_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, kOptInBytes));
    launch_with(kOptInBytes, "with the attribute at optin");
    launch_with(kOptInBytes + 4, "with the attribute at optin");
    for (int carveout : {-1, 0, 50, 100, 101, -2}) {
        char what[64];
        std::snprintf(what, sizeof what, "cudaFuncSetAttribute(carveout %d)", carveout);
        print_error(what, cudaFuncSetAttribute(touch_shared, cudaFuncAttributePreferredSharedMemoryCarveout,
                                               carveout));
        cudaGetLastError();
    }
    cudaFuncGetAttributes(&a, touch_shared);
    std::printf("after: maxDynamicSharedSizeBytes %d preferredShmemCarveout %d\n",
                a.maxDynamicSharedSizeBytes, a.preferredShmemCarveout);
    print_error("cudaFuncGetAttributes(non-kernel)",
                cudaFuncGetAttributes(&a, reinterpret_cast<const void*>(&std::printf)));
    cudaGetLastError();
    int blocks = 0;
    print_error("occupancy at optin",
                cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, touch_shared, 32, kOptInBytes));
    std::printf("blocks per SM at optin: %d\n", blocks);
    int min_grid = 0, block = 0;
    print_error("cudaOccupancyMaxPotentialBlockSize",
                cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, touch_shared, 0, 0));
    std::printf("min grid %d block %d\n", min_grid, block);
    print_error("cudaOccupancyMaxPotentialBlockSize(8 KB, limit 200)",
                cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, touch_shared, 8192, 200));
    std::printf("min grid %d block %d\n", min_grid, block);
}

void probe_launch_kernel() {
    int* out = nullptr;
    cudaMalloc(&out, sizeof(int));
    void* args[] = {&out};
    print_error(
        "cudaLaunchKernel((void*)kernel)",
        cudaLaunchKernel(reinterpret_cast<const void*>(touch_shared), dim3(1), dim3(32), args, 128, nullptr));
    print_error("then", cudaDeviceSynchronize());
    print_error("cudaLaunchKernel(non-kernel)", cudaLaunchKernel(reinterpret_cast<const void*>(&std::printf),
                                                                 dim3(1), dim3(32), args, 128, nullptr));
    print_error("cudaGetLastError after it", cudaGetLastError());
    cudaFree(out);
}

__global__ void add_to_each(int* values, int amount, int n) {
    for (int i = 0; i < n; ++i) values[i] += amount;
}

// cudaMallocManaged's flags, what fresh managed memory holds, and what the
// calls of other kinds of memory say to it.
void probe_managed_memory() {
    const unsigned flags[] = {0u, cudaMemAttachGlobal, cudaMemAttachHost, 3u, cudaMemAttachSingle};
    for (unsigned f : flags) {
        void* memory = nullptr;
        std::printf("cudaMallocManaged(flags %u): %s\n", f,
                    cudaGetErrorName(cudaMallocManaged(&memory, 64, f)));
        cudaGetLastError();
        cudaFree(memory);
    }
    print_error("cudaMallocManaged(nullptr, 64)", cudaMallocManaged(static_cast<void**>(nullptr), 64));
    cudaGetLastError();
    int unused = 0;
    void* empty = &unused;
    print_error("cudaMallocManaged(0 bytes)", cudaMallocManaged(&empty, 0));
    std::printf("pointer after 0 bytes: %s\n", empty ? "set" : "null");
    int* managed = nullptr;
    cudaMallocManaged(&managed, 64 * sizeof(int));
    std::printf("fresh managed memory, first and last word: %d %d\n", managed[0], managed[63]);
    add_to_each<<<1, 1>>>(managed, 5, 64);
    cudaDeviceSynchronize();
    std::printf("after a kernel added 5, on the host: %d\n", managed[63]);
    print_error("cudaFreeHost(managed)", cudaFreeHost(managed));
    cudaGetLastError();
    print_error("cudaFree(managed + 1)", cudaFree(managed + 1));
    cudaGetLastError();
    print_error("cudaFree(managed)", cudaFree(managed));
    print_error("cudaFree(managed) again", cudaFree(managed));
    cudaGetLastError();
}

__global__ void add_one(const float* in, float* out, int n) {
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i < n) out[i] = in[i] + 1.0f;
}

// Where there are two GPUs: kernels on GPU 1 read and write managed memory
// allocated while GPU 0 was current, with no peer access enabled.
void probe_managed_memory_on_another_gpu() {
    int gpus = 0;
    cudaGetDeviceCount(&gpus);
    if (gpus < 2) return;
    const int n = 1 << 18;
    float* managed = nullptr;
    cudaSetDevice(0);
    cudaMallocManaged(&managed, n * sizeof(float));
    cudaSetDevice(1);
    float* on_one = nullptr;
    cudaMalloc(&on_one, n * sizeof(float));
    add_one<<<n / 256, 256>>>(managed, on_one, n);
    add_one<<<n / 256, 256>>>(on_one, managed, n);
    print_error("GPU 1's kernels on GPU 0's managed memory, no peer access", cudaDeviceSynchronize());
    std::printf("then, on the host: %.1f %.1f\n", managed[0], managed[n - 1]);
    cudaFree(on_one);
    cudaFree(managed);
    cudaSetDevice(0);
}

void probe_match() {
    unsigned *any = nullptr, *all = nullptr;
    int* pred = nullptr;
    cudaMallocManaged(&any, 4 * sizeof(unsigned));
    cudaMallocManaged(&all, 4 * sizeof(unsigned));
    cudaMallocManaged(&pred, 4 * sizeof(int));
    match_floats<<<1, 4>>>(any, all, pred);
    cudaDeviceSynchronize();
    std::printf("__match_any_sync of -0, +0, NaN, NaN: %x %x %x %x\n", any[0], any[1], any[2], any[3]);
    std::printf("__match_all_sync of one NaN: %x pred %d\n", all[0], pred[0]);
}

int main() {
    print_properties();
    probe_pinned_memory();
    probe_function_attributes();
    probe_launch_kernel();
    probe_match();
    probe_managed_memory();
    probe_managed_memory_on_another_gpu();
    return 0;
}
