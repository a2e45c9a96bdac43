#include "build.h"

#include "sandbox.h"

namespace warpdrill::runner {

ProcessResult build_target(const std::filesystem::path& build_dir, const std::string& target,
                           std::chrono::seconds limit, const Sandbox* sandbox) {
    return run_in(sandbox, {"cmake", "--build", build_dir.string(), "--target", target}, limit);
}

}  // namespace warpdrill::runner
