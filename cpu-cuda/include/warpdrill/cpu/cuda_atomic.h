// The operations of libcu++'s atomics on the CPU backend (<cuda/std/atomic>,
// <cuda/atomic>): one class of them, over where the object lives (a
// reference's pointer, or an atomic's own value), at a thread scope.
// Each is an atomic of the CPU (sequentially consistent, which is at least
// what was asked), seen by the backend's instrumentation at the kernel's own
// line as the CUDA atomics are (cuda_runtime.h). What the order asks of the
// other memory accesses is what the race checker needs to know: an
// operation that releases (memory_order_release, acq_rel or seq_cst) is
// preceded by a fence of its scope, as a release is a fence and a relaxed
// operation in CUDA's memory model, so that a release at device scope orders
// one block's writes before another block's acquire as __threadfence() and
// an atomic do; at block scope it orders nothing between blocks. An acquire
// needs nothing more: the checker takes any atomic on the address as one.
// Not here: wait() and notify_*(), and objects over 8 bytes.
#pragma once

#include <atomic>
#include <concepts>
#include <cstddef>
#include <type_traits>

#include "warpdrill/cpu/cuda_runtime.h"
#include "warpdrill/cpu/thread_scope.h"

namespace warpdrill::cpu::detail {

template <class T>
concept atomic_arithmetic = (std::integral<T> && !std::same_as<T, bool>) || std::floating_point<T>;
template <class T>
concept atomic_bitwise = std::integral<T> && !std::same_as<T, bool>;

[[gnu::always_inline]] inline bool releases(std::memory_order order) {
    return order == std::memory_order_release || order == std::memory_order_acq_rel ||
           order == std::memory_order_seq_cst;
}

// The fence a release of `order` at `scope` stands for (see above).
[[gnu::always_inline]] inline void release_fence(std::memory_order order, cuda::thread_scope scope) {
    if (!releases(order) || scope == cuda::thread_scope_thread) return;
    if (scope == cuda::thread_scope_block) {
        __threadfence_block();
    } else {
        __threadfence();
    }
}

// cuda::atomic_thread_fence: a fence that releases is release_fence's; an
// acquire fence is the CPU's, and orders nothing between blocks for the
// race checker (which takes the atomic before it as the acquire).
[[gnu::always_inline]] inline void thread_fence(std::memory_order order, cuda::thread_scope scope) {
    if (releases(order)) {
        release_fence(order, scope);
    } else if (order != std::memory_order_relaxed) {
        std::atomic_thread_fence(order);
    }
}

// Where a cuda::atomic_ref's object lives: elsewhere.
template <class T>
class RefStorage {
  public:
    explicit constexpr RefStorage(T& object) : object_(&object) {}
    T* address() const { return object_; }

  private:
    T* object_;
};

// Where a cuda::atomic's object lives: in it (so that it is as large as T,
// and may stand in a __shared__ or __device__ array as on a GPU).
template <class T>
class ValueStorage {
  public:
    constexpr ValueStorage() noexcept = default;
    explicit constexpr ValueStorage(T value) : value_(value) {}
    T* address() const { return &value_; }

  private:
    alignas(sizeof(T)) mutable T value_;
};

template <class T, cuda::thread_scope Scope, class Storage>
class AtomicOps : public Storage {
    static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 8 && (sizeof(T) & (sizeof(T) - 1)) == 0,
                  "the CPU backend's atomics hold a trivially copyable type of 1, 2, 4 or 8 bytes");
    using order = std::memory_order;
    static constexpr order seq_cst = std::memory_order_seq_cst;

  public:
    using value_type = T;
    static constexpr bool is_always_lock_free = true;
    using Storage::Storage;

    bool is_lock_free() const noexcept { return true; }

    [[gnu::always_inline]] void store(T desired, order o = seq_cst) const noexcept {
        release_fence(o, Scope);
        target().store(desired, o);
    }
    [[gnu::always_inline]] T load(order o = seq_cst) const noexcept { return target().load(o); }
    [[gnu::always_inline]] operator T() const noexcept { return load(); }

    [[gnu::always_inline]] T exchange(T desired, order o = seq_cst) const noexcept {
        release_fence(o, Scope);
        count_atomic();
        return target().exchange(desired, o);
    }
    [[gnu::always_inline]] bool compare_exchange_strong(T& expected, T desired, order success,
                                                        order failure) const noexcept {
        release_fence(success, Scope);
        count_atomic();
        return target().compare_exchange_strong(expected, desired, success, failure);
    }
    [[gnu::always_inline]] bool compare_exchange_strong(T& expected, T desired,
                                                        order o = seq_cst) const noexcept {
        return compare_exchange_strong(expected, desired, o, failure_order(o));
    }
    // A GPU's compare-and-swap does not fail spuriously, nor does this one.
    [[gnu::always_inline]] bool compare_exchange_weak(T& expected, T desired, order success,
                                                      order failure) const noexcept {
        return compare_exchange_strong(expected, desired, success, failure);
    }
    [[gnu::always_inline]] bool compare_exchange_weak(T& expected, T desired,
                                                      order o = seq_cst) const noexcept {
        return compare_exchange_strong(expected, desired, o, failure_order(o));
    }

