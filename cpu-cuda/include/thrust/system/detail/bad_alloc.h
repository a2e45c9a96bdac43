// thrust::system::detail::bad_alloc on the CPU backend (device_vector.h lists
// the Thrust subset): what a failed allocation of device memory throws, a
// std::bad_alloc that says which call failed and why.
#pragma once

#include <new>
#include <string>

namespace thrust::system::detail {

class bad_alloc : public std::bad_alloc {
  public:
    explicit bad_alloc(const std::string& why) : what_("std::bad_alloc: " + why) {}
    const char* what() const noexcept override { return what_.c_str(); }

  private:
    std::string what_;
};

}  // namespace thrust::system::detail
