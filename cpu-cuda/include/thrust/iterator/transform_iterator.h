// <thrust/iterator/transform_iterator.h> on the CPU backend
// (device_vector.h lists the Thrust subset): thrust::transform_iterator,
// whose item i is f(base[i]), computed where it is read, and
// thrust::make_transform_iterator. It is of its base iterator's system: over
// a device_vector's iterators, a device iterator, and a kernel reads it
// over the raw pointer.
#pragma once

#include <iterator>
#include <type_traits>

#include "thrust/detail/iterator_arithmetic.h"
#include "thrust/detail/system.h"

namespace thrust {

template <class AdaptableUnaryFunction, class Iterator>
class transform_iterator
    : public detail::iterator_arithmetic<transform_iterator<AdaptableUnaryFunction, Iterator>> {
  public:
    using value_type =
        std::decay_t<std::invoke_result_t<const AdaptableUnaryFunction&,
                                          typename std::iterator_traits<Iterator>::value_type>>;
    using reference = value_type;
    using pointer = void;

    transform_iterator(Iterator base, AdaptableUnaryFunction f) : place_(base), f_(f) {}

    reference operator*() const { return f_(*place_); }
    Iterator base() const { return place_; }
    AdaptableUnaryFunction functor() const { return f_; }

  private:
    friend class detail::iterator_arithmetic<transform_iterator>;
    Iterator place_;
    AdaptableUnaryFunction f_;
};

template <class AdaptableUnaryFunction, class Iterator>
transform_iterator<AdaptableUnaryFunction, Iterator> make_transform_iterator(Iterator base,
                                                                             AdaptableUnaryFunction f) {
    return transform_iterator<AdaptableUnaryFunction, Iterator>(base, f);
}

namespace detail {
template <class AdaptableUnaryFunction, class Iterator>
constexpr system system_of<transform_iterator<AdaptableUnaryFunction, Iterator>> = system_of<Iterator>;
template <class AdaptableUnaryFunction, class Iterator>
struct kernel_view<transform_iterator<AdaptableUnaryFunction, Iterator>> {
    static auto of(transform_iterator<AdaptableUnaryFunction, Iterator> it) {
        return make_transform_iterator(in_kernel(it.base()), it.functor());
    }
};
}  // namespace detail

}  // namespace thrust
