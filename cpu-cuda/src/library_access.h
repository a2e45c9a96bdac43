// What a library call of the host (cuBLAS's) reads and writes of device
// memory, held to the buffers as compute-sanitizer holds the library's
// kernels on a GPU: memcheck's bounds and initcheck's unwritten bytes. A
// library's operation runs as queued work on a stream (streams.h), and these
// are called as it runs. Internal to the backend.
#pragma once

#include <cstddef>
#include <cstdint>

#include "device_memory.h"

namespace warpdrill::cpu::detail {

// The elements of one array that a call touches: `runs` runs (a matrix's
// columns) of `run` elements each, the runs `stride` elements apart. A vector
// of n elements inc apart is n runs of one, |inc| apart.
struct StridedElements {
    const char* name = "";  // as the library's documentation names it: "A", "x", "result"
    const void* data = nullptr;
    std::size_t element_bytes = 0;
    std::int64_t run = 1;
    std::int64_t runs = 1;
    std::int64_t stride = 1;
    bool is_matrix = false;  // how a message describes it
    int batch = -1;          // which matrix of a batched call, or -1
    // A message that says why the call reads these, where that is not plain, or nullptr.
    const char* read_reason = nullptr;
};

// A vector of n elements `inc` apart (BLAS's increment: a negative one runs
// from the end) as the checks see it: n runs of one element, |inc| apart.
inline StridedElements vector_elements(const char* name, const void* data, std::size_t bytes, std::int64_t n,
                                       std::int64_t inc) {
    return {name, data, bytes, 1, n, inc < 0 ? -inc : inc};
}

// Throws a KernelFault where `elements` are not all in one buffer a GPU's
// kernel may read, or where a read one of them holds bytes nothing wrote.
void check_library_read(const HostCall& call, const StridedElements& elements);
// Throws a KernelFault where `elements` are not all in one buffer a GPU's
// kernel may write.
void check_library_write(const HostCall& call, const StridedElements& elements);
// After the call wrote `elements`: their bytes now hold values.
void note_library_write(const HostCall& call, const StridedElements& elements);

}  // namespace warpdrill::cpu::detail
