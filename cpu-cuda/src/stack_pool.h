// Fiber stacks are expensive to map (a guard page each), so they are kept and
// reused: a process-wide pool, and a lock-free cache in front of it for each
// worker thread, which returns its stacks to the pool when the launch ends.
#pragma once

#include <boost/context/stack_context.hpp>
#include <cstddef>
#include <vector>

namespace warpdrill::cpu::detail {

class StackCache {
  public:
    StackCache() = default;
    ~StackCache();
    StackCache(const StackCache&) = delete;
    StackCache& operator=(const StackCache&) = delete;

    boost::context::stack_context take();
    void give(boost::context::stack_context stack) { free_.push_back(stack); }

  private:
    std::vector<boost::context::stack_context> free_;
};

std::size_t fiber_stack_bytes();

}  // namespace warpdrill::cpu::detail
