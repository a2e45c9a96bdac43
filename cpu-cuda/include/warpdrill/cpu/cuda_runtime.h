// warpdrill's CPU backend: the part of CUDA C++ a kernel and its host code
// see, for a plain C++20 compiler. Each CUDA thread runs as a fiber; the
// fibers of one block share one OS thread and switch only at the sync points
// (__syncthreads, __syncwarp, shuffles, votes), which is where the scheduler
// checks that the threads involved agree and reports it when they do not.
// Include "warpdrill/cuda.h", not this file.
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <source_location>
#include <tuple>
#include <type_traits>
#include <vector>

#include "warpdrill/cpu/backend.h"

// ---- qualifiers -----------------------------------------------------------
// cudacc (cpu-cuda/front) defines __global__, __host__, __device__,
// __constant__ and __shared__ to markers of its own while it reads a .cu
// file, to tell a __device__ variable (device memory) from a __device__
// function and device code from host code; elsewhere they are these.

#ifndef __global__
#define __global__
#endif
#ifndef __device__
#define __device__
#endif
#ifndef __constant__
#define __constant__
#endif
#ifndef __host__
#define __host__
#endif
#define __forceinline__ inline
#define __inline__ inline
#define __noinline__
#define __launch_bounds__(...)
// A cluster size fixed at compile time cannot reach this backend's launch:
// the compiler's error names the way that works, a cluster size given at
// launch time (as CUDA also allows).
#define __cluster_dims__(...) \
    [[gnu::aligned(cluster_dims_is_not_supported_on_the_CPU_backend__launch_with_cudaLaunchKernelEx)]]
// A block's fibers share one OS thread, and an OS thread runs one block at a
// time, so thread-local storage is exactly "one copy per block".
#ifndef __shared__
#define __shared__ static thread_local
#endif
#define __align__(n) alignas(n)

// ---- vector types, with CUDA's sizes and alignments ------------------------
#include "warpdrill/cpu/vector_types.h"

// ---- the runtime API (host side) --------------------------------------------
// The guard of CUDA's driver_types.h, which declares these types there: code
// tests it to know that cudaError_t is declared (NVIDIA's samples'
// helper_cuda.h defines checkCudaErrors only then).
#define __DRIVER_TYPES_H__
// The runtime's release (13.0), for code that tests it (#if CUDART_VERSION >= 13000).
#define CUDART_VERSION 13000
// The error codes are CUDA's own numbers.
enum cudaError_t {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorInvalidConfiguration = 9,
    cudaErrorInvalidPitchValue = 12,
    cudaErrorInvalidDevicePointer = 17,
    cudaErrorInvalidMemcpyDirection = 21,
    cudaErrorInvalidDeviceFunction = 98,
    cudaErrorInvalidDevice = 101,
    cudaErrorUnsupportedLimit = 215,
    cudaErrorPeerAccessUnsupported = 217,
    cudaErrorInvalidResourceHandle = 400,
    cudaErrorIllegalState = 401,
    cudaErrorNotReady = 600,
    cudaErrorPeerAccessAlreadyEnabled = 704,
    cudaErrorPeerAccessNotEnabled = 705,
    cudaErrorAssert = 710,
    cudaErrorHostMemoryAlreadyRegistered = 712,
    cudaErrorHostMemoryNotRegistered = 713,
    cudaErrorIllegalInstruction = 715,
    cudaErrorMisalignedAddress = 716,
    cudaErrorLaunchFailure = 719,
    cudaErrorCooperativeLaunchTooLarge = 720,
    cudaErrorNotPermitted = 800,
    cudaErrorNotSupported = 801,
    cudaErrorStreamCaptureUnsupported = 900,
    cudaErrorStreamCaptureInvalidated = 901,
    cudaErrorStreamCaptureMerge = 902,
    cudaErrorStreamCaptureUnmatched = 903,
    cudaErrorStreamCaptureUnjoined = 904,
    cudaErrorStreamCaptureIsolation = 905,
    cudaErrorStreamCaptureImplicit = 906,
    cudaErrorCapturedEvent = 907,
    cudaErrorStreamCaptureWrongThread = 908,
    cudaErrorGraphExecUpdateFailure = 910,
    cudaErrorInvalidClusterSize = 912,
    cudaErrorUnknown = 999,
};
using cudaError = cudaError_t;
enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4,
};
using cudaStream_t = struct CUstream_st*;
using cudaEvent_t = struct CUevent_st*;
// Stream and event flags.
inline constexpr unsigned cudaStreamDefault = 0x00;      // waits for the GPU's default stream, and it for this
inline constexpr unsigned cudaStreamNonBlocking = 0x01;  // does not
inline constexpr unsigned cudaEventDefault = 0x00;
inline constexpr unsigned cudaEventBlockingSync = 0x01;  // the host sleeps while it waits: it always does here
inline constexpr unsigned cudaEventDisableTiming = 0x02;

