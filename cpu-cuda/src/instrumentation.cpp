// The functions that GCC's -fsanitize=thread and -fsanitize=bounds make
// kernel code call (access.h says why). No sanitizer runtime is linked: these
// are the whole runtime. Outside a tracked launch each costs one test of a
// thread-local pointer (and, once buffers live on several GPUs, a check of
// the GPU whose memory it is); atomics and fences also do what they are asked.
#include <algorithm>
#include <cstdint>
#include <cstring>

#include "access.h"
#include "scheduler.h"

using warpdrill::cpu::detail::AccessKind;
using warpdrill::cpu::detail::active_watch;

namespace {

// Called from the instrumented kernel: the return address is the kernel's
// instruction after the access.
#define WARPDRILL_CALLER_CODE __builtin_return_address(0)

// Whether a natural access (the __tsan_readN forms, not
// __tsan_unaligned_readN) of `bytes` at `where` is one a GPU cannot make:
// its cudaErrorMisalignedAddress. GCC calls the natural forms of 1 to 8
// bytes for a type aligned to their width, and that of 16 bytes for any
// type aligned to 8 or more, a float4 and a struct of a pointer and a size
// alike. A GPU loads the second as two 8-byte words, which may lie at any
// multiple of 8: there the backend cannot tell the two apart, and takes
// the second (a float4 at an odd multiple of 8, which a GPU faults on, goes
// unnamed rather than a correct struct being called misaligned).
inline bool misaligned_for_gpu(std::uintptr_t where, std::size_t bytes) {
    return where % std::min<std::size_t>(bytes, 8) != 0;
}

// `natural`: the compiler's access assumes the type's alignment, which a
// GPU's load or store of that width requires (misaligned_for_gpu).
inline void note(const volatile void* address, std::size_t bytes, AccessKind kind, const void* code,
                 bool is_volatile = false, bool natural = false) {
    const auto where = reinterpret_cast<std::uintptr_t>(address);
    const bool reads = kind == AccessKind::read || kind == AccessKind::atomic_read;
    if (auto* watch = active_watch) {
        // What the backend does here (a fault's message, a profile's counts)
        // may call instrumented copies of inline library functions that the
        // linker took from a kernel's object file: those are not the kernel's.
        active_watch = nullptr;
        if (natural && misaligned_for_gpu(where, bytes)) watch->misaligned(where, bytes, kind, code);
        watch->access(where, bytes, kind, code, is_volatile);
        active_watch = watch;
    } else if (warpdrill::cpu::detail::memory_on_several_devices.load(std::memory_order_relaxed)) {
        warpdrill::cpu::detail::check_device_access(where, bytes, kind, code);
    }
    // Once a launch has run for a second, a thread may be spinning on a flag
    // that another sets (launch.cpp): reads are watched from then on.
    if (reads && warpdrill::cpu::detail::spin_watch.load(std::memory_order_relaxed)) {
        warpdrill::cpu::detail::watch_spin(where);
    }
}

}  // namespace

extern "C" {

void __tsan_init() {}
void __tsan_func_entry(void*) {}
void __tsan_func_exit() {}
// A polymorphic object's pointer to its class's virtual functions: its
// constructor's store (which the compiler makes itself, after this call) and
// a virtual call's load are accesses as any other; an object built in
// shared memory with placement new has its first word written here.
void __tsan_vptr_update(void** vptr, void*) {
    note(vptr, sizeof(void*), AccessKind::write, WARPDRILL_CALLER_CODE, false, true);
}
void __tsan_vptr_read(void** vptr) {
    note(vptr, sizeof(void*), AccessKind::read, WARPDRILL_CALLER_CODE, false, true);
}

// __tsan_<kind>read<bytes> and __tsan_<kind>write<bytes>: kind is empty for
// a plain access, unaligned_ or volatile_. Only a natural (aligned) access may
// be one instruction on a GPU.
#define WARPDRILL_ACCESSES(kind, bytes, is_volatile, natural)                                 \
    void __tsan_##kind##read##bytes(void* address) {                                          \
        note(address, bytes, AccessKind::read, WARPDRILL_CALLER_CODE, is_volatile, natural);  \
    }                                                                                         \
    void __tsan_##kind##write##bytes(void* address) {                                         \
        note(address, bytes, AccessKind::write, WARPDRILL_CALLER_CODE, is_volatile, natural); \
    }
#define WARPDRILL_ACCESSES_OF_SIZE(bytes)               \
    WARPDRILL_ACCESSES(, bytes, false, true)            \
    WARPDRILL_ACCESSES(unaligned_, bytes, false, false) \
    WARPDRILL_ACCESSES(volatile_, bytes, true, true)
WARPDRILL_ACCESSES_OF_SIZE(1)
WARPDRILL_ACCESSES_OF_SIZE(2)
WARPDRILL_ACCESSES_OF_SIZE(4)
WARPDRILL_ACCESSES_OF_SIZE(8)
WARPDRILL_ACCESSES_OF_SIZE(16)
#undef WARPDRILL_ACCESSES_OF_SIZE
#undef WARPDRILL_ACCESSES

void __tsan_read_range(void* address, unsigned long bytes) {
    note(address, bytes, AccessKind::read, WARPDRILL_CALLER_CODE);
}
void __tsan_write_range(void* address, unsigned long bytes) {
    note(address, bytes, AccessKind::write, WARPDRILL_CALLER_CODE);
}