    [[gnu::always_inline]] T fetch_add(T arg,
                                       order o = seq_cst) const noexcept requires atomic_arithmetic<T> {
        return update(o, [arg](T old) { return old + arg; });
    }
    [[gnu::always_inline]] T fetch_sub(T arg,
                                       order o = seq_cst) const noexcept requires atomic_arithmetic<T> {
        return update(o, [arg](T old) { return old - arg; });
    }
    [[gnu::always_inline]] T fetch_add(std::ptrdiff_t arg,
                                       order o = seq_cst) const noexcept requires std::is_pointer_v<T> {
        return update(o, [arg](T old) { return old + arg; });
    }
    [[gnu::always_inline]] T fetch_sub(std::ptrdiff_t arg,
                                       order o = seq_cst) const noexcept requires std::is_pointer_v<T> {
        return update(o, [arg](T old) { return old - arg; });
    }
    [[gnu::always_inline]] T fetch_and(T arg, order o = seq_cst) const noexcept requires atomic_bitwise<T> {
        return update(o, [arg](T old) { return old & arg; });
    }
    [[gnu::always_inline]] T fetch_or(T arg, order o = seq_cst) const noexcept requires atomic_bitwise<T> {
        return update(o, [arg](T old) { return old | arg; });
    }
    [[gnu::always_inline]] T fetch_xor(T arg, order o = seq_cst) const noexcept requires atomic_bitwise<T> {
        return update(o, [arg](T old) { return old ^ arg; });
    }

    // The operators of std::atomic: they answer the new value.
    template <class Arg>
    T operator+=(Arg arg) const noexcept requires requires(const AtomicOps& a) {
        a.fetch_add(arg);
    }
    { return fetch_add(arg) + arg; }
    template <class Arg>
    T operator-=(Arg arg) const noexcept requires requires(const AtomicOps& a) {
        a.fetch_sub(arg);
    }
    { return fetch_sub(arg) - arg; }
    T operator&=(T arg) const noexcept requires atomic_bitwise<T> { return fetch_and(arg) & arg; }
    T operator|=(T arg) const noexcept requires atomic_bitwise<T> { return fetch_or(arg) | arg; }
    T operator^=(T arg) const noexcept requires atomic_bitwise<T> { return fetch_xor(arg) ^ arg; }
    T operator++() const noexcept requires atomic_bitwise<T> || std::is_pointer_v<T> {
        return fetch_add(1) + 1;
    }
    T operator--() const noexcept requires atomic_bitwise<T> || std::is_pointer_v<T> {
        return fetch_sub(1) - 1;
    }
    T operator++(int) const noexcept requires atomic_bitwise<T> || std::is_pointer_v<T> {
        return fetch_add(1);
    }
    T operator--(int) const noexcept requires atomic_bitwise<T> || std::is_pointer_v<T> {
        return fetch_sub(1);
    }

  protected:
    // libcu++'s fetch_min and fetch_max, which cuda::atomic and
    // cuda::atomic_ref make public beside the standard's members.
    [[gnu::always_inline]] T fetch_min(T arg, order o = seq_cst) const noexcept {
        return update(o, [arg](T old) { return arg < old ? arg : old; });
    }
    [[gnu::always_inline]] T fetch_max(T arg, order o = seq_cst) const noexcept {
        return update(o, [arg](T old) { return old < arg ? arg : old; });
    }

  private:
    [[gnu::always_inline]] std::atomic_ref<T> target() const { return std::atomic_ref<T>(*this->address()); }
    // The failure order the standard derives from a single order.
    static order failure_order(order o) {
        if (o == std::memory_order_acq_rel) return std::memory_order_acquire;
        if (o == std::memory_order_release) return std::memory_order_relaxed;
        return o;
    }
    template <class Update>
    [[gnu::always_inline]] T update(order o, Update next) const {
        release_fence(o, Scope);
        return atomic_update(this->address(), next);
    }
};

// The members of cuda::std::atomic and cuda::atomic beside the operations.
template <class T, cuda::thread_scope Scope>
struct AtomicObject : AtomicOps<T, Scope, ValueStorage<T>> {
    constexpr AtomicObject() noexcept = default;
    constexpr AtomicObject(T value) noexcept : AtomicObject::AtomicOps(value) {}
    AtomicObject(const AtomicObject&) = delete;
    AtomicObject& operator=(const AtomicObject&) = delete;
    T operator=(T value) noexcept {
        this->store(value);
        return value;
    }
};

// The members of cuda::std::atomic_ref and cuda::atomic_ref beside the operations.
template <class T, cuda::thread_scope Scope>
struct AtomicReference : AtomicOps<T, Scope, RefStorage<T>> {
    static constexpr std::size_t required_alignment = sizeof(T);
    explicit constexpr AtomicReference(T& object) noexcept : AtomicReference::AtomicOps(object) {}
    AtomicReference(const AtomicReference&) noexcept = default;
    AtomicReference& operator=(const AtomicReference&) = delete;
    T operator=(T value) const noexcept {
        this->store(value);
        return value;
    }
};

}  // namespace warpdrill::cpu::detail
