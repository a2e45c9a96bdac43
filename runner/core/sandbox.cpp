#include "sandbox.h"

#include <pwd.h>
#include <signal.h>
#include <unistd.h>

#include <fmt/core.h>

#include <cstring>
#include <fstream>
#include <stdexcept>

#include "warpdrill/messages.h"

namespace warpdrill::runner {
namespace {

constexpr rlim_t kMiB = rlim_t{1} << 20;

void append(std::vector<std::string>& to, const std::vector<std::string>& more) {
    to.insert(to.end(), more.begin(), more.end());
}

// The limits each process starts with (bwrap, which needs little, too). The
// process limit is not among them: see Sandbox::command.
std::vector<std::pair<int, rlimit>> resource_limits(const SandboxLimits& limits) {
    const auto exactly = [](rlim_t value) { return rlimit{value, value}; };
    const auto cpu = static_cast<rlim_t>(limits.cpu_seconds);
    return {
        // SIGXCPU at the limit; SIGKILL a little later, for a program that catches it.
        {RLIMIT_CPU, rlimit{cpu, cpu + 5}},
        // The memory a process can write to: its heap and private writable
        // mappings. Not its address space (RLIMIT_AS): the CPU backend
        // reserves 256 GiB of that, with no memory behind it.
        {RLIMIT_DATA, exactly(static_cast<rlim_t>(limits.memory_mib) * kMiB)},
        {RLIMIT_NOFILE, exactly(static_cast<rlim_t>(limits.open_files))},
        {RLIMIT_FSIZE, exactly(static_cast<rlim_t>(limits.file_size_mib) * kMiB)},
        {RLIMIT_CORE, exactly(0)},  // a crash writes no core file
    };
}

// Whether this process runs as root of the machine: uid 0 of a user
// namespace that maps it to uid 0 outside, unlike a rootless container's.
// Linux never applies RLIMIT_NPROC to processes of that uid, in whatever user
// namespace they run, so root's sandbox runs as nobody.
bool is_machine_root() {
    if (geteuid() != 0) return false;
    std::ifstream map("/proc/self/uid_map");
    for (unsigned long inside, outside, count; map >> inside >> outside >> count;)
        if (inside == 0) return outside == 0;
    return false;
}

std::pair<uid_t, gid_t> nobody() {
    static const std::pair<uid_t, gid_t> who = [] {
        const passwd* entry = getpwnam("nobody");
        return entry ? std::pair{entry->pw_uid, entry->pw_gid} : std::pair<uid_t, gid_t>{65534, 65534};
    }();
    return who;
}

// Makes a folder and everything in it `who`'s.
void give_to(const fs::path& dir, std::pair<uid_t, gid_t> who) {
    const auto chown_one = [&](const fs::path& path) {
        if (lchown(path.c_str(), who.first, who.second) != 0)
            throw std::runtime_error(messages::text(
                "sandbox.cannot_give", {{"path", path.string()}, {"error", std::strerror(errno)}}));
    };
    chown_one(dir);
    for (const auto& entry : fs::recursive_directory_iterator(dir)) chown_one(entry.path());
}

// The system, read-only: what the compiler, cmake and the checks run on. On a
// merged-/usr system /bin, /lib and the like are links into /usr, here too.
void add_system(std::vector<std::string>& options) {
    for (const fs::path dir :
         {"/usr", "/etc", "/opt", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"}) {
        std::error_code error;
        if (fs::is_symlink(dir, error))
            append(options, {"--symlink", fs::read_symlink(dir).string(), dir.string()});
        else if (fs::is_directory(dir, error))
            append(options, {"--ro-bind", dir.string(), dir.string()});
    }
}

// On the GPU backend the checks need the GPUs: NVIDIA's device files, as they are.
void add_gpu_devices(std::vector<std::string>& options) {
    std::error_code error;
    for (const auto& entry : fs::directory_iterator("/dev", error)) {
        if (entry.path().filename().string().starts_with("nvidia"))
            append(options, {"--dev-bind", entry.path().string(), entry.path().string()});
    }
}

// The entries of this process's environment that a program in the sandbox
// gets: no secret of the grader's (a token, a password) can reach a report.
std::vector<std::string> kept_environment() {
    std::vector<std::string> kept;
    for (char** entry = environ; *entry; ++entry) {
        const std::string text = *entry;
        const std::string name = text.substr(0, text.find('='));
        if (name == "PATH" || name == "LANG" || name == "LC_ALL" || name.starts_with("WARPDRILL_"))
            kept.push_back(text);
    }
    return kept;
}

// bwrap's options that set "NAME=value" entries.
void add_environment(std::vector<std::string>& options, const std::vector<std::string>& entries) {
    for (const std::string& entry : entries) {
        const std::size_t equals = entry.find('=');
        append(options, {"--setenv", entry.substr(0, equals),
                         equals == std::string::npos ? "" : entry.substr(equals + 1)});
    }
}

}  // namespace

Sandbox::Sandbox(const SandboxView& view, const SandboxLimits& limits) : limits_(limits) {
    child_limits_.resource_limits = resource_limits(limits);
    if (is_machine_root()) child_limits_.user_and_group = nobody();
    add_system(mounts_);
    append(mounts_, {"--proc", "/proc", "--dev", "/dev"});
    add_gpu_devices(mounts_);
    // The folders in memory hold at most one file of the largest size allowed;
    // the rest of /dev, and the root bwrap makes, are read-only.
    const std::string tmpfs_size = std::to_string(limits.file_size_mib * kMiB);
    append(mounts_, {"--size", tmpfs_size, "--tmpfs", "/tmp", "--size", tmpfs_size, "--tmpfs", "/dev/shm",
                     "--remount-ro", "/dev"});
    for (const fs::path& path : view.read_only)
        if (fs::exists(path)) append(mounts_, {"--ro-bind", path.string(), path.string()});
    DiskLimit disk{{}, static_cast<std::uintmax_t>(limits.disk_mib) * kMiB};
    for (const fs::path& path : view.writable) {  // after the read-only ones, which may hold them
        if (!fs::exists(path)) continue;
        if (child_limits_.user_and_group) give_to(path, *child_limits_.user_and_group);
        append(mounts_, {"--bind", path.string(), path.string()});
        disk.folders.push_back(path);
    }
    child_limits_.disk = std::move(disk);
    append(mounts_,
           {"--remount-ro", "/", "--chdir", view.working_dir.empty() ? "/" : view.working_dir.string()});
}

std::vector<std::string> Sandbox::command(const std::vector<std::string>& argv,
                                          const std::vector<std::string>& environment) const {
    // A user namespace of its own (the process limit counts in it), in which no other can be made.
    std::vector<std::string> line{
        "bwrap", "--unshare-all", "--unshare-user", "--disable-userns", "--die-with-parent", "--new-session"};
    append(line, mounts_);
    append(line, {"--clearenv", "--setenv", "HOME", "/tmp"});
    add_environment(line, kept_environment());
    add_environment(line, environment);
    // The process limit is set inside, once bwrap has made the sandbox's user
    // namespace: RLIMIT_NPROC then counts the processes and threads of that
    // namespace alone (Linux 5.14 and later). Set before, it would also count
    // every process of the same user outside, other sandboxes' too.
    append(line, {"--", "prlimit", fmt::format("--nproc={0}:{0}", limits_.processes), "--"});
    append(line, argv);
    return line;
}

ProcessResult Sandbox::run(const std::vector<std::string>& argv, std::chrono::seconds limit,
                           const std::vector<std::string>& environment) const {
    ProcessResult result = run_process(command(argv, environment), limit, {}, &child_limits_);
    // bwrap's own complaints are the grader's problem, not the submission's.
    if (result.exit_code == 1 && result.output.starts_with("bwrap: ")) {
        const std::string error = result.output.substr(0, result.output.find('\n'));
        throw std::runtime_error(child_limits_.user_and_group
                                     ? messages::text("sandbox.failed_as_root", {{"error", error}})
                                     : messages::text("sandbox.failed", {{"error", error}}));
    }
    // bwrap exits with 128 + the signal that ended its program.
    if (result.exit_code > 128 && result.exit_code < 128 + NSIG) {
        result.signal = result.exit_code - 128;
        result.exit_code = -1;
    }
    return result;
}

std::optional<LimitReached> Sandbox::limit_reached(const ProcessResult& run) const {
    using Kind = LimitReached::Kind;
    using messages::text;
    const auto said = [&](const char* words) { return run.output.find(words) != std::string::npos; };
    // A signal tells: the program's own, or that of one it ran, in strsignal's words.
    if (run.timed_out)
        return LimitReached{
            Kind::time, text("sandbox.limit.wall_time", {{"seconds", fmt::format("{:.0f}", run.seconds)}})};
    if (run.signal == SIGXCPU || said("CPU time limit exceeded"))
        return LimitReached{Kind::time, text("sandbox.limit.cpu_time", {{"seconds", limits_.cpu_seconds}})};
    if (run.signal == SIGXFSZ || said("File size limit exceeded"))
        return LimitReached{Kind::file_size,
                            text("sandbox.limit.file_size", {{"mib", limits_.file_size_mib}})};
    if (run.over_disk_limit)
        return LimitReached{Kind::disk, text("sandbox.limit.disk", {{"mib", limits_.disk_mib}})};
    if (run.exit_code == 0) return std::nullopt;
    // The other limits fail a call with an error code, which only the program's own words tell.
    if (said("std::bad_alloc") || said("Cannot allocate memory") || said("out of memory"))
        return LimitReached{Kind::memory, text("sandbox.limit.memory", {{"mib", limits_.memory_mib}})};
    if (said("Too many open files"))
        return LimitReached{Kind::open_files,
                            text("sandbox.limit.open_files", {{"count", limits_.open_files}})};
    if (said("Resource temporarily unavailable"))
        return LimitReached{Kind::processes, text("sandbox.limit.processes", {{"count", limits_.processes}})};
    return std::nullopt;
}

std::string Sandbox::check_available(const SandboxLimits& limits) {
    const ProcessResult version = run_process({"bwrap", "--version"}, std::chrono::seconds(30));
    if (version.exit_code == 127)  // run_process's "cannot run"
        throw std::runtime_error(messages::text("sandbox.no_bwrap"));
    const Sandbox probe({}, limits);
    const ProcessResult made =
        run_process(probe.command({"true"}, {}), std::chrono::seconds(30), {}, &probe.child_limits_);
    if (made.exit_code != 0)
        throw std::runtime_error(messages::text("sandbox.unavailable",
                                                {{"error", made.output.substr(0, made.output.find('\n'))}}));
    return version.output.substr(0, version.output.find('\n'));
}

ProcessResult run_in(const Sandbox* sandbox, const std::vector<std::string>& argv, std::chrono::seconds limit,
                     const std::vector<std::string>& environment) {
    return sandbox ? sandbox->run(argv, limit, environment) : run_process(argv, limit, environment);
}

}  // namespace warpdrill::runner
