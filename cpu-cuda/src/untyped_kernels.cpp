// Kernels named through void* (untyped_kernels.h): what the casts remembered,
// and launches of such kernels.
#include <map>
#include <mutex>

#include "program.h"
#include "state.h"
#include "warpdrill/cpu/cuda_runtime.h"
#include "warpdrill/messages.h"

namespace warpdrill::cpu::detail {
namespace {

std::mutex registry_mutex;
std::map<const void*, KernelSignature>& registry() {
    static auto* kernels =
        new std::map<const void*, KernelSignature>;  // casts may run while statics are destroyed
    return *kernels;
}

}  // namespace

void remember_kernel(const void* kernel, LaunchBinder binder,
                     std::initializer_list<std::size_t> parameter_bytes) {
    std::lock_guard lock(registry_mutex);
    registry().try_emplace(kernel, KernelSignature{binder, parameter_bytes});
}

const KernelSignature* signature_of(const void* kernel) {
    std::lock_guard lock(registry_mutex);
    const auto found = registry().find(kernel);
    return found == registry().end() ? nullptr : &found->second;
}

cudaError_t launch_untyped(const char* call_name, const void* kernel, dim3 grid, dim3 block, void** args,
                           std::size_t dynamic_smem_bytes, cudaStream_t stream, const GroupLaunch& groups) {
    const HostCall call = WARPDRILL_HOST_CALL(call_name);
    const KernelSignature* signature = kernel ? signature_of(kernel) : nullptr;
    if (!signature) {
        return refuse(call, cudaErrorInvalidDeviceFunction, messages::text("backend.api.untyped_kernel"));
    }
    GridLaunch launch = signature->bind(kernel, args, grid, block, dynamic_smem_bytes);
    launch.groups = groups;
    return launch_grid(std::move(launch), stream);
}

}  // namespace warpdrill::cpu::detail
