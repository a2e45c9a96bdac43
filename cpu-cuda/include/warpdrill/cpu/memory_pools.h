// Stream-ordered allocation: cudaMallocAsync and cudaFreeAsync, and the
// memory pools they draw from, as NVIDIA's streamOrderedAllocation sample
// uses them (results/memory-pools-h200.txt). A buffer is made when the call
// is made, and is usable by the work queued after it; cudaFreeAsync frees it
// when the stream reaches the free, so work that is not ordered before the
// free and uses the buffer is named as a use after free (every time, in the
// streams' adversarial order). Each GPU has one pool; its attributes hold
// what a program sets. Not here: pools a program creates (cudaMemPoolCreate),
// their access and export, the pool's usage figures, and stream-ordered
// allocation within a stream capture (graphs' memory nodes).
// Included by cuda_runtime.h.
#pragma once

using cudaMemPool_t = struct CUmemPoolHandle_st*;

enum cudaMemPoolAttr {
    cudaMemPoolReuseFollowEventDependencies = 0x1,
    cudaMemPoolReuseAllowOpportunistic = 0x2,
    cudaMemPoolReuseAllowInternalDependencies = 0x3,
    cudaMemPoolAttrReleaseThreshold = 0x4,
    cudaMemPoolAttrReservedMemCurrent = 0x5,
    cudaMemPoolAttrReservedMemHigh = 0x6,
    cudaMemPoolAttrUsedMemCurrent = 0x7,
    cudaMemPoolAttrUsedMemHigh = 0x8,
};

cudaError_t cudaMallocAsync(void** ptr, std::size_t bytes, cudaStream_t stream);
cudaError_t cudaMallocFromPoolAsync(void** ptr, std::size_t bytes, cudaMemPool_t pool, cudaStream_t stream);
cudaError_t cudaFreeAsync(void* ptr, cudaStream_t stream);
// The C++ forms cuda_runtime.h adds.
inline cudaError_t cudaMallocAsync(void** ptr, std::size_t bytes, cudaMemPool_t pool, cudaStream_t stream) {
    return cudaMallocFromPoolAsync(ptr, bytes, pool, stream);
}
template <class T>
cudaError_t cudaMallocAsync(T** ptr, std::size_t bytes, cudaStream_t stream) {
    return cudaMallocAsync(reinterpret_cast<void**>(ptr), bytes, stream);
}
template <class T>
cudaError_t cudaMallocAsync(T** ptr, std::size_t bytes, cudaMemPool_t pool, cudaStream_t stream) {
    return cudaMallocFromPoolAsync(reinterpret_cast<void**>(ptr), bytes, pool, stream);
}
template <class T>
cudaError_t cudaMallocFromPoolAsync(T** ptr, std::size_t bytes, cudaMemPool_t pool, cudaStream_t stream) {
    return cudaMallocFromPoolAsync(reinterpret_cast<void**>(ptr), bytes, pool, stream);
}

cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t* pool, int device);
cudaError_t cudaDeviceGetMemPool(cudaMemPool_t* pool, int device);
cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t pool);
cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attribute, void* value);
cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attribute, void* value);
cudaError_t cudaMemPoolTrimTo(cudaMemPool_t pool, std::size_t bytes_to_keep);
