// <thrust/device_ptr.h> on the CPU backend (device_vector.h lists the
// Thrust subset): thrust::device_ptr<T>, a pointer to device memory that
// Thrust's algorithms take as a device iterator; thrust::device_reference<T>,
// what it points at: on the host, a read or a write of it is one cudaMemcpy;
// thrust::device_pointer_cast and thrust::raw_pointer_cast. A kernel takes
// the raw pointer (raw_pointer_cast): a device_reference does not read
// device memory from inside a kernel here.
#pragma once

#include <cstddef>
#include <type_traits>

#include "thrust/detail/device_memory.h"
#include "thrust/detail/iterator_arithmetic.h"
#include "thrust/detail/system.h"

namespace thrust {

template <class T>
class device_ptr;

template <class T>
class device_reference {
  public:
    using value_type = std::remove_cv_t<T>;
    using pointer = device_ptr<T>;

    explicit device_reference(T* item) : item_(item) {}

    operator value_type() const { return detail::read_from_device(item_); }
    const device_reference& operator=(const value_type& value) const {
        detail::write_to_device(item_, value);
        return *this;
    }
    const device_reference& operator=(const device_reference& other) const {
        return *this = static_cast<value_type>(other);
    }
    template <class U>
    const device_reference& operator+=(const U& x) const {
        return *this = static_cast<value_type>(*this) + x;
    }
    template <class U>
    const device_reference& operator-=(const U& x) const {
        return *this = static_cast<value_type>(*this) - x;
    }
    template <class U>
    const device_reference& operator*=(const U& x) const {
        return *this = static_cast<value_type>(*this) * x;
    }
    template <class U>
    const device_reference& operator/=(const U& x) const {
        return *this = static_cast<value_type>(*this) / x;
    }
    pointer operator&() const { return pointer(item_); }

  private:
    T* item_;
};

template <class T>
class device_ptr : public detail::iterator_arithmetic<device_ptr<T>> {
  public:
    using element_type = T;
    using value_type = std::remove_cv_t<T>;
    using pointer = device_ptr;
    using reference = device_reference<T>;

    device_ptr() = default;
    device_ptr(std::nullptr_t) {}
    explicit device_ptr(T* raw) : place_(raw) {}
    template <class U>
    requires std::is_convertible_v<U*, T*> device_ptr(const device_ptr<U>& other) : place_(other.get()) {}

    T* get() const { return place_; }
    reference operator*() const { return reference(place_); }
    explicit operator bool() const { return place_ != nullptr; }

  private:
    friend class detail::iterator_arithmetic<device_ptr>;
    T* place_ = nullptr;
};

template <class T>
device_ptr<T> device_pointer_cast(T* raw) {
    return device_ptr<T>(raw);
}
template <class T>
device_ptr<T> device_pointer_cast(const device_ptr<T>& ptr) {
    return ptr;
}

template <class T>
T* raw_pointer_cast(const device_ptr<T>& ptr) {
    return ptr.get();
}
template <class T>
T* raw_pointer_cast(T* raw) {
    return raw;
}

namespace detail {
template <class T>
constexpr system system_of<device_ptr<T>> = system::device;
template <class T>
struct kernel_view<device_ptr<T>> {
    static T* of(device_ptr<T> it) { return it.get(); }
};
}  // namespace detail

}  // namespace thrust
