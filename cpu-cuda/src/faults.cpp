#include "faults.h"

#include <sstream>
#include <stdexcept>

#include "warpdrill/messages.h"

namespace warpdrill::cpu::detail {

namespace {

constexpr int kWarpSize = 32;

// What the access was, as the messages' {access} says it: "read" or "write".
std::string access_text(AccessKind kind) {
    return messages::text(is_write(kind) ? "backend.access.write" : "backend.access.read");
}

// The message of one access of a race, by what the access was.
const char* race_access_id(AccessKind kind) {
    switch (kind) {
        case AccessKind::read: return "backend.race.access.read";
        case AccessKind::write: return "backend.race.access.write";
        case AccessKind::atomic_read: return "backend.race.access.atomic_read";
        case AccessKind::atomic_write: return "backend.race.access.atomic_write";
        case AccessKind::atomic_store: return "backend.race.access.atomic_store";
    }
    return "?";
}

// "thread 5 (warp 0, lane 5) read it at reduce.cuh:14: `...`"
std::string race_access_text(const RaceAccess& access) {
    return messages::text(race_access_id(access.kind),
                          {{"thread", access.by.thread}, {"place", place_with_text(access.by.place)}});
}

// The catalog's id of a race's cause that names the thread that wrote.
const char* writer_cause_id(RaceCause cause) {
    switch (cause) {
        case RaceCause::read_before_write: return "backend.race.cause.read_before_write";
        case RaceCause::read_before_write_ticket: return "backend.race.cause.read_before_write_ticket";
        case RaceCause::no_fence: return "backend.race.cause.no_fence";
        case RaceCause::no_ticket: return "backend.race.cause.no_ticket";
        case RaceCause::ticket_before_fence: return "backend.race.cause.ticket_before_fence";
        default: throw std::logic_error("a race cause that names no writer");
    }
}

// Why nothing orders the two accesses of a race; `writer` is the writing block.
std::string race_cause(RaceCause cause, const std::string& writer) {
    switch (cause) {
        case RaceCause::different_warps: return messages::text("backend.race.cause.different_warps");
        case RaceCause::lanes_of_one_warp: return messages::text("backend.race.cause.lanes_of_one_warp");
        default: break;
    }
    return messages::text(writer_cause_id(cause), {{"writer", writer}});
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
    const std::string thread_idx =
        thread.thread_idx ? messages::text("backend.name.thread_idx", {{"index", dims(*thread.thread_idx)}})
                          : "";
    const int rank = thread.rank;
    if (!thread.block) {
        return messages::text("backend.name.thread", {{"thread", rank},
                                                      {"thread_idx", thread_idx},
                                                      {"warp", rank / kWarpSize},
                                                      {"lane", rank % kWarpSize}});
    }
    return messages::text("backend.name.thread_of_block", {{"thread", rank},
                                                           {"thread_idx", thread_idx},
                                                           {"warp", rank / kWarpSize},
                                                           {"lane", rank % kWarpSize},
                                                           {"block", dims(*thread.block)}});
}

std::string hex_text(std::uintptr_t value) {
    std::ostringstream out;
    out << "0x" << std::hex << value;
    return out.str();
}

std::string in_block(uint3 block, const std::string& fault) {
    return messages::text("backend.fault.in_block", {{"block", dims(block)}, {"fault", fault}});
}

std::string by_thread(const std::string& thread, const std::string& fault) {
    return messages::text("backend.fault.by_thread", {{"thread", thread}, {"fault", fault}});
}

std::string in_host_code(const std::string& fault) {
    return messages::text("backend.fault.in_host_code", {{"fault", fault}});
}

std::string out_of_bounds(const BadAccess& access, const std::string& what) {
    return messages::text("backend.access.out_of_bounds", {{"access", access_text(access.kind)},
                                                           {"bytes", access.bytes},
                                                           {"thread", access.by.thread},
                                                           {"place", place_with_text(access.by.place)},
                                                           {"location", what}});
}

std::string misaligned(const BadAccess& access, std::uintptr_t address) {
    return messages::text("backend.access.misaligned", {{"bytes", access.bytes},
                                                        {"access", access_text(access.kind)},
                                                        {"thread", access.by.thread},
                                                        {"place", place_with_text(access.by.place)},
                                                        {"address", hex_text(address)}});
}

std::string host_memory(const BadAccess& access, const std::string& element, const std::string& parameter) {
    return messages::text("backend.access.host_memory", {{"access", access_text(access.kind)},
                                                         {"bytes", access.bytes},
                                                         {"thread", access.by.thread},
                                                         {"place", place_with_text(access.by.place)},
                                                         {"element", element},
                                                         {"parameter", parameter}});
}

std::string foreign_memory(const BadAccess& access, const std::string& what, int owner, int device) {
    return messages::text("backend.access.foreign_memory", {{"access", access_text(access.kind)},
                                                            {"bytes", access.bytes},
                                                            {"thread", access.by.thread},
                                                            {"place", place_with_text(access.by.place)},
                                                            {"what", what},
                                                            {"owner_gpu", owner},
                                                            {"gpu", device}});
}

std::string in_dynamic_shared_memory(std::size_t byte, std::size_t size) {
    return messages::text("backend.location.dynamic_shared_memory", {{"byte", byte}, {"bytes", size}});
}

std::string in_shared_array(const std::string& array, std::size_t size, std::size_t byte) {
    return messages::text("backend.location.shared_array",
                          {{"array", array}, {"bytes", size}, {"byte", byte}});
}

std::string in_no_buffer() { return messages::text("backend.location.no_buffer"); }

std::string in_freed_buffer(std::size_t byte, std::size_t size) {
    return messages::text("backend.location.freed_buffer", {{"byte", byte}, {"bytes", size}});
}

std::string in_buffer(const std::string& element, std::size_t byte, const std::string& buffer) {
    if (element.empty())
        return messages::text("backend.location.buffer", {{"byte", byte}, {"buffer", buffer}});
    return messages::text("backend.location.element",
                          {{"element", element}, {"byte", byte}, {"buffer", buffer}});
}

std::string in_mapped_shared_memory(std::size_t byte, const std::string& window, std::size_t size) {
    return messages::text("backend.location.mapped_shared_memory",
                          {{"byte", byte}, {"region", window}, {"bytes", size}});
}

std::string stale_shared_memory(const BadAccess& access, std::size_t byte) {
    return messages::text("backend.access.stale_shared_memory", {{"access", access_text(access.kind)},
                                                                 {"bytes", access.bytes},
                                                                 {"thread", access.by.thread},
                                                                 {"place", place_with_text(access.by.place)},
                                                                 {"byte", byte}});
}

std::string index_past_end(long long index, const std::string& array_type, const std::string& path, unsigned line) {
    SourcePlace place;
    place.file = path;
    place.line = line;
    return messages::text("backend.access.index_past_end",
                          {{"index", index}, {"type", array_type}, {"place", place_with_text(place)}});
}

std::string misaligned_vector_access(std::size_t alignment, Where where) {
    return messages::text("backend.access.misaligned_vector",
                          {{"bytes", alignment}, {"where", where_text(where)}});
}

WrittenElsewhere written_elsewhere_of(const DeviceAllocation& allocation) {
    WrittenElsewhere elsewhere{allocation.last_host_write, std::nullopt};
    if (const std::uint32_t store = allocation.first_store.load(std::memory_order_relaxed)) {
        elsewhere.store = source_places({store})[0];
    }
    return elsewhere;
}

namespace {

// "The last cudaMemcpy into the buffer, at main.cu:16, wrote its bytes 0 to 1023. "
std::string written_elsewhere(const WrittenElsewhere& elsewhere) {
    std::string text;
    if (const std::optional<HostWrite>& copy = elsewhere.copy) {
        const SourcePlace place = source_places({copy->call.code})[0];
        const std::size_t first = copy->offset, last = copy->offset + copy->bytes - 1;
        text += place.line ? messages::text("backend.init.last_copy", {{"call", copy->call.name},
                                                                       {"where", to_string(place)},
                                                                       {"first", first},
                                                                       {"last", last}})
                           : messages::text("backend.init.last_copy_unknown_place",
                                            {{"call", copy->call.name}, {"first", first}, {"last", last}});
    }
    if (elsewhere.store) {
        text += messages::text("backend.init.kernel_store", {{"place", place_with_text(*elsewhere.store)}});
    }
    if (text.empty()) text = messages::text("backend.init.nothing_written");
    return text;
}

}  // namespace

std::string uninitialized_global_read(const BadAccess& access, const std::string& what, uint3 block,
                                      const WrittenElsewhere& elsewhere) {
    const char* id = is_atomic(access.kind) ? "backend.init.global_atomic_read" : "backend.init.global_read";
    return in_block(block, messages::text(id, {{"bytes", access.bytes},
                                               {"thread", access.by.thread},
                                               {"place", place_with_text(access.by.place)},
                                               {"location", what},
                                               {"written", written_elsewhere(elsewhere)},
                                               {"consequence", messages::text("backend.init.on_a_gpu")}}));
}

std::string uninitialized_copy_source(const HostCall& call, std::size_t bytes, std::size_t unwritten,
                                      const std::string& what, const WrittenElsewhere& elsewhere) {
    return messages::text("backend.init.copy_source", {{"call", call.name},
                                                       {"where", to_string(source_places({call.code})[0])},
                                                       {"bytes", bytes},
                                                       {"unwritten", unwritten},
                                                       {"location", what},
                                                       {"written", written_elsewhere(elsewhere)}});
}

namespace {

std::string access_word(bool write) {
    return messages::text(write ? "backend.access.write" : "backend.access.read");
}

}  // namespace

std::string library_out_of_bounds(const HostCall& call, const LibraryOperand& operand,
                                  const std::string& location, bool write) {
    return messages::text("backend.library.out_of_bounds",
                          {{"call", call.name},
                           {"where", to_string(source_places({call.code})[0])},
                           {"operand", operand.name},
                           {"layout", operand.layout},
                           {"location", location},
                           {"access", access_word(write)}});
}

std::string library_not_device_memory(const HostCall& call, const LibraryOperand& operand,
                                      const std::string& location, bool write) {
    return messages::text("backend.library.not_device_memory",
                          {{"call", call.name},
                           {"where", to_string(source_places({call.code})[0])},
                           {"operand", operand.name},
                           {"location", location},
                           {"access", access_word(write)}});
}

std::string library_uninitialized_read(const HostCall& call, const LibraryOperand& operand,
                                       const std::string& location, const std::string& reason,
                                       const WrittenElsewhere& elsewhere) {
    return messages::text("backend.library.uninitialized",
                          {{"call", call.name},
                           {"where", to_string(source_places({call.code})[0])},
                           {"operand", operand.name},
                           {"layout", operand.layout},
                           {"location", location},
                           {"reason", reason},
                           {"written", written_elsewhere(elsewhere)},
                           {"consequence", messages::text("backend.init.on_a_gpu")}});
}

std::string uninitialized_shared_read(const Accessor& by, const std::string& element, uint3 block,
                                      const std::string& array, const std::optional<SourcePlace>& store) {
    const std::string stores =
        store ? messages::text("backend.init.first_store",
                               {{"array", array}, {"place", place_with_text(*store)}, {"element", element}})
              : messages::text("backend.init.no_store", {{"array", array}});
    return messages::text("backend.init.shared_read", {{"thread", by.thread},
                                                       {"element", element},
                                                       {"place", place_with_text(by.place)},
                                                       {"block", dims(block)},
                                                       {"stores", stores}});
}

std::string race(const std::string& element, const RaceAccess& now, const RaceAccess& before, RaceCause cause,
                 const std::string& writer) {
    return messages::text("backend.race.race", {{"element", element},
                                                {"access", race_access_text(now)},
                                                {"earlier", race_access_text(before)},
                                                {"cause", race_cause(cause, writer)}});
}

std::string atomic_update_and_plain_read_warning(const std::string& element, const Accessor& reader,
                                                 const Accessor& updater) {
    return messages::text("backend.race.atomic_update_and_plain_read",
                          {{"element", element},
                           {"reader", reader.thread},
                           {"read_place", place_with_text(reader.place)},
                           {"updater", updater.thread},
                           {"update_place", place_with_text(updater.place)}});
}

std::string same_value_writes(const std::string& element, const Accessor& now, const Accessor& before) {
    return messages::text("backend.race.same_value_writes",
                          {{"element", element},
                           {"thread", now.thread},
                           {"place", place_with_text(now.place)},
                           {"earlier_thread", before.thread},
                           {"earlier_place", place_with_text(before.place)}});
}

}  // namespace warpdrill::cpu::detail