struct CUuuid_st {
    char bytes[16];
};
using cudaUUID_t = CUuuid_st;
// CUDA 13.0's cudaDeviceProp, every field in its order (CUDA 13 removed
// clockRate and memoryClockRate: ask cudaDeviceGetAttribute). The values are
// an H100's (device_properties.cpp).
struct cudaDeviceProp {
    char name[256];
    cudaUUID_t uuid;
    char luid[8];
    unsigned int luidDeviceNodeMask;
    std::size_t totalGlobalMem;
    std::size_t sharedMemPerBlock;
    int regsPerBlock;
    int warpSize;
    std::size_t memPitch;
    int maxThreadsPerBlock;
    int maxThreadsDim[3];
    int maxGridSize[3];
    std::size_t totalConstMem;
    int major;
    int minor;
    std::size_t textureAlignment;
    std::size_t texturePitchAlignment;
    int multiProcessorCount;
    int integrated;
    int canMapHostMemory;
    int maxTexture1D;
    int maxTexture1DMipmap;
    int maxTexture2D[2];
    int maxTexture2DMipmap[2];
    int maxTexture2DLinear[3];
    int maxTexture2DGather[2];
    int maxTexture3D[3];
    int maxTexture3DAlt[3];
    int maxTextureCubemap;
    int maxTexture1DLayered[2];
    int maxTexture2DLayered[3];
    int maxTextureCubemapLayered[2];
    int maxSurface1D;
    int maxSurface2D[2];
    int maxSurface3D[3];
    int maxSurface1DLayered[2];
    int maxSurface2DLayered[3];
    int maxSurfaceCubemap;
    int maxSurfaceCubemapLayered[2];
    std::size_t surfaceAlignment;
    int concurrentKernels;
    int ECCEnabled;
    int pciBusID;
    int pciDeviceID;
    int pciDomainID;
    int tccDriver;
    int asyncEngineCount;
    int unifiedAddressing;
    int memoryBusWidth;
    int l2CacheSize;
    int persistingL2CacheMaxSize;
    int maxThreadsPerMultiProcessor;
    int streamPrioritiesSupported;
    int globalL1CacheSupported;
    int localL1CacheSupported;
    std::size_t sharedMemPerMultiprocessor;
    int regsPerMultiprocessor;
    int managedMemory;
    int isMultiGpuBoard;
    int multiGpuBoardGroupID;
    int hostNativeAtomicSupported;
    int pageableMemoryAccess;
    int concurrentManagedAccess;
    int computePreemptionSupported;
    int canUseHostPointerForRegisteredMem;
    int cooperativeLaunch;
    std::size_t sharedMemPerBlockOptin;
    int pageableMemoryAccessUsesHostPageTables;
    int directManagedMemAccessFromHost;
    int maxBlocksPerMultiProcessor;
    int accessPolicyMaxWindowSize;
    std::size_t reservedSharedMemPerBlock;
    int hostRegisterSupported;
    int sparseCudaArraySupported;
    int hostRegisterReadOnlySupported;
    int timelineSemaphoreInteropSupported;
    int memoryPoolsSupported;
    int gpuDirectRDMASupported;
    unsigned int gpuDirectRDMAFlushWritesOptions;
    int gpuDirectRDMAWritesOrdering;
    unsigned int memoryPoolSupportedHandleTypes;
    int deferredMappingCudaArraySupported;
    int ipcEventSupported;
    int clusterLaunch;
    int unifiedFunctionPointers;
    int deviceNumaConfig;
    int deviceNumaId;
    int mpsEnabled;
    int hostNumaId;
    unsigned int gpuPciDeviceID;
    unsigned int gpuPciSubsystemID;
    int hostNumaMultinodeIpcSupported;
    int reserved[56];
};

// Several GPUs: the CPU backend imitates WARPDRILL_CPU_DEVICES of them
// (default 4). Each host thread has its current GPU; cudaMalloc allocates on
// it, kernels and default-stream work run on it. A kernel that touches
// another GPU's memory faults unless its GPU enabled peer access to that one.
//
// Streams: work queued on a stream (a kernel, a copy, a memset, an event
// record) does not run when it is queued but when a synchronisation needs it
// (cudaStreamSynchronize, cudaEventSynchronize, cudaDeviceSynchronize, a
// synchronous copy, a query of the stream or an event), in an order that respects the streams' order, events
// waited for (cudaStreamWaitEvent) and the default stream's rule, and
// otherwise puts the work queued last first (warpdrill::cpu::StreamOrder):
// where a wait is missing, the consumer runs before its producer and the
// result is wrong every time, instead of right by luck. Work on the default
// stream runs at once when nothing else is queued, as single-GPU code expects.
cudaError_t cudaMalloc(void** ptr, std::size_t bytes);
template <class T>
cudaError_t cudaMalloc(T** ptr, std::size_t bytes) {
    return cudaMalloc(reinterpret_cast<void**>(ptr), bytes);
}
cudaError_t cudaFree(void* ptr);

// Managed (unified) memory: one buffer that the host and every GPU may read
// and write, freed with cudaFree. Here all memory is the host's, so it is a
// cudaMalloc'd buffer that kernels on any GPU may touch and whose bytes count
// as written (the host's stores to it are not seen), zeros at first.
inline constexpr unsigned cudaMemAttachGlobal = 0x01;
inline constexpr unsigned cudaMemAttachHost = 0x02;
inline constexpr unsigned cudaMemAttachSingle = 0x04;
cudaError_t cudaMallocManaged(void** ptr, std::size_t bytes, unsigned flags = cudaMemAttachGlobal);
template <class T>
cudaError_t cudaMallocManaged(T** ptr, std::size_t bytes, unsigned flags = cudaMemAttachGlobal) {
    return cudaMallocManaged(reinterpret_cast<void**>(ptr), bytes, flags);
}

