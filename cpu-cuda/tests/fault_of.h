// What the backend's diagnostic tests share: run a launch that should fault,
// and look for words in the message; launch a grid in clusters.
#pragma once

#include <chrono>
#include <cstddef>
#include <initializer_list>
#include <string>

#include "warpdrill/catch.h"
#include "warpdrill/cuda.h"

namespace warpdrill::testing {

// Runs `body` and returns the KernelFault's message, or "" if none.
template <class Body>
std::string fault_of(Body body) {
    const auto start = std::chrono::steady_clock::now();
    std::string message;
    try {
        body();
    } catch (const cpu::KernelFault& fault) {
        message = fault.what();
    }
    // A diagnostic must end the run promptly, never hang: well before the
    // watchdog's 30 s (WARPDRILL_KERNEL_TIMEOUT_S) would stop the kernel, with
    // room for a loaded machine (CI runs this suite beside nvcc's compiles,
    // where naming a race between blocks once took 6.4 s, on 2026-11-27).
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(20));
    return message;
}

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Checks that a fault's message says each of `parts`; a failure prints the
// whole message and the part it lacks.
inline void expect_says(const std::string& message, std::initializer_list<const char*> parts) {
    INFO(message);
    for (const char* part : parts) {
        INFO("it should say: " << part);
        CHECK(contains(message, part));
    }
}

// `blocks` blocks of `threads` in clusters of `cluster_blocks`, cooperative or not.
template <class... Params, class... Args>
cudaError_t launch_clusters(void (*kernel)(Params...), unsigned blocks, unsigned threads,
                            unsigned cluster_blocks, bool cooperative, std::size_t dynamic_smem_bytes,
                            Args... args) {
    cudaLaunchAttribute attributes[2] = {};
    attributes[0].id = cudaLaunchAttributeClusterDimension;
    attributes[0].val.clusterDim = {cluster_blocks, 1, 1};
    attributes[1].id = cudaLaunchAttributeCooperative;
    attributes[1].val.cooperative = cooperative;
    const cudaLaunchConfig_t config{dim3(blocks), dim3(threads), dynamic_smem_bytes, nullptr, attributes, 2};
    return cudaLaunchKernelEx(&config, kernel, args...);
}

}  // namespace warpdrill::testing
