// <thrust/host_vector.h> on the CPU backend (device_vector.h lists the
// Thrust subset): thrust::host_vector<T>, a std::vector that is also made
// from, and assigned from, a thrust::device_vector (a copy to the host).
// Its iterators are host iterators: algorithms given them run on the host.
#pragma once

#include <memory>
#include <utility>
#include <vector>

#include "thrust/copy.h"

namespace thrust {

template <class T>
class device_vector;

template <class T, class Alloc = std::allocator<T>>
class host_vector : public std::vector<T, Alloc> {
    using base = std::vector<T, Alloc>;

  public:
    using base::base;
    host_vector() = default;
    host_vector(const base& items) : base(items) {}
    host_vector(base&& items) : base(std::move(items)) {}
    template <class U>
    host_vector(const device_vector<U>& device_items) : base(device_items.size()) {
        thrust::copy(device_items.begin(), device_items.end(), this->begin());
    }

    template <class U>
    host_vector& operator=(const device_vector<U>& device_items) {
        return *this = host_vector(device_items);
    }
};

}  // namespace thrust