// Managed memory's hints and prefetches, CUDA 13's (a cudaMemLocation says
// where). All memory is the host's here, so they move nothing; they refuse
// what an H200 refused (managed_hints.cpp).
enum cudaMemLocationType {
    cudaMemLocationTypeInvalid = 0,
    cudaMemLocationTypeNone = 0,
    cudaMemLocationTypeDevice = 1,
    cudaMemLocationTypeHost = 2,
    cudaMemLocationTypeHostNuma = 3,
    cudaMemLocationTypeHostNumaCurrent = 4,
};
struct cudaMemLocation {
    cudaMemLocationType type;
    int id;
};
// The device numbers that stand for the host and for no device, as CUDA's
// driver_types.h defines them. (CUDA 13's hints take a cudaMemLocation, which
// an int does not convert to: nvcc refuses `cudaMemAdvise(p, n, a, cudaCpuDeviceId)`,
// and so does the backend.)
#define cudaCpuDeviceId ((int)-1)
#define cudaInvalidDeviceId ((int)-2)
enum cudaMemoryAdvise {
    cudaMemAdviseSetReadMostly = 1,
    cudaMemAdviseUnsetReadMostly = 2,
    cudaMemAdviseSetPreferredLocation = 3,
    cudaMemAdviseUnsetPreferredLocation = 4,
    cudaMemAdviseSetAccessedBy = 5,
    cudaMemAdviseUnsetAccessedBy = 6,
};
cudaError_t cudaMemPrefetchAsync(const void* ptr, std::size_t bytes, cudaMemLocation location, unsigned flags,
                                 cudaStream_t stream = nullptr);
cudaError_t cudaMemAdvise(const void* ptr, std::size_t bytes, cudaMemoryAdvise advice,
                          cudaMemLocation location);
cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void* ptr, std::size_t bytes = 0,
                                     unsigned flags = cudaMemAttachSingle);

// Pinned (page-locked) host memory. On a GPU it is mapped into the device's
// address space (unified addressing), so kernels may read it, and an
// asynchronous copy from or to it does not wait for the host: the copy reads
// and writes it when it runs, as the GPU's copy engine would. The flags are
// accepted and change nothing else here.
inline constexpr unsigned cudaHostAllocDefault = 0x00;
inline constexpr unsigned cudaHostAllocPortable = 0x01;
inline constexpr unsigned cudaHostAllocMapped = 0x02;
inline constexpr unsigned cudaHostAllocWriteCombined = 0x04;
cudaError_t cudaHostAlloc(void** ptr, std::size_t bytes, unsigned flags);
cudaError_t cudaMallocHost(void** ptr, std::size_t bytes);
template <class T>
cudaError_t cudaMallocHost(T** ptr, std::size_t bytes, unsigned flags = cudaHostAllocDefault) {
    return cudaHostAlloc(reinterpret_cast<void**>(ptr), bytes, flags);
}
template <class T>
cudaError_t cudaHostAlloc(T** ptr, std::size_t bytes, unsigned flags) {
    return cudaHostAlloc(reinterpret_cast<void**>(ptr), bytes, flags);
}
cudaError_t cudaFreeHost(void* ptr);
// Page-locks a range of pageable memory: until cudaHostUnregister it is
// pinned memory (a range may not overlap one registered before). Pageable
// memory only: I/O memory, and the flags a GPU refused there, are refused.
inline constexpr unsigned cudaHostRegisterDefault = 0x00;
inline constexpr unsigned cudaHostRegisterPortable = 0x01;
inline constexpr unsigned cudaHostRegisterMapped = 0x02;
inline constexpr unsigned cudaHostRegisterIoMemory = 0x04;
inline constexpr unsigned cudaHostRegisterReadOnly = 0x08;
cudaError_t cudaHostRegister(void* ptr, std::size_t bytes, unsigned flags);
cudaError_t cudaHostUnregister(void* ptr);
// The device's address of pinned memory: the same address (flags must be 0).
cudaError_t cudaHostGetDevicePointer(void** device_ptr, void* host_ptr, unsigned flags);
cudaError_t cudaMemcpy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind);
cudaError_t cudaMemset(void* dst, int value, std::size_t bytes);
cudaError_t cudaDeviceSynchronize();
cudaError_t cudaGetLastError();
cudaError_t cudaPeekAtLastError();
const char* cudaGetErrorString(cudaError_t error);
const char* cudaGetErrorName(cudaError_t error);
// CUDA 13.0's (13000), and the driver's that ran it, as an H200's did.
cudaError_t cudaRuntimeGetVersion(int* version);
cudaError_t cudaDriverGetVersion(int* version);
cudaError_t cudaGetDeviceCount(int* count);
cudaError_t cudaGetDevice(int* device);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device);
// The current GPU's free and total memory: the imitated GPU's total
// (cudaDeviceProp::totalGlobalMem), less what live buffers and variables hold.
cudaError_t cudaMemGetInfo(std::size_t* free, std::size_t* total);
cudaError_t cudaMemcpyAsync(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind,
                            cudaStream_t stream = nullptr);
