#include "library_access.h"

#include <string>

#include "faults.h"
#include "host_memory.h"
#include "warpdrill/cpu/backend.h"
#include "warpdrill/messages.h"

namespace warpdrill::cpu::detail {

namespace {

LibraryOperand operand_of(const StridedElements& elements) {
    const std::string name = elements.batch < 0
                                 ? elements.name
                                 : messages::text("backend.library.operand_of_batch",
                                                  {{"name", elements.name}, {"batch", elements.batch}});
    const std::string layout =
        elements.is_matrix
            ? messages::text("backend.library.matrix", {{"rows", elements.run},
                                                        {"columns", elements.runs},
                                                        {"bytes", elements.element_bytes},
                                                        {"ld", elements.stride}})
            : messages::text(
                  "backend.library.vector",
                  {{"n", elements.runs}, {"bytes", elements.element_bytes}, {"inc", elements.stride}});
    return {name, layout};
}

// The bytes from the first element to the end of the last.
std::size_t extent(const StridedElements& elements) {
    return ((elements.runs - 1) * elements.stride + elements.run) * elements.element_bytes;
}

bool touches_nothing(const StridedElements& elements) { return elements.run <= 0 || elements.runs <= 0; }

// The buffer holding all of `elements`, or nullptr for pinned host memory,
// which a kernel may touch but no buffer describes; throws where a GPU's
// kernel could not touch them all.
DeviceAllocation* buffer_holding(const HostCall& call, const StridedElements& elements, bool write) {
    const auto address = reinterpret_cast<std::uintptr_t>(elements.data);
    DeviceAllocation* allocation = device_allocation_at(address);
    if (!allocation) {
        if (is_pinned(elements.data)) return nullptr;
        const std::optional<FreedBuffer> freed = freed_buffer_at(address);
        const std::string location =
            freed ? in_freed_buffer(address - freed->start, freed->bytes) : in_no_buffer();
        throw KernelFault(library_not_device_memory(call, operand_of(elements), location, write));
    }
    const std::size_t bytes = extent(elements);
    if (!allocation->fits(address, bytes)) {
        const std::string location =
            in_buffer("", address - allocation->start + bytes - 1, buffer_description(*allocation));
        throw KernelFault(library_out_of_bounds(call, operand_of(elements), location, write));
    }
    return allocation;
}

}  // namespace

void check_library_read(const HostCall& call, const StridedElements& elements) {
    if (touches_nothing(elements)) return;
    const DeviceAllocation* allocation = buffer_holding(call, elements, false);
    if (!allocation || fully_written(*allocation)) return;
    const std::size_t first = reinterpret_cast<std::uintptr_t>(elements.data) - allocation->start;
    const std::size_t run_bytes = elements.run * elements.element_bytes;
    for (std::int64_t run = 0; run < elements.runs; ++run) {
        const std::size_t start = first + run * elements.stride * elements.element_bytes;
        const std::size_t unwritten = allocation->written.first_unwritten(start, run_bytes);
        if (unwritten == run_bytes) continue;
        const std::string location = in_buffer("", start + unwritten, buffer_description(*allocation));
        const std::string reason = elements.read_reason ? messages::text(elements.read_reason) : "";
        throw KernelFault(library_uninitialized_read(call, operand_of(elements), location, reason,
                                                     written_elsewhere_of(*allocation)));
    }
}

void check_library_write(const HostCall& call, const StridedElements& elements) {
    if (!touches_nothing(elements)) buffer_holding(call, elements, true);
}

void note_library_write(const HostCall& call, const StridedElements& elements) {
    if (touches_nothing(elements)) return;
    DeviceAllocation* allocation = device_allocation_at(reinterpret_cast<std::uintptr_t>(elements.data));
    if (!allocation) return;
    const std::size_t first = reinterpret_cast<std::uintptr_t>(elements.data) - allocation->start;
    const std::size_t run_bytes = elements.run * elements.element_bytes;
    for (std::int64_t run = 0; run < elements.runs; ++run) {
        allocation->written.mark(first + run * elements.stride * elements.element_bytes, run_bytes);
    }
    if (elements.runs == 1 || elements.stride == elements.run) {
        allocation->last_host_write = HostWrite{call, first, extent(elements)};
    }
}

}  // namespace warpdrill::cpu::detail
