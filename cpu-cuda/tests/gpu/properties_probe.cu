// Every field of cudaDeviceProp (CUDA 13.0's struct, but its name, UUID and
// LUID), every cudaDeviceAttr from 1 to 150 (its value, or the error), and
// the driver's and runtime's versions, as a GPU reports them. The CPU
// backend's figures for the fields and attributes that are the chip's, not
// the machine's (cpu-cuda/src/device_properties.cpp), are an H200's from
// results/properties-probe-h200.txt: an H100's chip, GH100, with more memory.
// Built by warpdrill cc, it prints the CPU backend's.
//   nvcc -std=c++20 -arch=sm_90 -o properties_probe cpu-cuda/tests/gpu/properties_probe.cu &&
//   ./properties_probe
#include <cstdio>

template <class T>
void print_value(const char* field, T value) {
    std::printf("%s %lld\n", field, static_cast<long long>(value));
}

void print_array(const char* field, const int* values, int count) {
    std::printf("%s", field);
    for (int i = 0; i < count; ++i) std::printf(" %d", values[i]);
    std::printf("\n");
}

void print_properties(const cudaDeviceProp& p) {
    print_value("luidDeviceNodeMask", p.luidDeviceNodeMask);
    print_value("totalGlobalMem", p.totalGlobalMem);
    print_value("sharedMemPerBlock", p.sharedMemPerBlock);
    print_value("regsPerBlock", p.regsPerBlock);
    print_value("warpSize", p.warpSize);
    print_value("memPitch", p.memPitch);
    print_value("maxThreadsPerBlock", p.maxThreadsPerBlock);
    print_array("maxThreadsDim", p.maxThreadsDim, 3);
    print_array("maxGridSize", p.maxGridSize, 3);
    print_value("totalConstMem", p.totalConstMem);
    print_value("major", p.major);
    print_value("minor", p.minor);
    print_value("textureAlignment", p.textureAlignment);
    print_value("texturePitchAlignment", p.texturePitchAlignment);
    print_value("multiProcessorCount", p.multiProcessorCount);
    print_value("integrated", p.integrated);
    print_value("canMapHostMemory", p.canMapHostMemory);
    print_value("maxTexture1D", p.maxTexture1D);
    print_value("maxTexture1DMipmap", p.maxTexture1DMipmap);
    print_array("maxTexture2D", p.maxTexture2D, 2);
    print_array("maxTexture2DMipmap", p.maxTexture2DMipmap, 2);
    print_array("maxTexture2DLinear", p.maxTexture2DLinear, 3);
    print_array("maxTexture2DGather", p.maxTexture2DGather, 2);
    print_array("maxTexture3D", p.maxTexture3D, 3);
    print_array("maxTexture3DAlt", p.maxTexture3DAlt, 3);
    print_value("maxTextureCubemap", p.maxTextureCubemap);
    print_array("maxTexture1DLayered", p.maxTexture1DLayered, 2);
    print_array("maxTexture2DLayered", p.maxTexture2DLayered, 3);
    print_array("maxTextureCubemapLayered", p.maxTextureCubemapLayered, 2);
    print_value("maxSurface1D", p.maxSurface1D);
    print_array("maxSurface2D", p.maxSurface2D, 2);
    print_array("maxSurface3D", p.maxSurface3D, 3);
    print_array("maxSurface1DLayered", p.maxSurface1DLayered, 2);
    print_array("maxSurface2DLayered", p.maxSurface2DLayered, 3);
    print_value("maxSurfaceCubemap", p.maxSurfaceCubemap);
    print_array("maxSurfaceCubemapLayered", p.maxSurfaceCubemapLayered, 2);
    print_value("surfaceAlignment", p.surfaceAlignment);
    print_value("concurrentKernels", p.concurrentKernels);
    print_value("ECCEnabled", p.ECCEnabled);
    print_value("pciBusID", p.pciBusID);
    print_value("pciDeviceID", p.pciDeviceID);
    print_value("pciDomainID", p.pciDomainID);
    print_value("tccDriver", p.tccDriver);
    print_value("asyncEngineCount", p.asyncEngineCount);
    print_value("unifiedAddressing", p.unifiedAddressing);
    print_value("memoryBusWidth", p.memoryBusWidth);
    print_value("l2CacheSize", p.l2CacheSize);
    print_value("persistingL2CacheMaxSize", p.persistingL2CacheMaxSize);
    print_value("maxThreadsPerMultiProcessor", p.maxThreadsPerMultiProcessor);
    print_value("streamPrioritiesSupported", p.streamPrioritiesSupported);
    print_value("globalL1CacheSupported", p.globalL1CacheSupported);
    print_value("localL1CacheSupported", p.localL1CacheSupported);
    print_value("sharedMemPerMultiprocessor", p.sharedMemPerMultiprocessor);
    print_value("regsPerMultiprocessor", p.regsPerMultiprocessor);
    print_value("managedMemory", p.managedMemory);
    print_value("isMultiGpuBoard", p.isMultiGpuBoard);
    print_value("multiGpuBoardGroupID", p.multiGpuBoardGroupID);
    print_value("hostNativeAtomicSupported", p.hostNativeAtomicSupported);
    print_value("pageableMemoryAccess", p.pageableMemoryAccess);
    print_value("concurrentManagedAccess", p.concurrentManagedAccess);
    print_value("computePreemptionSupported", p.computePreemptionSupported);
    print_value("canUseHostPointerForRegisteredMem", p.canUseHostPointerForRegisteredMem);
    print_value("cooperativeLaunch", p.cooperativeLaunch);
    print_value("sharedMemPerBlockOptin", p.sharedMemPerBlockOptin);
    print_value("pageableMemoryAccessUsesHostPageTables", p.pageableMemoryAccessUsesHostPageTables);
    print_value("directManagedMemAccessFromHost", p.directManagedMemAccessFromHost);
    print_value("maxBlocksPerMultiProcessor", p.maxBlocksPerMultiProcessor);
    print_value("accessPolicyMaxWindowSize", p.accessPolicyMaxWindowSize);
    print_value("hostRegisterSupported", p.hostRegisterSupported);
    print_value("sparseCudaArraySupported", p.sparseCudaArraySupported);
    print_value("hostRegisterReadOnlySupported", p.hostRegisterReadOnlySupported);
    print_value("timelineSemaphoreInteropSupported", p.timelineSemaphoreInteropSupported);
    print_value("memoryPoolsSupported", p.memoryPoolsSupported);
    print_value("gpuDirectRDMASupported", p.gpuDirectRDMASupported);
    print_value("gpuDirectRDMAFlushWritesOptions", p.gpuDirectRDMAFlushWritesOptions);
    print_value("gpuDirectRDMAWritesOrdering", p.gpuDirectRDMAWritesOrdering);
    print_value("memoryPoolSupportedHandleTypes", p.memoryPoolSupportedHandleTypes);
    print_value("deferredMappingCudaArraySupported", p.deferredMappingCudaArraySupported);
    print_value("ipcEventSupported", p.ipcEventSupported);
    print_value("clusterLaunch", p.clusterLaunch);
    print_value("unifiedFunctionPointers", p.unifiedFunctionPointers);
    print_value("deviceNumaConfig", p.deviceNumaConfig);
    print_value("deviceNumaId", p.deviceNumaId);
    print_value("mpsEnabled", p.mpsEnabled);
    print_value("hostNumaId", p.hostNumaId);
    print_value("gpuPciDeviceID", p.gpuPciDeviceID);
    print_value("gpuPciSubsystemID", p.gpuPciSubsystemID);
    print_value("hostNumaMultinodeIpcSupported", p.hostNumaMultinodeIpcSupported);
}

void print_attributes() {
    for (int attribute = 1; attribute <= 150; ++attribute) {
        int value = 0;
        const cudaError_t error = cudaDeviceGetAttribute(&value, static_cast<cudaDeviceAttr>(attribute), 0);
        if (error == cudaSuccess) {
            std::printf("attribute %d %d\n", attribute, value);
        } else {
            std::printf("attribute %d %s\n", attribute, cudaGetErrorName(error));
        }
        cudaGetLastError();
    }
}

int main() {
    int driver = 0, runtime = 0;
    cudaDriverGetVersion(&driver);
    cudaRuntimeGetVersion(&runtime);
    std::printf("driver %d runtime %d\n", driver, runtime);
    cudaDeviceProp p{};
    cudaGetDeviceProperties(&p, 0);
    std::printf("name %s\n", p.name);
    print_properties(p);
    print_attributes();
    return 0;
}