cudaError_t cudaMemsetAsync(void* dst, int value, std::size_t bytes, cudaStream_t stream = nullptr);
// Pitched memory: rows of `width` bytes, each `pitch` bytes after the one
// before. cudaMallocPitch's pitch is the width rounded up to 512 bytes, as
// an H200's is (results/pitched-probe-h200.txt).
cudaError_t cudaMallocPitch(void** ptr, std::size_t* pitch, std::size_t width, std::size_t height);
cudaError_t cudaMemcpy2D(void* dst, std::size_t dpitch, const void* src, std::size_t spitch,
                         std::size_t width, std::size_t height, cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DAsync(void* dst, std::size_t dpitch, const void* src, std::size_t spitch,
                              std::size_t width, std::size_t height, cudaMemcpyKind kind,
                              cudaStream_t stream = nullptr);
cudaError_t cudaMemset2D(void* dst, std::size_t pitch, int value, std::size_t width, std::size_t height);
cudaError_t cudaMemset2DAsync(void* dst, std::size_t pitch, int value, std::size_t width, std::size_t height,
                              cudaStream_t stream = nullptr);
cudaError_t cudaMemcpyPeer(void* dst, int dst_device, const void* src, int src_device, std::size_t bytes);
cudaError_t cudaMemcpyPeerAsync(void* dst, int dst_device, const void* src, int src_device, std::size_t bytes,
                                cudaStream_t stream = nullptr);
cudaError_t cudaDeviceCanAccessPeer(int* can_access, int device, int peer_device);
cudaError_t cudaDeviceEnablePeerAccess(int peer_device, unsigned flags);
cudaError_t cudaDeviceDisablePeerAccess(int peer_device);

// A GPU's flags and limits: kept and reported as an H200 did, refused where
// it refused; the backend runs the same whatever they say
// (device_settings.cpp). cudaDeviceMapHost is always among the flags.
inline constexpr unsigned cudaDeviceScheduleAuto = 0x00;
inline constexpr unsigned cudaDeviceScheduleSpin = 0x01;
inline constexpr unsigned cudaDeviceScheduleYield = 0x02;
inline constexpr unsigned cudaDeviceScheduleBlockingSync = 0x04;
inline constexpr unsigned cudaDeviceBlockingSync = 0x04;
inline constexpr unsigned cudaDeviceScheduleMask = 0x07;
inline constexpr unsigned cudaDeviceMapHost = 0x08;
inline constexpr unsigned cudaDeviceLmemResizeToMax = 0x10;
inline constexpr unsigned cudaDeviceSyncMemops = 0x80;
inline constexpr unsigned cudaDeviceMask = 0xff;
cudaError_t cudaSetDeviceFlags(unsigned flags);
cudaError_t cudaGetDeviceFlags(unsigned* flags);
enum cudaLimit {
    cudaLimitStackSize = 0x00,
    cudaLimitPrintfFifoSize = 0x01,
    cudaLimitMallocHeapSize = 0x02,
    cudaLimitDevRuntimeSyncDepth = 0x03,
    cudaLimitDevRuntimePendingLaunchCount = 0x04,
    cudaLimitMaxL2FetchGranularity = 0x05,
    cudaLimitPersistingL2CacheSize = 0x06,
};
cudaError_t cudaDeviceGetLimit(std::size_t* value, cudaLimit limit);
cudaError_t cudaDeviceSetLimit(cudaLimit limit, std::size_t value);

cudaError_t cudaStreamCreate(cudaStream_t* stream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned flags);
// Priorities run from 0 (the least, every stream's by default) to -5 (the
// greatest); a priority outside is taken as the nearest. Kept and reported:
// the order work runs in here does not depend on them.
cudaError_t cudaDeviceGetStreamPriorityRange(int* least, int* greatest);
cudaError_t cudaStreamCreateWithPriority(cudaStream_t* stream, unsigned flags, int priority);
cudaError_t cudaStreamGetPriority(cudaStream_t stream, int* priority);
cudaError_t cudaStreamGetFlags(cudaStream_t stream, unsigned* flags);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
// Whether the stream's (the event's) work has run: here the query runs it,
// as a GPU may have run it by then, and answers cudaSuccess.
cudaError_t cudaStreamQuery(cudaStream_t stream);
// A host function queued on a stream runs once the work before it in the
// stream has run, on a thread of the backend's own (the host need not
// synchronise), and the stream's later work waits for it. It may not call
// CUDA's runtime: the backend ends the program there, quoting the rule.
#define CUDART_CB
using cudaHostFn_t = void (*)(void* data);
using cudaStreamCallback_t = void (*)(cudaStream_t stream, cudaError_t status, void* data);
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t function, void* data);
cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void* data,
                                  unsigned flags);
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned flags = 0);
cudaError_t cudaEventCreate(cudaEvent_t* event);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned flags);
cudaError_t cudaEventDestroy(cudaEvent_t event);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = nullptr);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventQuery(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end);

// ---- built-in variables -------------------------------------------------------
namespace warpdrill::cpu::detail {

struct BuiltinVariables {
    uint3 thread_idx;
    uint3 block_idx;
    dim3 block_dim;
    dim3 grid_dim;
};
// The running kernel thread's variables, from the scheduler (scheduler.cpp).
// Declared const: within one kernel thread they never change, so the compiler
// may ask once and keep the answer, as a GPU keeps them in registers; and
// kernel code reads no memory for them that the access checks would look at.
[[gnu::const]] uint3 thread_idx();
[[gnu::const]] uint3 block_idx();
[[gnu::const]] dim3 block_dim();
[[gnu::const]] dim3 grid_dim();

}  // namespace warpdrill::cpu::detail

// The built-in variables. In a .cu file that cudacc compiles they are left
// as names, which its rewrite turns into these calls wherever they mean the
// built-ins, and nowhere else: host code may name its own variables,
// parameters and members gridDim or blockDim, as nvcc lets it (llm.c's
// matmul_forward does, and cudaLaunchConfig_t's members are so named).
// Elsewhere (a .cpp file that includes the backend) they are macros, and such
// names do not compile. The backend's own headers call the functions.
#ifndef __cudacc_built_in_names__
#define threadIdx (::warpdrill::cpu::detail::thread_idx())
#define blockIdx (::warpdrill::cpu::detail::block_idx())
#define blockDim (::warpdrill::cpu::detail::block_dim())
#define gridDim (::warpdrill::cpu::detail::grid_dim())
#endif
// Not a constant expression, as with nvcc (`__shared__ float sums[warpSize]`
// does not compile there); defined in runtime.cpp.
extern const int warpSize;

