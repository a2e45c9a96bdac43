// <thrust/iterator/constant_iterator.h> on the CPU backend (device_vector.h
// lists the Thrust subset): thrust::constant_iterator<T>, whose every item
// is the same value, and thrust::make_constant_iterator(value, index = 0).
#pragma once

#include <cstddef>

#include "thrust/detail/iterator_arithmetic.h"
#include "thrust/detail/system.h"

namespace thrust {

template <class Value>
class constant_iterator : public detail::iterator_arithmetic<constant_iterator<Value>> {
  public:
    using value_type = Value;
    using reference = Value;
    using pointer = void;

    constant_iterator() = default;
    explicit constant_iterator(const Value& value, std::ptrdiff_t index = 0) : value_(value), place_(index) {}

    reference operator*() const { return value_; }

  private:
    friend class detail::iterator_arithmetic<constant_iterator>;
    Value value_{};
    std::ptrdiff_t place_ = 0;  // only to measure distances between two of them
};

template <class Value>
constant_iterator<Value> make_constant_iterator(const Value& value, std::ptrdiff_t index = 0) {
    return constant_iterator<Value>(value, index);
}

namespace detail {
template <class Value>
constexpr system system_of<constant_iterator<Value>> = system::any;
}  // namespace detail

}  // namespace thrust
