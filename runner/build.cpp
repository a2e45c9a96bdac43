#include "build.h"

#include "sandbox.h"

namespace warpdrill::runner {

ProcessResult build_target(const std::filesystem::path& build_dir, const std::string& target,
                           std::chrono::seconds limit, const Sandbox* sandbox) {
    const std::vector<std::string> argv{"cmake", "--build", build_dir.string(), "--target", target};
    return sandbox ? sandbox->run(argv, limit, {}) : run_process(argv, limit);
}

}  // namespace warpdrill::runner