// ---- sync points: implemented by the scheduler (scheduler.cpp) ----------------
namespace warpdrill::cpu::detail {

// The first six are block barriers (the last two then wait for the other
// blocks of the grid or the cluster), the rest warp intrinsics, and the
// cooperative groups' collectives that are neither (groups.cpp): a
// coalesced_threads() call, and the collectives of a tile of several warps.
enum class SyncKind : std::uint8_t {
    syncthreads,
    syncthreads_count,
    syncthreads_and,
    syncthreads_or,
    grid_sync,
    cluster_sync,
    syncwarp,
    coalesce,
    activemask,
    tile_sync,
    tile_shfl,
    shfl_idx,
    shfl_up,
    shfl_down,
    shfl_xor,
    ballot,
    any,
    all,
    match_any,
    match_all,
    reduce_add,
    reduce_min,
    reduce_max,
    // cuda::barrier's calls (<cuda/barrier>): only a wait makes a thread wait.
    barrier_init,
    barrier_arrive,
    barrier_wait,
    barrier_try_wait,  // the try_wait family: the thread stays ready, and tries again
    // A block's cuda::pipeline waits on a stage's barrier (<cuda/pipeline>).
    pipeline_producer_acquire,
    pipeline_consumer_wait,
};
// Where a sync point is in the kernel's source. Passed by value (one pointer,
// in a register): a reference would make kernel code store it on its stack
// before each call, a store that the access checks would then look at.
using Where = std::source_location;

// Waits until every thread of the block arrives; returns the number of
// threads whose predicate was non-zero.
unsigned block_sync(SyncKind kind, int predicate, Where where);
// Waits until every lane of `mask` arrives at the same intrinsic; returns
// this lane's result (shuffled bits, or the vote).
std::uint64_t warp_sync(SyncKind kind, unsigned mask, int width, int param, std::uint64_t bits,
                        Where where);
// __activemask(): the lanes of the caller's warp that reach this call
// together with it (as cg::coalesced_threads() finds them).
unsigned active_mask(Where where);
// A copy a kernel's thread makes (cuda::memcpy_async): the access checks see
// its read of `source` and its write of `destination` as the thread's own.
void copy_in_kernel(void* destination, const void* source, std::size_t bytes);
// A condition of the program's own source, where cudacc --branches counts
// them (`warpdrill profile`'s build, rewrite.h): its value, told to the
// profiler. `statement` is "if", "while" or "for".
void note_branch(bool taken, const char* statement, Where where);
constexpr bool branch(bool taken, const char* statement, Where where = Where::current()) {
    if (!std::is_constant_evaluated()) note_branch(taken, statement, where);
    return taken;
}
void count_atomic();
std::byte* dynamic_shared_memory();
// Faults the kernel (a KernelFault naming the thread) when a 16-byte access is
// misaligned, as a GPU would stop with cudaErrorMisalignedAddress.
void check_alignment(const void* address, std::size_t alignment, Where where);
[[noreturn]] void trap(Where where);

// A pointer argument of a launch, so that a fault can name the buffer as the
// kernel does ("partials[3]").
struct KernelArgument {
    std::uintptr_t value = 0;
    std::size_t element_size = 0;
    int index = 0;
};

template <class T>
void note_pointer_argument(std::vector<KernelArgument>& pointers, const T& value, int index) {
    if constexpr (std::is_pointer_v<T> && std::is_object_v<std::remove_pointer_t<T>>) {
        pointers.push_back({reinterpret_cast<std::uintptr_t>(value), sizeof(std::remove_pointer_t<T>), index});
    }
}

// What a launch asks beyond its shape: a cooperative launch keeps every
// block resident at once (a grid barrier needs that), a cluster launch runs
// the blocks of one cluster together.
struct GroupLaunch {
    bool cooperative = false;
    dim3 cluster{1, 1, 1};
};

// What a kernel launch runs: the grid's shape, what every thread calls, and
// for faults the kernel and its pointer arguments.
struct GridLaunch {
    dim3 grid;
    dim3 block;
    std::size_t dynamic_smem_bytes = 0;
    std::function<void()> thread_body;
    const void* kernel = nullptr;
    std::vector<KernelArgument> pointers;
    GroupLaunch groups;
    // The kernel as a <<<>>> launch spells it, which names it where its
    // address is unknown (a template whose arguments the call deduces).
    const char* kernel_text = nullptr;
};

// Queues the launch on `stream` (nullptr: the current GPU's default stream);
// returns the launch error CUDA would give at once (also recorded for
// cudaGetLastError). The kernel runs when a synchronisation needs it (see
// the streams above), or at once; a kernel that breaks a rule throws
// KernelFault from there.
cudaError_t launch_grid(GridLaunch launch, cudaStream_t stream);

template <class T>
std::uint64_t to_bits(const T& value) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, &value, sizeof(T));
    return bits;
}
template <class T>
T from_bits(std::uint64_t bits) {
    T value;
    std::memcpy(&value, &bits, sizeof(T));
    return value;
}

}  // namespace warpdrill::cpu::detail

