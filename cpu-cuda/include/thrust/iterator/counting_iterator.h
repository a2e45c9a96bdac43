// <thrust/iterator/counting_iterator.h> on the CPU backend (device_vector.h
// lists the Thrust subset): thrust::counting_iterator<T>, whose items are
// the numbers from a first one on, computed where they are read (on the
// host or in a kernel), and thrust::make_counting_iterator.
#pragma once

#include "thrust/detail/iterator_arithmetic.h"
#include "thrust/detail/system.h"

namespace thrust {

template <class Incrementable>
class counting_iterator : public detail::iterator_arithmetic<counting_iterator<Incrementable>> {
  public:
    using value_type = Incrementable;
    using reference = Incrementable;
    using pointer = void;

    counting_iterator() = default;
    explicit counting_iterator(Incrementable first) : place_(first) {}

    reference operator*() const { return place_; }

  private:
    friend class detail::iterator_arithmetic<counting_iterator>;
    Incrementable place_{};
};

template <class Incrementable>
counting_iterator<Incrementable> make_counting_iterator(Incrementable first) {
    return counting_iterator<Incrementable>(first);
}

namespace detail {
template <class Incrementable>
constexpr system system_of<counting_iterator<Incrementable>> = system::any;
}  // namespace detail

}  // namespace thrust
