// <cub/iterator/arg_index_input_iterator.cuh> on the CPU backend, part of the
// subset of CUB that warpdrill's CPU backend provides, written from CUB's
// documented API (not CUB's code): cub::ArgIndexInputIterator, which reads
// each item of another iterator as a cub::KeyValuePair of its offset and its
// value. ArgMin and ArgMax reduce through it.
#pragma once

#include <cstddef>
#include <iterator>

#include "cub/util_type.cuh"

namespace cub {

template <typename InputIteratorT, typename OffsetT = std::ptrdiff_t,
          typename OutputValueT = typename std::iterator_traits<InputIteratorT>::value_type>
class ArgIndexInputIterator {
  public:
    using self_type = ArgIndexInputIterator;
    using difference_type = OffsetT;
    using value_type = KeyValuePair<difference_type, OutputValueT>;
    using pointer = value_type*;
    using reference = value_type;
    using iterator_category = std::random_access_iterator_tag;

    // The item at `offset` from `itr` comes first; its key is `offset`.
    ArgIndexInputIterator(InputIteratorT itr, difference_type offset = 0) : itr(itr), offset(offset) {}

    reference operator*() const { return value_type(offset, itr[offset]); }
    template <typename Distance>
    reference operator[](Distance n) const {
        return *(*this + n);
    }

    self_type& operator++() {
        ++offset;
        return *this;
    }
    self_type operator++(int) {
        self_type before = *this;
        ++offset;
        return before;
    }
    template <typename Distance>
    self_type operator+(Distance n) const {
        return self_type(itr, offset + n);
    }
    template <typename Distance>
    self_type& operator+=(Distance n) {
        offset += n;
        return *this;
    }
    template <typename Distance>
    self_type operator-(Distance n) const {
        return self_type(itr, offset - n);
    }
    template <typename Distance>
    self_type& operator-=(Distance n) {
        offset -= n;
        return *this;
    }
    difference_type operator-(self_type other) const { return offset - other.offset; }

    bool operator==(const self_type& other) const { return itr == other.itr && offset == other.offset; }
    bool operator!=(const self_type& other) const { return !(*this == other); }

    // Makes the current item the first: its key, and the keys after it, count from 0.
    void normalize() {
        itr += offset;
        offset = 0;
    }

  private:
    InputIteratorT itr;
    difference_type offset;
};

}  // namespace cub