namespace warpdrill::cpu {

namespace detail {
// A launch in which every thread calls the kernel with `params`, its
// arguments already converted to its parameter types, as CUDA copies them
// (when the launch is queued, or a graph's kernel node made).
template <class... Params>
GridLaunch grid_launch(dim3 grid, dim3 block, std::size_t dynamic_smem_bytes, void (*kernel)(Params...),
                       std::tuple<std::decay_t<Params>...> params, const GroupLaunch& groups = {}) {
    std::vector<KernelArgument> pointers;
    int index = 0;
    std::apply([&](const auto&... param) { (note_pointer_argument(pointers, param, index++), ...); }, params);
    return {grid,
            block,
            dynamic_smem_bytes,
            [kernel, params = std::move(params)] { std::apply(kernel, params); },
            reinterpret_cast<const void*>(kernel),
            std::move(pointers),
            groups};
}

template <class... Params>
cudaError_t run_kernel(dim3 grid, dim3 block, std::size_t dynamic_smem_bytes, cudaStream_t stream,
                       void (*kernel)(Params...), std::tuple<std::decay_t<Params>...> params,
                       const GroupLaunch& groups = {}) {
    return launch_grid(grid_launch(grid, block, dynamic_smem_bytes, kernel, std::move(params), groups),
                       stream);
}
}  // namespace detail

// The CPU half of warpdrill::launch.
template <class... Params, class... Args>
void launch(dim3 grid, dim3 block, std::size_t dynamic_smem_bytes, cudaStream_t stream, void (*kernel)(Params...),
            Args&&... args) {
    detail::run_kernel(grid, block, dynamic_smem_bytes, stream, kernel,
                       std::tuple<std::decay_t<Params>...>(std::forward<Args>(args)...));
}

}  // namespace warpdrill::cpu

// ---- block and warp intrinsics --------------------------------------------------
namespace warpdrill::cpu::detail {
template <class T>
concept Shuffleable = std::is_trivially_copyable_v<T> && sizeof(T) <= 8;

// The caller's lane's part of a shuffle of `kind`: its value goes to the warp
// as bits, and the bits of the value of the lane that lane_arg picks (a lane,
// a delta or a lane mask) come back as a T.
template <Shuffleable T>
T warp_shuffle(SyncKind kind, unsigned mask, T var, int lane_arg, int width, std::source_location where) {
    return from_bits<T>(warp_sync(kind, mask, width, lane_arg, to_bits(var), where));
}
}  // namespace warpdrill::cpu::detail

inline void __syncthreads(std::source_location where = std::source_location::current()) {
    using namespace warpdrill::cpu::detail;
    block_sync(SyncKind::syncthreads, 0, where);
}
inline int __syncthreads_count(int predicate,
                               std::source_location where = std::source_location::current()) {
    using namespace warpdrill::cpu::detail;
    return static_cast<int>(block_sync(SyncKind::syncthreads_count, predicate, where));
}
inline int __syncthreads_and(int predicate,
                             std::source_location where = std::source_location::current()) {
    using namespace warpdrill::cpu::detail;
    const dim3 block = block_dim();
    return block_sync(SyncKind::syncthreads_and, predicate, where) == block.x * block.y * block.z;
}
inline int __syncthreads_or(int predicate,
                            std::source_location where = std::source_location::current()) {
    using namespace warpdrill::cpu::detail;
    return block_sync(SyncKind::syncthreads_or, predicate, where) != 0;
}
inline void __syncwarp(unsigned mask = 0xffffffffu,
                       std::source_location where = std::source_location::current()) {
    using namespace warpdrill::cpu::detail;
    warp_sync(SyncKind::syncwarp, mask, warpSize, 0, 0, where);
}

template <warpdrill::cpu::detail::Shuffleable T>
T __shfl_sync(unsigned mask, T var, int src_lane, int width = warpSize,
              std::source_location where = std::source_location::current()) {
    using namespace warpdrill::cpu::detail;
    return warp_shuffle(SyncKind::shfl_idx, mask, var, src_lane, width, where);
}
template <warpdrill::cpu::detail::Shuffleable T>
T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = warpSize,
                 std::source_location where = std::source_location::current()) {
    using namespace warpdrill::cpu::detail;
    return warp_shuffle(SyncKind::shfl_up, mask, var, static_cast<int>(delta), width, where);
}
template <warpdrill::cpu::detail::Shuffleable T>
T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = warpSize,
                   std::source_location where = std::source_location::current()) {
    using namespace warpdrill::cpu::detail;
    return warp_shuffle(SyncKind::shfl_down, mask, var, static_cast<int>(delta), width, where);
}
template <warpdrill::cpu::detail::Shuffleable T>
T __shfl_xor_sync(unsigned mask, T var, int lane_mask, int width = warpSize,
                  std::source_location where = std::source_location::current()) {
    using namespace warpdrill::cpu::detail;
    return warp_shuffle(SyncKind::shfl_xor, mask, var, lane_mask, width, where);
}

// The integer warp reductions of sm_80 and later (one instruction each on a
// GPU): every lane of the mask gets the sum, minimum or maximum over the mask.
#define WARPDRILL_WARP_REDUCE(name, kind, T)                                                        \
    inline T name(unsigned mask, T value,                                                           \
                  std::source_location where = std::source_location::current()) {            \
        using namespace warpdrill::cpu::detail;                                                     \
        return from_bits<T>(                                                                        \
            warp_sync(SyncKind::kind, mask, warpSize, std::is_signed_v<T>, to_bits(value), where)); \
    }