// Atomics: performed here (sequentially consistent, which is at least what
// was asked for), after the access is noted.
#define WARPDRILL_ATOMICS(bits, T)                                                                          \
    T __tsan_atomic##bits##_load(const volatile T* a, int) {                                               \
        note(a, sizeof(T), AccessKind::atomic_read, WARPDRILL_CALLER_CODE);                                 \
        return __atomic_load_n(a, __ATOMIC_SEQ_CST);                                                        \
    }                                                                                                       \
    void __tsan_atomic##bits##_store(volatile T* a, T v, int) {                                            \
        note(a, sizeof(T), AccessKind::atomic_store, WARPDRILL_CALLER_CODE);                                \
        __atomic_store_n(a, v, __ATOMIC_SEQ_CST);                                                           \
    }                                                                                                       \
    int __tsan_atomic##bits##_compare_exchange_strong(volatile T* a, T* expected, T v, int, int) {         \
        note(a, sizeof(T), AccessKind::atomic_write, WARPDRILL_CALLER_CODE);                                \
        return __atomic_compare_exchange_n(a, expected, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);      \
    }                                                                                                       \
    int __tsan_atomic##bits##_compare_exchange_weak(volatile T* a, T* expected, T v, int, int) {           \
        note(a, sizeof(T), AccessKind::atomic_write, WARPDRILL_CALLER_CODE);                                \
        return __atomic_compare_exchange_n(a, expected, v, true, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);       \
    }                                                                                                       \
    T __tsan_atomic##bits##_compare_exchange_val(volatile T* a, T expected, T v, int, int) {               \
        note(a, sizeof(T), AccessKind::atomic_write, WARPDRILL_CALLER_CODE);                                \
        __atomic_compare_exchange_n(a, &expected, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);            \
        return expected;                                                                                    \
    }                                                                                                       \
    WARPDRILL_ATOMIC_RMW(bits, T, exchange, __atomic_exchange_n, atomic_store)                              \
    WARPDRILL_ATOMIC_RMW(bits, T, fetch_add, __atomic_fetch_add, atomic_write)                              \
    WARPDRILL_ATOMIC_RMW(bits, T, fetch_sub, __atomic_fetch_sub, atomic_write)                              \
    WARPDRILL_ATOMIC_RMW(bits, T, fetch_and, __atomic_fetch_and, atomic_write)                              \
    WARPDRILL_ATOMIC_RMW(bits, T, fetch_or, __atomic_fetch_or, atomic_write)                                \
    WARPDRILL_ATOMIC_RMW(bits, T, fetch_xor, __atomic_fetch_xor, atomic_write)                              \
    WARPDRILL_ATOMIC_RMW(bits, T, fetch_nand, __atomic_fetch_nand, atomic_write)
// An exchange depends on nothing already there: initcheck-wise, a store.
#define WARPDRILL_ATOMIC_RMW(bits, T, name, builtin, kind)            \
    T __tsan_atomic##bits##_##name(volatile T* a, T v, int) {         \
        note(a, sizeof(T), AccessKind::kind, WARPDRILL_CALLER_CODE);  \
        return builtin(a, v, __ATOMIC_SEQ_CST);                       \
    }
WARPDRILL_ATOMICS(8, std::uint8_t)
WARPDRILL_ATOMICS(16, std::uint16_t)
WARPDRILL_ATOMICS(32, std::uint32_t)
WARPDRILL_ATOMICS(64, std::uint64_t)
#undef WARPDRILL_ATOMICS
#undef WARPDRILL_ATOMIC_RMW

// __threadfence() is a sequentially consistent fence, __threadfence_block()
// an acquire-release one (cuda_runtime.h): only the first orders blocks.
void __tsan_atomic_thread_fence(int order) {
    if (auto* watch = active_watch) watch->fence(order == __ATOMIC_SEQ_CST);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
void __tsan_atomic_signal_fence(int) { __atomic_signal_fence(__ATOMIC_SEQ_CST); }

// -fsanitize=bounds: an index past a fixed-size array (a static __shared__
// array, most often). The layouts are UBSan's.
struct UbsanSourceLocation {
    const char* file;
    std::uint32_t line;
    std::uint32_t column;
};
struct UbsanTypeDescriptor {
    std::uint16_t kind;
    std::uint16_t info;  // for integers: log2(bit width) << 1 | signed
    char name[1];
};
struct UbsanOutOfBounds {
    UbsanSourceLocation location;
    const UbsanTypeDescriptor* array_type;
    const UbsanTypeDescriptor* index_type;
};

void __ubsan_handle_out_of_bounds(UbsanOutOfBounds* data, void* index) {
    const bool is_signed = data->index_type->info & 1;
    const long long value = is_signed ? static_cast<long long>(reinterpret_cast<std::intptr_t>(index))
                                      : static_cast<long long>(reinterpret_cast<std::uintptr_t>(index));
    warpdrill::cpu::detail::index_out_of_bounds(data->array_type->name, value, data->location.file,
                                                data->location.line);
}
void __ubsan_handle_out_of_bounds_abort(UbsanOutOfBounds* data, void* index) {
    __ubsan_handle_out_of_bounds(data, index);
}

}  // extern "C"

namespace warpdrill::cpu::detail {

// Not instrumented as a kernel's memcpy is (this file is the runtime): the
// copy's read and write are noted as the calling thread's, then made.
void copy_in_kernel(void* destination, const void* source, std::size_t bytes) {
    note(source, bytes, AccessKind::read, WARPDRILL_CALLER_CODE);
    note(destination, bytes, AccessKind::write, WARPDRILL_CALLER_CODE);
    std::memcpy(destination, source, bytes);
}

}  // namespace warpdrill::cpu::detail
