// Each kernel's attributes, set by cudaFuncSetAttribute and read by
// cudaFuncGetAttributes and by the launch checks: a kernel may be launched
// with more than 48 KB of dynamic shared memory only up to what its
// attribute allows, as on an H100 (cpu-cuda/tests/gpu/runtime_probe.cu
// measured the error codes there).
#include <mutex>
#include <unordered_map>

#include "device.h"
#include "state.h"

namespace warpdrill::cpu::detail {
namespace {

struct KernelAttributes {
    int max_dynamic_shared_bytes = static_cast<int>(kSharedMemoryPerBlock);
    int preferred_carveout = cudaSharedmemCarveoutDefault;
};

std::mutex attributes_mutex;
std::unordered_map<const void*, KernelAttributes>
    attributes_by_kernel;  // those set; the others are the defaults

KernelAttributes attributes_of(const void* kernel) {
    std::lock_guard lock(attributes_mutex);
    const auto found = attributes_by_kernel.find(kernel);
    return found == attributes_by_kernel.end() ? KernelAttributes{} : found->second;
}

bool valid_attribute(cudaFuncAttribute attribute, int value) {
    switch (attribute) {
        case cudaFuncAttributeMaxDynamicSharedMemorySize:
            return value >= 0 && static_cast<std::size_t>(value) <= kSharedMemoryPerBlockOptin;
        case cudaFuncAttributePreferredSharedMemoryCarveout:
            return value >= cudaSharedmemCarveoutDefault && value <= cudaSharedmemCarveoutMaxShared;
    }
    return false;
}

}  // namespace

std::size_t max_dynamic_shared_bytes(const void* kernel) {
    return static_cast<std::size_t>(attributes_of(kernel).max_dynamic_shared_bytes);
}

}  // namespace warpdrill::cpu::detail

using namespace warpdrill::cpu::detail;

cudaError_t cudaFuncSetAttribute(const void* kernel, cudaFuncAttribute attribute, int value) {
    if (!valid_attribute(attribute, value)) return record(cudaErrorInvalidValue);
    std::lock_guard lock(attributes_mutex);
    KernelAttributes& attributes = attributes_by_kernel[kernel];
    (attribute == cudaFuncAttributeMaxDynamicSharedMemorySize ? attributes.max_dynamic_shared_bytes
                                                              : attributes.preferred_carveout) = value;
    return cudaSuccess;
}

cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attributes, const void* kernel) {
    if (!attributes) return record(cudaErrorInvalidValue);
    const KernelAttributes set = attributes_of(kernel);
    *attributes = {};
    attributes->maxThreadsPerBlock = kMaxThreadsPerBlock;  // __launch_bounds__ means nothing here
    attributes->ptxVersion = attributes->binaryVersion = compute_capability();
    attributes->maxDynamicSharedSizeBytes = set.max_dynamic_shared_bytes;
    attributes->preferredShmemCarveout = set.preferred_carveout;
    return cudaSuccess;
}
