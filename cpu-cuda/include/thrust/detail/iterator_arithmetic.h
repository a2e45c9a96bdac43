// What every random-access iterator of the Thrust subset does alike
// (device_ptr, counting_iterator, constant_iterator, transform_iterator):
// steps, distances and comparisons, all of its place (a pointer, a count,
// an index, another iterator). Internal.
#pragma once

#include <compare>
#include <cstddef>
#include <iterator>

namespace thrust::detail {

// `Derived` keeps its place in a member `place_` and befriends this class;
// it says only what its items are.
template <class Derived>
class iterator_arithmetic {
  public:
    using difference_type = std::ptrdiff_t;
    using iterator_category = std::random_access_iterator_tag;

    Derived& operator++() { return *this += 1; }
    Derived& operator--() { return *this -= 1; }
    Derived operator++(int) {
        Derived before = self();
        ++*this;
        return before;
    }
    Derived operator--(int) {
        Derived before = self();
        --*this;
        return before;
    }
    Derived& operator+=(difference_type n) {
        place(self()) += n;
        return self();
    }
    Derived& operator-=(difference_type n) { return *this += -n; }
    decltype(auto) operator[](difference_type n) const { return *(self() + n); }

    friend Derived operator+(Derived it, difference_type n) { return it += n; }
    friend Derived operator+(difference_type n, Derived it) { return it += n; }
    friend Derived operator-(Derived it, difference_type n) { return it -= n; }
    friend difference_type operator-(const Derived& a, const Derived& b) {
        return static_cast<difference_type>(place(a) - place(b));
    }
    friend bool operator==(const Derived& a, const Derived& b) { return place(a) == place(b); }
    friend auto operator<=>(const Derived& a, const Derived& b) { return place(a) <=> place(b); }

  private:
    // The friend functions above reach `place_` through these: Derived's
    // friendship is this class's, not theirs.
    static auto& place(Derived& it) { return it.place_; }
    static const auto& place(const Derived& it) { return it.place_; }

    Derived& self() { return static_cast<Derived&>(*this); }
    const Derived& self() const { return static_cast<const Derived&>(*this); }
};

}  // namespace thrust::detail
