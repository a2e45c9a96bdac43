// <thrust/device_vector.h> on the CPU backend: thrust::device_vector<T>, and
// the subset of Thrust that warpdrill's CPU backend provides, written for
// the backend from Thrust's documented API (not Thrust's code):
//
//   containers   device_vector, host_vector (<thrust/host_vector.h>)
//   memory       device_ptr, device_reference, device_pointer_cast,
//                raw_pointer_cast, device_malloc, device_free
//   policies     thrust::host, thrust::device, thrust::cuda::par,
//                thrust::cuda::par.on(stream) (<thrust/execution_policy.h>)
//   algorithms   reduce, reduce_by_key (keys compared with ==, values
//                added), transform_reduce, inner_product, transform (unary
//                and binary), fill, sequence, copy, count, count_if,
//                min_element, max_element, minmax_element, inclusive_scan,
//                exclusive_scan, each with and without a policy first
//   iterators    counting_iterator, constant_iterator, transform_iterator
//                and their make_ functions
//   the rest     <thrust/functional.h>'s function objects, thrust::pair,
//                thrust::system_error (a failed CUDA call), and
//                std::bad_alloc (thrust::system::detail::bad_alloc, a failed
//                allocation)
//
// Without a policy, an algorithm runs where its iterators are
// (detail/system.h). On the device its functors run as device code in
// kernels the backend launches and checks, on the backend's CUB where CUB
// has the algorithm (detail/device_launch.h): a functor that reads past a
// buffer is named as on a GPU under compute-sanitizer. Reductions combine
// the items in another order than Thrust's: floating-point results may
// differ from a GPU's in the last bits. The rest of Thrust is not here: a
// program that uses it does not compile, and the compiler names what is
// missing.
//
// A device_vector's items live in memory from cudaMalloc, value-initialised
// on the device when it is made with a size; operator[] reads or writes one
// of them with one cudaMemcpy, as Thrust's device_reference does.
#pragma once

#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <iterator>
#include <type_traits>
#include <utility>
#include <vector>

#include "thrust/copy.h"
#include "thrust/detail/device_memory.h"
#include "thrust/device_ptr.h"
#include "thrust/fill.h"

namespace thrust {

template <class T>
class device_vector {
  public:
    using value_type = T;
    using size_type = std::size_t;
    using difference_type = std::ptrdiff_t;
    using pointer = device_ptr<T>;
    using const_pointer = device_ptr<const T>;
    using reference = device_reference<T>;
    using const_reference = device_reference<const T>;
    using iterator = device_ptr<T>;
    using const_iterator = device_ptr<const T>;

    device_vector() = default;
    explicit device_vector(size_type n) : device_vector(n, T()) {}
    device_vector(size_type n, const T& value) : items_(n) { thrust::fill(begin(), end(), value); }
    template <class InputIterator>
    requires(!std::is_integral_v<InputIterator>) device_vector(InputIterator first, InputIterator last)
        : items_(std::distance(first, last)) {
        thrust::copy(first, last, begin());
    }
    device_vector(const device_vector& other) : device_vector(other.begin(), other.end()) {}
    device_vector(device_vector&& other) noexcept = default;
    template <class U>
    device_vector(const device_vector<U>& other) : device_vector(other.begin(), other.end()) {}
    template <class U, class Alloc>
    device_vector(const std::vector<U, Alloc>& host_items)
        : device_vector(host_items.begin(), host_items.end()) {}
    device_vector(std::initializer_list<T> items) : device_vector(items.begin(), items.end()) {}

    // Copies and moves alike: `other` is a copy, or what was moved.
    device_vector& operator=(device_vector other) noexcept {
        std::swap(items_, other.items_);
        return *this;
    }
    template <class U, class Alloc>
    device_vector& operator=(const std::vector<U, Alloc>& host_items) {
        return *this = device_vector(host_items);
    }

    size_type size() const { return items_.size(); }
    bool empty() const { return size() == 0; }

    // Keeps the first min(n, size()) items; any new ones are `value`.
    void resize(size_type n, const T& value = T()) {
        device_vector resized(n, value);
        thrust::copy(begin(), begin() + std::min(n, size()), resized.begin());
        *this = std::move(resized);
    }
    void clear() { *this = device_vector(); }

    iterator begin() { return iterator(items_.get()); }
    iterator end() { return begin() + size(); }
    const_iterator begin() const { return const_iterator(items_.get()); }
    const_iterator end() const { return begin() + size(); }
    const_iterator cbegin() const { return begin(); }
    const_iterator cend() const { return end(); }

    pointer data() { return begin(); }
    const_pointer data() const { return begin(); }
    reference operator[](size_type i) { return begin()[i]; }
    const_reference operator[](size_type i) const { return begin()[i]; }
    reference front() { return (*this)[0]; }
    const_reference front() const { return (*this)[0]; }
    reference back() { return (*this)[size() - 1]; }
    const_reference back() const { return (*this)[size() - 1]; }

  private:
    detail::device_buffer<T> items_;
};

}  // namespace thrust