WARPDRILL_WARP_REDUCE(__reduce_add_sync, reduce_add, int)
WARPDRILL_WARP_REDUCE(__reduce_add_sync, reduce_add, unsigned)
WARPDRILL_WARP_REDUCE(__reduce_min_sync, reduce_min, int)
WARPDRILL_WARP_REDUCE(__reduce_min_sync, reduce_min, unsigned)
WARPDRILL_WARP_REDUCE(__reduce_max_sync, reduce_max, int)
WARPDRILL_WARP_REDUCE(__reduce_max_sync, reduce_max, unsigned)
#undef WARPDRILL_WARP_REDUCE
inline unsigned __ballot_sync(unsigned mask, int predicate,
                              std::source_location where = std::source_location::current()) {
    using namespace warpdrill::cpu::detail;
    return static_cast<unsigned>(warp_sync(SyncKind::ballot, mask, warpSize, predicate != 0, 0, where));
}
inline int __any_sync(unsigned mask, int predicate,
                      std::source_location where = std::source_location::current()) {
    using namespace warpdrill::cpu::detail;
    return static_cast<int>(warp_sync(SyncKind::any, mask, warpSize, predicate != 0, 0, where));
}
inline int __all_sync(unsigned mask, int predicate,
                      std::source_location where = std::source_location::current()) {
    using namespace warpdrill::cpu::detail;
    return static_cast<int>(warp_sync(SyncKind::all, mask, warpSize, predicate != 0, 0, where));
}

// The lanes of the mask whose value has the same bits as the caller's
// (-0.0 and +0.0 differ; a NaN matches the same NaN), as match.sync compares:
// __match_any_sync returns them; __match_all_sync returns the mask and sets
// *pred when every lane of the mask holds the caller's value, else 0 and 0.
#define WARPDRILL_WARP_MATCH(T)                                                                      \
    inline unsigned __match_any_sync(unsigned mask, T value,                                         \
                                     std::source_location where = std::source_location::current()) { \
        using namespace warpdrill::cpu::detail;                                                      \
        return static_cast<unsigned>(                                                                \
            warp_sync(SyncKind::match_any, mask, warpSize, 0, to_bits(value), where));               \
    }                                                                                                \
    inline unsigned __match_all_sync(unsigned mask, T value, int* pred,                              \
                                     std::source_location where = std::source_location::current()) { \
        using namespace warpdrill::cpu::detail;                                                      \
        const auto all = static_cast<unsigned>(                                                      \
            warp_sync(SyncKind::match_all, mask, warpSize, 0, to_bits(value), where));               \
        *pred = all != 0;                                                                            \
        return all;                                                                                  \
    }
WARPDRILL_WARP_MATCH(int)
WARPDRILL_WARP_MATCH(unsigned)
WARPDRILL_WARP_MATCH(long)
WARPDRILL_WARP_MATCH(unsigned long)
WARPDRILL_WARP_MATCH(long long)
WARPDRILL_WARP_MATCH(unsigned long long)
WARPDRILL_WARP_MATCH(float)
WARPDRILL_WARP_MATCH(double)
#undef WARPDRILL_WARP_MATCH

// The lanes of this warp that run this call together with the caller: a lane
// that took another path, or has returned, is not in it.
inline unsigned __activemask(std::source_location where = std::source_location::current()) {
    return warpdrill::cpu::detail::active_mask(where);
}
[[noreturn]] inline void __trap(std::source_location where = std::source_location::current()) {
    warpdrill::cpu::detail::trap(where);
}

