// Every fault and warning about a kernel's memory accesses: each message is
// a function of named fields, which the address check, the race checker and
// the initialisation check fill in; the wording, in English and Chinese, is
// in messages/backend.toml. Each message says what a GPU does, or what
// compute-sanitizer reports, in the same case. The names every message uses
// (threads, blocks, places) are made here too; the faults of sync points are
// in sync_faults.h, those that end a launch otherwise in launch_faults.h.
// Internal to the backend.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "device_memory.h"
#include "observer.h"
#include "program.h"

namespace warpdrill::cpu::detail {

// "(1,0,0)": a block's index, a thread's, a shape.
std::string dims(uint3 v);
// "reduce.cu:12", as the compiler named the file (a sync point's std::source_location).
std::string where_text(Where where);
// "reduce.cuh:14: `sdata[tid] += sdata[tid + s];`"
std::string place_with_text(const SourcePlace& place);

// Who a thread is: its rank in the block, its threadIdx where that says
// more (a block of two or three dimensions), and its block where that is
// not the one running.
struct ThreadName {
    int rank;
    std::optional<uint3> thread_idx = std::nullopt;
    std::optional<uint3> block = std::nullopt;
};
// "thread 37 (threadIdx (5,1,0)) (warp 1, lane 5) of block (1,0,0)"; the two
// parts in brackets are there only with their fields.
std::string thread_text(const ThreadName& thread);

// An address or a lane mask as the messages write it: "0x7f3a00001004", "0xffff".
std::string hex_text(std::uintptr_t value);

// Every kernel fault begins with its block: "in block (1,0,0): " + `fault`.
std::string in_block(uint3 block, const std::string& fault);
// A fault made by one thread: "thread 5 (warp 0, lane 5): " + `fault`.
std::string by_thread(const std::string& thread, const std::string& fault);
// A fault of host code, which goes on: "warpdrill: " + `fault`.
std::string in_host_code(const std::string& fault);

// Who made an access and where: "thread 5 (warp 0, lane 5) of block (1,0,0)" at a place.
struct Accessor {
    std::string thread;
    SourcePlace place;
};

// The access of `by` is an error of its address (these end the kernel).
struct BadAccess {
    Accessor by;
    AccessKind kind;
    std::size_t bytes;
};
// `what` names where the address lies: "byte 4096 of a buffer of 4096 bytes (cudaMalloc'd)",
// one of the places below.
std::string out_of_bounds(const BadAccess& access, const std::string& what);
// Where an out-of-bounds address lies. `buffer` describes a cudaMalloc'd
// buffer ("a buffer of 4096 bytes (cudaMalloc'd)"), `element` names the
// element there ("in[1024]", or ""), `window` another block's shared memory.
std::string in_dynamic_shared_memory(std::size_t byte, std::size_t size);
std::string in_shared_array(const std::string& array, std::size_t size, std::size_t byte);
std::string in_no_buffer();
std::string in_freed_buffer(std::size_t byte, std::size_t size);
std::string in_buffer(const std::string& element, std::size_t byte, const std::string& buffer);
std::string in_mapped_shared_memory(std::size_t byte, const std::string& window, std::size_t size);
std::string misaligned(const BadAccess& access, std::uintptr_t address);
// `element` is "in[3]", `parameter` the kernel's parameter ("in").
std::string host_memory(const BadAccess& access, const std::string& element, const std::string& parameter);
// `what` names the buffer or element, `owner` the GPU whose memory it is.
std::string foreign_memory(const BadAccess& access, const std::string& what, int owner, int device);
// A pointer into the dynamic shared memory of an earlier launch (kept in a
// __device__ variable or a buffer), at `byte` of that memory.
std::string stale_shared_memory(const BadAccess& access, std::size_t byte);
// -fsanitize=bounds: `index` past a fixed-size array, at `path`:`line`.
std::string index_past_end(long long index, const std::string& array_type, const std::string& path, unsigned line);
// A wide access of `alignment` bytes (a pack of the course's pack.cuh) at
// an address that is not a multiple of it.
std::string misaligned_vector_access(std::size_t alignment, Where where);

// Where the rest of a buffer or array was written: what a read of bytes
// nothing wrote is compared with (the copy that was one element short).
struct WrittenElsewhere {
    std::optional<HostWrite> copy;   // the last cudaMemcpy or cudaMemset into the buffer
    std::optional<SourcePlace> store;  // a kernel's store to it
};
// What the program did write into `allocation`, for a message about bytes it did not.
WrittenElsewhere written_elsewhere_of(const DeviceAllocation& allocation);
// initcheck: `what` names the element and its buffer.
std::string uninitialized_global_read(const BadAccess& access, const std::string& what, uint3 block,
                                      const WrittenElsewhere& elsewhere);
// A warning: `call` copied `bytes` to the host, `unwritten` of which nothing
// wrote, the first at `what`.
std::string uninitialized_copy_source(const HostCall& call, std::size_t bytes, std::size_t unwritten,
                                      const std::string& what, const WrittenElsewhere& elsewhere);
// A library call's operand (library_access.h), named ("A", "A of batch 2")
// and laid out ("a 64 x 32 matrix ...") by library_operand.
struct LibraryOperand {
    std::string name;
    std::string layout;
};
// memcheck: the operand ends at `location`, past its buffer.
std::string library_out_of_bounds(const HostCall& call, const LibraryOperand& operand,
                                  const std::string& location, bool write);
// memcheck: the operand's pointer is in no buffer a kernel may touch.
std::string library_not_device_memory(const HostCall& call, const LibraryOperand& operand,
                                      const std::string& location, bool write);
// initcheck: the operand's bytes at `location` were never written; `reason`
// says why the call reads them, or is "".
std::string library_uninitialized_read(const HostCall& call, const LibraryOperand& operand,
                                       const std::string& location, const std::string& reason,
                                       const WrittenElsewhere& elsewhere);
// A warning: shared memory read before any thread of the block wrote it;
// `array` names the array, `store` is the block's first store to it.
std::string uninitialized_shared_read(const Accessor& by, const std::string& element, uint3 block,
                                      const std::string& array, const std::optional<SourcePlace>& store);

// A race: two accesses to `element`, and why nothing orders them.
enum class RaceCause {
    different_warps,          // no __syncthreads() between them
    lanes_of_one_warp,        // no __syncwarp() between them
    read_before_write,        // another block read it before this one wrote it, and
    read_before_write_ticket, //   this one's atomics all came before the write
    no_fence,                 // the writing block made no __threadfence() after the write
    no_ticket,                // the reading block took no atomic (a ticket)
    ticket_before_fence,      // its atomics came before the writer's fence and atomic
};
struct RaceAccess {
    Accessor by;
    AccessKind kind;
};
// `writer` names the writing block ("(1,0,0)") for the causes between blocks.
std::string race(const std::string& element, const RaceAccess& now, const RaceAccess& before, RaceCause cause,
                 const std::string& writer);
// A warning: `reader` read `element` with a plain load and `updater` updated it
// with an atomic, in shared memory, with nothing ordering the two.
std::string atomic_update_and_plain_read_warning(const std::string& element, const Accessor& reader,
                                                 const Accessor& updater);
// A warning: lanes of one warp wrote one value to `element` with nothing ordering them.
std::string same_value_writes(const std::string& element, const Accessor& now, const Accessor& before);

}  // namespace warpdrill::cpu::detail
