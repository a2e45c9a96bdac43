#include "stack_pool.h"

#include <boost/context/protected_fixedsize_stack.hpp>
#include <cstdlib>
#include <mutex>

namespace warpdrill::cpu::detail {
namespace {

class StackPool {
  public:
    boost::context::stack_context take() {
        {
            std::lock_guard lock(mutex_);
            if (!free_.empty()) {
                auto stack = free_.back();
                free_.pop_back();
                return stack;
            }
        }
        return maker_.allocate();
    }
    void give(std::vector<boost::context::stack_context>& stacks) {
        std::lock_guard lock(mutex_);
        free_.insert(free_.end(), stacks.begin(), stacks.end());
        stacks.clear();
    }

  private:
    std::mutex mutex_;
    std::vector<boost::context::stack_context> free_;
    // A guard page below every stack turns an overflow into a crash that the
    // backend's signal handler reports, instead of silent corruption.
    boost::context::protected_fixedsize_stack maker_{fiber_stack_bytes()};
};

StackPool& pool() {
    static StackPool* instance = new StackPool;  // lives until exit: fibers may outlive statics
    return *instance;
}

}  // namespace

std::size_t fiber_stack_bytes() {
    static const std::size_t bytes = [] {
        const char* kib = std::getenv("WARPDRILL_FIBER_STACK_KB");
        const long value = kib ? std::strtol(kib, nullptr, 10) : 0;
        return static_cast<std::size_t>(value >= 16 ? value : 64) * 1024;
    }();
    return bytes;
}

StackCache::~StackCache() { pool().give(free_); }

boost::context::stack_context StackCache::take() {
    if (free_.empty()) return pool().take();
    auto stack = free_.back();
    free_.pop_back();
    return stack;
}

}  // namespace warpdrill::cpu::detail