// The pre-CUDA-9 shuffles and votes without a mask are gone since Volta: nvcc
// rejects them for sm_70 and later, and so does this backend.
#define WARPDRILL_REMOVED_SHUFFLE(name)                                                               \
    template <class T, class... Rest>                                                                 \
    T name(T, Rest...) {                                                                              \
        static_assert(sizeof(T) == 0, #name " was removed in CUDA 9: use " #name "_sync(mask, ...)"); \
    }
WARPDRILL_REMOVED_SHUFFLE(__shfl)
WARPDRILL_REMOVED_SHUFFLE(__shfl_up)
WARPDRILL_REMOVED_SHUFFLE(__shfl_down)
WARPDRILL_REMOVED_SHUFFLE(__shfl_xor)
#undef WARPDRILL_REMOVED_SHUFFLE

// The two fences differ in order only so that the backend's instrumentation
// (access.h) can tell them apart: only __threadfence() orders two blocks.
inline void __threadfence() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline void __threadfence_block() { std::atomic_thread_fence(std::memory_order_acq_rel); }
// The system's fence orders what the device's does and more (the host's and
// other GPUs' view): for the race checker, as __threadfence().
inline void __threadfence_system() { __threadfence(); }

// ---- atomics: real ones, since blocks run on several OS threads ---------------
namespace warpdrill::cpu::detail {
// Always inlined, so that the backend's instrumentation sees the atomic at the
// kernel's own line.
template <class T, class Update>
[[gnu::always_inline]] inline T atomic_update(T* address, Update update) {
    count_atomic();
    std::atomic_ref<T> target(*address);
    T old = target.load();
    while (!target.compare_exchange_weak(old, update(old))) {
    }
    return old;
}
}  // namespace warpdrill::cpu::detail

// Each atomic comes in CUDA's three scopes: the device's (atomicAdd), the
// block's (atomicAdd_block) and the system's (atomicAdd_system). A CPU's
// atomics are atomic for every thread, so the three are one here.
#define WARPDRILL_IN_EVERY_SCOPE(DEFINE, name, ...) \
    DEFINE(name, __VA_ARGS__)                       \
    DEFINE(name##_block, __VA_ARGS__)               \
    DEFINE(name##_system, __VA_ARGS__)

// An exchange reads nothing it depends on (one into memory nothing has
// written is no uninitialized read): no load first.
#define WARPDRILL_ATOMIC_EXCH(name, T)                        \
    [[gnu::always_inline]] inline T name(T* address, T val) { \
        warpdrill::cpu::detail::count_atomic();               \
        return std::atomic_ref<T>(*address).exchange(val);    \
    }
#define WARPDRILL_ATOMIC(name, T, expr)                                                               \
    [[gnu::always_inline]] inline T name(T* address, T val) {                                         \
        return warpdrill::cpu::detail::atomic_update(address,                                         \
                                                     [val]([[maybe_unused]] T old) { return expr; }); \
    }
#define WARPDRILL_ATOMIC_CAS(name, T)                                       \
    [[gnu::always_inline]] inline T name(T* address, T compare, T val) {    \
        warpdrill::cpu::detail::count_atomic();                             \
        std::atomic_ref<T>(*address).compare_exchange_strong(compare, val); \
        return compare;                                                     \
    }
#define WARPDRILL_ATOMICS(name, T, expr) WARPDRILL_IN_EVERY_SCOPE(WARPDRILL_ATOMIC, name, T, expr)
WARPDRILL_IN_EVERY_SCOPE(WARPDRILL_ATOMIC_EXCH, atomicExch, int)
WARPDRILL_IN_EVERY_SCOPE(WARPDRILL_ATOMIC_EXCH, atomicExch, unsigned)
WARPDRILL_IN_EVERY_SCOPE(WARPDRILL_ATOMIC_EXCH, atomicExch, unsigned long long)
WARPDRILL_IN_EVERY_SCOPE(WARPDRILL_ATOMIC_EXCH, atomicExch, float)
WARPDRILL_ATOMICS(atomicAdd, int, old + val)
WARPDRILL_ATOMICS(atomicAdd, unsigned, old + val)
WARPDRILL_ATOMICS(atomicAdd, unsigned long long, old + val)
WARPDRILL_ATOMICS(atomicAdd, float, old + val)
WARPDRILL_ATOMICS(atomicAdd, double, old + val)
WARPDRILL_ATOMICS(atomicSub, int, old - val)
WARPDRILL_ATOMICS(atomicSub, unsigned, old - val)
WARPDRILL_ATOMICS(atomicMax, int, old > val ? old : val)
WARPDRILL_ATOMICS(atomicMax, unsigned, old > val ? old : val)
WARPDRILL_ATOMICS(atomicMax, long long, old > val ? old : val)
WARPDRILL_ATOMICS(atomicMax, unsigned long long, old > val ? old : val)
WARPDRILL_ATOMICS(atomicMin, int, old < val ? old : val)
WARPDRILL_ATOMICS(atomicMin, unsigned, old < val ? old : val)
WARPDRILL_ATOMICS(atomicMin, long long, old < val ? old : val)
WARPDRILL_ATOMICS(atomicMin, unsigned long long, old < val ? old : val)
// CUDA's wrapping counters: atomicInc counts 0, 1, ..., val, 0, ...;
// atomicDec counts down and wraps from 0 (or from above val) to val.
WARPDRILL_ATOMICS(atomicInc, unsigned, old >= val ? 0u : old + 1)
WARPDRILL_ATOMICS(atomicDec, unsigned, old == 0 || old > val ? val : old - 1)
WARPDRILL_ATOMICS(atomicAnd, int, old& val)
WARPDRILL_ATOMICS(atomicAnd, unsigned, old& val)
WARPDRILL_ATOMICS(atomicAnd, unsigned long long, old& val)
WARPDRILL_ATOMICS(atomicOr, int, old | val)
WARPDRILL_ATOMICS(atomicOr, unsigned, old | val)
WARPDRILL_ATOMICS(atomicOr, unsigned long long, old | val)
WARPDRILL_ATOMICS(atomicXor, int, old ^ val)
WARPDRILL_ATOMICS(atomicXor, unsigned, old ^ val)
WARPDRILL_ATOMICS(atomicXor, unsigned long long, old ^ val)
WARPDRILL_IN_EVERY_SCOPE(WARPDRILL_ATOMIC_CAS, atomicCAS, int)
WARPDRILL_IN_EVERY_SCOPE(WARPDRILL_ATOMIC_CAS, atomicCAS, unsigned)
WARPDRILL_IN_EVERY_SCOPE(WARPDRILL_ATOMIC_CAS, atomicCAS, unsigned long long)
WARPDRILL_IN_EVERY_SCOPE(WARPDRILL_ATOMIC_CAS, atomicCAS, unsigned short)  // sm_70 and later
#undef WARPDRILL_ATOMICS
#undef WARPDRILL_ATOMIC_CAS
#undef WARPDRILL_ATOMIC
#undef WARPDRILL_ATOMIC_EXCH
#undef WARPDRILL_IN_EVERY_SCOPE

// ---- device functions: math with CUDA's overloads, intrinsics, cache hints ------------
#include "warpdrill/cpu/device_functions.h"

// ---- nvcc's syntax: <<<>>>, extern __shared__, __device__ variables, inline PTX ----
#include "warpdrill/cpu/inline_ptx.h"
#include "warpdrill/cpu/nvcc_syntax.h"

// ---- launches through the runtime API, kernel attributes, occupancy ---------------------
#include "warpdrill/cpu/untyped_kernels.h"
#include "warpdrill/cpu/cooperative_launch.h"
#include "warpdrill/cpu/kernel_attributes.h"

// ---- graphs and stream capture, stream-ordered allocation --------------------------------
#include "warpdrill/cpu/graphs.h"
#include "warpdrill/cpu/memory_pools.h"
