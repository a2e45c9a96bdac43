#include "warnings.h"

#include <cstdio>
#include <mutex>
#include <set>
#include <utility>
#include <vector>

#include "warpdrill/cpu/backend.h"
#include "warpdrill/messages.h"

namespace warpdrill::cpu {
namespace {

class Warnings {
  public:
    void add(const std::string& key, const std::function<std::string()>& message) {
        std::lock_guard lock(mutex_);
        if (told_.insert(key).second) pending_.push_back(message());
    }
    std::vector<std::string> take() {
        std::lock_guard lock(mutex_);
        return std::exchange(pending_, {});
    }
    // A program that never asked (one of its own, under `warpdrill run`) sees them at its end.
    ~Warnings() {
        for (const std::string& message : pending_) {
            std::fprintf(stderr, "%s\n", messages::text("backend.warning", {{"warning", message}}).c_str());
        }
    }

  private:
    std::mutex mutex_;
    std::set<std::string> told_;
    std::vector<std::string> pending_;
};

Warnings& warnings() {
    static Warnings instance;
    return instance;
}

}  // namespace

std::vector<std::string> take_warnings() { return warnings().take(); }

namespace detail {
void warn(const std::string& key, const std::function<std::string()>& message) { warnings().add(key, message); }
}  // namespace detail

}  // namespace warpdrill::cpu
