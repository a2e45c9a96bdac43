#include "faults.h"

#include <sstream>

namespace warpdrill::cpu::detail {

namespace {

constexpr int kWarpSize = 32;

// "read it", "wrote it", ... with what the access was.
const char* verb(AccessKind kind) {
    switch (kind) {
        case AccessKind::read: return "read it";
        case AccessKind::write: return "wrote it";
        case AccessKind::atomic_read: return "read it (atomic or volatile)";
        case AccessKind::atomic_write: return "updated it (atomic)";
        case AccessKind::atomic_store: return "wrote it (atomic or volatile)";
    }
    return "?";
}

const char* read_or_write(AccessKind kind) { return is_write(kind) ? "write" : "read"; }

// "read of 4 bytes by thread 5 (warp 0, lane 5) at reduce.cuh:14: `...`"
std::string access_text(const BadAccess& access) {
    return std::string(read_or_write(access.kind)) + " of " + std::to_string(access.bytes) + " bytes by " +
           access.by.thread + " at " + place_with_text(access.by.place);
}

}  // namespace

std::string dims(uint3 v) {
    return "(" + std::to_string(v.x) + "," + std::to_string(v.y) + "," + std::to_string(v.z) + ")";
}

std::string where_text(Where where) {
    return std::string(where.file_name()) + ":" + std::to_string(where.line());
}

std::string place_with_text(const SourcePlace& place) {
    std::string text = to_string(place);
    const std::string line = place.line ? source_line(place.file, place.line) : "";
    if (!line.empty()) text += ": `" + line + "`";
    return text;
}

std::string thread_text(const ThreadName& thread) {
    std::string text = "thread " + std::to_string(thread.rank);
    if (thread.thread_idx) text += " (threadIdx " + dims(*thread.thread_idx) + ")";
    text += " (warp " + std::to_string(thread.rank / kWarpSize) + ", lane " +
            std::to_string(thread.rank % kWarpSize) + ")";
    if (thread.block) text += " of block " + dims(*thread.block);
    return text;
}

std::string hex_text(std::uintptr_t value) {
    std::ostringstream out;
    out << "0x" << std::hex << value;
    return out.str();
}

std::string in_block(uint3 block, const std::string& fault) {
    return "in block " + dims(block) + ": " + fault;
}

std::string by_thread(const std::string& thread, const std::string& fault) { return thread + ": " + fault; }

std::string out_of_bounds(const BadAccess& access, const std::string& what) {
    return "out-of-bounds " + access_text(access) + ": the address is " + what +
           " (on a GPU, compute-sanitizer's memcheck reports an invalid access here, or the kernel reads another "
           "variable's data)";
}

std::string misaligned(const BadAccess& access, std::uintptr_t address) {
    return "misaligned " + std::to_string(access.bytes) + "-byte " + read_or_write(access.kind) + " by " +
           access.by.thread + " at " + place_with_text(access.by.place) + ": the address " + hex_text(address) +
           " is not a multiple of " + std::to_string(access.bytes) +
           " (a GPU stops the kernel with cudaErrorMisalignedAddress; compute-sanitizer's memcheck reports the "
           "misaligned address)";
}

std::string host_memory(const BadAccess& access, const std::string& element, const std::string& parameter) {
    return access_text(access) + ": the address is " + element + ", in host memory: the kernel's argument " +
           parameter +
           " points to pageable host memory (an array, a std::vector, malloc'd memory), which a GPU's threads "
           "cannot reach. cudaMalloc a buffer, cudaMemcpy the data into it and pass that (on a GPU the kernel "
           "stops with an illegal address; compute-sanitizer's memcheck reports an invalid __global__ " +
           read_or_write(access.kind) + ")";
}

std::string foreign_memory(const BadAccess& access, const std::string& what, int owner, int device) {
    const std::string mine = std::to_string(device), other = std::to_string(owner);
    return access_text(access) + ": the address is " + what + ", in the memory of GPU " + other +
           ", but the kernel runs on GPU " + mine + ", and GPU " + mine + " has no peer access to GPU " + other +
           " (cudaDeviceEnablePeerAccess was not called for it; on a GPU the kernel stops with an illegal address)";
}

std::string in_dynamic_shared_memory(std::size_t byte, std::size_t size) {
    return "byte " + std::to_string(byte) + " of the dynamic shared memory, which has " + std::to_string(size) +
           " bytes (the launch's third parameter)";
}

std::string in_shared_array(const std::string& array, std::size_t size, std::size_t byte) {
    return "the __shared__ array " + array + " of " + std::to_string(size) + " bytes, at byte " +
           std::to_string(byte);
}

std::string in_no_buffer() { return "no cudaMalloc'd buffer"; }

std::string in_freed_buffer(std::size_t byte, std::size_t size) {
    return "byte " + std::to_string(byte) + " of a buffer of " + std::to_string(size) +
           " bytes that cudaFree has released (a use after free)";
}

std::string in_buffer(const std::string& element, std::size_t byte, const std::string& buffer) {
    return (element.empty() ? "" : element + ", ") + "byte " + std::to_string(byte) + " of " + buffer;
}

std::string in_mapped_shared_memory(std::size_t byte, const std::string& window, std::size_t size) {
    return "byte " + std::to_string(byte) + " of " + window + ", which has " + std::to_string(size) +
           " bytes (mapped by this_cluster().map_shared_rank())";
}

std::string stale_shared_memory(const BadAccess& access, std::size_t byte) {
    return access_text(access) + ": the address is byte " + std::to_string(byte) +
           " of the dynamic shared memory of an earlier launch's block. Shared memory lasts only as long as its "
           "block: a pointer into it, kept in a __device__ variable or a buffer, points at nothing in a later "
           "launch (on a GPU the kernel stops with cudaErrorInvalidAddressSpace, \"operation not supported on "
           "global/shared address space\"; compute-sanitizer's memcheck reports an invalid __global__ " +
           read_or_write(access.kind) + ")";
}

std::string index_past_end(long long index, const std::string& array_type, const std::string& path, unsigned line) {
    std::string text = "index " + std::to_string(index) + " is past the end of an array of type " + array_type +
                       " at " + path + ":" + std::to_string(line);
    const std::string code = source_line(path, line);
    if (!code.empty()) text += ": `" + code + "`";
    return text;
}

std::string misaligned_vector_access(std::size_t alignment, Where where) {
    return "misaligned " + std::to_string(alignment) + "-byte access at " + where_text(where) +
           ": the address is not a multiple of " + std::to_string(alignment) +
           " (a GPU stops the kernel with cudaErrorMisalignedAddress)";
}

namespace {

// "The last cudaMemcpy into the buffer, at main.cu:16, wrote its bytes 0 to 1023. "
std::string written_elsewhere(const WrittenElsewhere& elsewhere) {
    std::string text;
    if (const std::optional<HostWrite>& copy = elsewhere.copy) {
        const SourcePlace place = source_places({copy->call.code})[0];
        text += std::string("The last ") + copy->call.name + " into the buffer" +
                (place.line ? ", at " + to_string(place) + "," : "") + " wrote its bytes " +
                std::to_string(copy->offset) + " to " + std::to_string(copy->offset + copy->bytes - 1) + ". ";
    }
    if (elsewhere.store) text += "A kernel's store at " + place_with_text(*elsewhere.store) + " wrote other bytes of it. ";
    if (text.empty()) text = "Nothing has written any byte of the buffer. ";
    return text;
}

}  // namespace

std::string uninitialized_global_read(const BadAccess& access, const std::string& what, uint3 block,
                                      const WrittenElsewhere& elsewhere) {
    const bool atomic = is_atomic(access.kind);
    const std::string fault =
        std::string("uninitialized ") + (atomic ? "atomic or volatile " : "") + "read of " +
        std::to_string(access.bytes) + " bytes by " + access.by.thread + " at " + place_with_text(access.by.place) +
        ": " + what +
        " has never been written: no cudaMemset or cudaMemcpy put a value there, and no store of this or an "
        "earlier kernel wrote it" +
        (atomic ? " (an atomicAdd adds to the value already there: cudaMemset an accumulator first)" : "") + ". " +
        written_elsewhere(elsewhere) +
        "On a GPU the value is whatever the memory last held (compute-sanitizer's initcheck reports an "
        "uninitialized __global__ memory read); the CPU backend's fresh memory is zeros, which would have "
        "hidden it";
    return in_block(block, fault);
}

std::string uninitialized_shared_read(const Accessor& by, const std::string& element, uint3 block,
                                      const std::string& array, const std::optional<SourcePlace>& store) {
    return by.thread + " read " + element + " at " + place_with_text(by.place) + " in block " + dims(block) +
           ", which no thread of the block has written: shared memory starts undefined (on a GPU it holds "
           "whatever an earlier kernel or block left there, often zeros; the CPU backend fills it with a poison "
           "pattern), so the value read is garbage, and so may be the result. " +
           (store ? "The block first stored to " + array + " at " + place_with_text(*store) + "; no store reached " +
                        element + ". "
                  : "No thread of the block has written any of " + array + ". ") +
           "compute-sanitizer's initcheck looks at global memory only";
}

std::string race(const std::string& element, const RaceAccess& now, const RaceAccess& before, RaceCause cause,
                 const std::string& writer) {
    std::ostringstream text;
    text << "race on " << element << ": " << now.by.thread << " " << verb(now.kind) << " at "
         << place_with_text(now.by.place) << "\n  after " << before.by.thread << " " << verb(before.kind) << " at "
         << place_with_text(before.by.place) << "\n  and nothing orders the two: ";
    switch (cause) {
        case RaceCause::read_before_write:
            text << "the other block read it before this one wrote it; no atomic (a ticket) told the reader that "
                    "block "
                 << writer << " had finished";
            break;
        case RaceCause::read_before_write_ticket:
            text << "the other block read it before this one wrote it; the reader's atomics (a ticket) all came "
                    "before this write, so none of them told it that block "
                 << writer << " had finished";
            break;
        case RaceCause::no_fence:
            text << "block " << writer
                 << " made no __threadfence() after writing it, so another block may not see the write even after "
                    "an atomic handshake (a ticket)";
            break;
        case RaceCause::no_ticket:
            text << "this block read it with no atomic (a ticket) telling it that block " << writer
                 << " had finished";
            break;
        case RaceCause::ticket_before_fence:
            text << "no atomic (a ticket) this block took came after block " << writer
                 << "'s __threadfence() and an atomic of block " << writer << ", so none told it that block "
                 << writer << " had finished";
            break;
        case RaceCause::different_warps:
            text << "the threads are in different warps and no __syncthreads() lies between the two accesses";
            break;
        case RaceCause::lanes_of_one_warp:
            text << "the threads are lanes of one warp and no __syncwarp() lies between the two accesses (since "
                    "Volta, lanes of a warp do not run in lock-step)";
            break;
    }
    return text.str();
}

std::string same_value_writes(const std::string& element, const Accessor& now, const Accessor& before) {
    return "lanes of one warp wrote the same value to " + element + " with nothing ordering the writes: " +
           now.thread + " at " + place_with_text(now.place) + ", after " + before.thread + " at " +
           place_with_text(before.place) +
           ". The word holds that value whichever write lands last, so the result is the GPU's (and "
           "compute-sanitizer's racecheck reports no hazard), but were the values ever to differ it would be a "
           "race: let one lane write it";
}

}  // namespace warpdrill::cpu::detail
