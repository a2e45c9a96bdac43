// cudacc: nvcc for the CPU backend. Two ways to call it:
//
//   cudacc [nvcc options] FILES... [-o OUT]
//       compiles .cu files as nvcc would (with the backend's checks) and
//       .cpp files as host code, and links them with the backend: a CUDA
//       program's own build, one command (`warpdrill cc` runs this);
//   cudacc --launcher [--pch DIR] [--branches] COMPILER ARGS...
//       CMake's compiler launcher: a compile of a .cu file goes through the
//       front end, anything else runs as it is. --pch keeps cuda_runtime.h
//       precompiled in DIR (below); --branches has each condition of the
//       program's own files counted, for `warpdrill profile` (rewrite.h).
//
// A .cu file is preprocessed first, with __global__, __host__, __device__,
// __constant__ and __shared__ as markers (rewrite.h), then checked for device
// code that calls host code (execution_spaces.h), then rewritten, then compiled.
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <iterator>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "cudacc_config.h"
#include "cuda_arch.h"
#include "execution_spaces.h"
#include "rewrite.h"
#include "warpdrill/messages.h"

namespace fs = std::filesystem;
using Args = std::vector<std::string>;
namespace messages = warpdrill::messages;

namespace {

constexpr int kDefaultArch = 900;  // the H100's compute capability, as __CUDA_ARCH__ spells it

// Runs `command`; `quiet` sends its messages nowhere.
int run(const Args& command, bool quiet = false) {
    std::vector<char*> argv;
    for (const std::string& arg : command) argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);
    const pid_t child = fork();
    if (child < 0) return 127;
    if (child == 0) {
        if (quiet) {
            const int nowhere = open("/dev/null", O_WRONLY);
            dup2(nowhere, 1);
            dup2(nowhere, 2);
        }
        execvp(argv[0], argv.data());
        std::perror(argv[0]);
        _exit(127);
    }
    int status = 0;
    while (waitpid(child, &status, 0) < 0) {
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

bool ends_with_any(const std::string& path, std::initializer_list<std::string_view> suffixes) {
    for (std::string_view suffix : suffixes) {
        if (path.ends_with(suffix)) return true;
    }
    return false;
}
bool is_cuda_source(const std::string& path) { return ends_with_any(path, {".cu"}); }

// What the preprocessor defines for a .cu file, beyond the build's own flags,
// and <cuda_runtime.h>, which nvcc includes in every .cu file.
Args cuda_definitions() {
    return {"-D__global__=__cudacc_global__",
            "-D__host__=__cudacc_host__",
            "-D__device__=__cudacc_device__",
            "-D__constant__=__cudacc_constant__",
            "-D__shared__=__cudacc_shared__",
            "-D__cudacc_built_in_names__=1",
            "-D__CUDACC__=1",
            "-D__NVCC__=1",
            "-include",
            "cuda_runtime.h"};
}

std::string read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The headers of NVIDIA's CUDA toolkit, by the start of their names: a
// program may include one that the CPU backend has no copy of.
bool is_toolkit_header(std::string_view header) {
    for (std::string_view start : {"thrust/",    "cub/",     "cuda/",    "cooperative_groups",
                                   "cuda_",      "cuda.h",   "cublas",   "cufft",
                                   "curand",     "cusparse", "cusolver", "cudnn",
                                   "nvrtc",      "nvml",     "nccl",     "nvtx3/",
                                   "nvToolsExt", "npp",      "mma.h",    "sm_",
                                   "crt/",       "nv/"}) {
        if (header.starts_with(start)) return true;
    }
    return false;
}

// The toolkit's headers that GCC's messages in `errors` say it could not find
// ("file:line:col: fatal error: thrust/reduce.h: No such file or directory").
std::vector<std::string> missing_toolkit_headers(const std::string& errors) {
    static const std::regex missing(R"(fatal error: ([^:\s]+): No such file or directory)");
    static const std::regex colour("\x1b\\[[0-9;]*[mK]");
    const std::string plain = std::regex_replace(errors, colour, "");
    std::vector<std::string> headers;
    for (std::sregex_iterator match(plain.begin(), plain.end(), missing), end; match != end; ++match) {
        if (is_toolkit_header((*match)[1].str())) headers.push_back((*match)[1].str());
    }
    return headers;
}

// Runs the preprocessor's `command` with its messages passed on as they are
// (coloured where a terminal shows them), and then, for each header of the
// toolkit it did not find, a line saying that the CPU backend lacks it, where
// GCC's "No such file" would leave a learner wondering why nvcc finds it.
int preprocess_naming_missing_headers(Args command) {
    const fs::path errors_file =
        fs::temp_directory_path() / ("cudacc-" + std::to_string(getpid()) + ".errors");
    if (isatty(2)) command.insert(command.begin() + 1, "-fdiagnostics-color=always");
    const int saved_stderr = dup(2);
    const int errors_fd = open(errors_file.c_str(), O_CREAT | O_TRUNC | O_WRONLY, 0600);
    dup2(errors_fd, 2);
    close(errors_fd);
    const int status = run(command);
    dup2(saved_stderr, 2);
    close(saved_stderr);
    const std::string errors = read_file(errors_file);
    fs::remove(errors_file);
    std::cerr << errors;
    for (const std::string& header : missing_toolkit_headers(errors))
        std::cerr << "cudacc: " << messages::text("cudacc.toolkit_header_missing", {{"header", header}})
                  << "\n";
    return status;
}

// The files a depfile names, in make's syntax as GCC writes it: "target: a.cu
// b.h \" and more lines, a space in a path written "\ ", a '#' "\#", a '$'
// "$$" (a course in "/home/Ada Lovelace/" has spaces in every path).
std::vector<fs::path> depfile_inputs(const std::string& depfile) {
    const std::string text = read_file(depfile);
    std::vector<fs::path> inputs;
    std::string path;
    auto end_path = [&] {
        if (!path.empty()) inputs.push_back(fs::absolute(path).lexically_normal());
        path.clear();
    };
    const std::size_t colon = text.find(": ");
    for (std::size_t i = colon == std::string::npos ? 0 : colon + 2; i < text.size(); ++i) {
        const char c = text[i];
        const char next = i + 1 < text.size() ? text[i + 1] : '\0';
        if (c == '\\' && (next == ' ' || next == '#')) {
            path += next;
            ++i;
        } else if (c == '$' && next == '$') {
            path += '$';
            ++i;
        } else if (c == '\\' && next == '\n') {
            ++i;  // the line goes on
        } else if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
            end_path();
        } else {
            path += c;
        }
    }
    end_path();
    return inputs;
}

// `path` as GCC spells it in a depfile (the escapes that depfile_inputs reads).
std::string depfile_spelling(const std::string& path) {
    std::string spelled;
    for (const char c : path) {
        if (c == ' ' || c == '#') spelled += '\\';
        if (c == '$') spelled += '$';
        spelled += c;
    }
    return spelled;
}

// Files whose directives are read as written: the system's, the backend's
// own headers and the course's, which are written for the CPU backend too.
bool is_library_file(const fs::path& file) {
    const std::string path = file.string();
    return path.starts_with("/usr/") || path.find("/cpu-cuda/include/") != std::string::npos ||
           path.find("/common/include/") != std::string::npos;
}

// Whether any of the program's own files names __CUDA_ARCH__.
bool names_cuda_arch(const std::vector<fs::path>& inputs) {
    for (const fs::path& input : inputs) {
        if (!is_library_file(input) && read_file(input).find("__CUDA_ARCH__") != std::string::npos)
            return true;
    }
    return false;
}

// The preprocessor's command for a compile: its flags and `source`, to `output`.
Args preprocessor(const Args& compile, const std::string& source, const std::string& output) {
    Args preprocess;
    for (std::size_t i = 0; i < compile.size(); ++i) {
        if (compile[i] == "-c") continue;
        if (compile[i] == "-o") {
            ++i;
            continue;
        }
        preprocess.push_back(compile[i] == source ? fs::absolute(source).string() : compile[i]);
        if (i == 0) {
            preprocess.push_back("-E");
            for (std::string& definition : cuda_definitions()) preprocess.push_back(std::move(definition));
        }
    }
    preprocess.insert(preprocess.end(), {"-o", output});
    return preprocess;
}

// Preprocesses again with the program's own files read through a mirror
// under `mirror` (the same absolute paths below it), in which their
// directives answer __CUDA_ARCH__ (cuda_arch.h); the depfile then names the
// files themselves again.
int preprocess_through_mirror(Args preprocess, const std::vector<fs::path>& inputs, const fs::path& mirror,
                              const std::string& depfile, int arch) {
    // A file the mirrored ones include and the first pass did not see (under
    // a directive answered otherwise now) is found beside them, after all else.
    Args search;
    for (const fs::path& input : inputs) {
        if (is_library_file(input)) continue;
        const fs::path copy = mirror / input.relative_path();
        fs::create_directories(copy.parent_path());
        std::ofstream(copy, std::ios::binary) << "#line 1 \"" << input.string() << "\"\n"
                                              << cudacc::answer_cuda_arch(read_file(input), arch);
        search.insert(search.end(), {"-idirafter", input.parent_path().string()});
    }
    Args mirrored;
    for (std::size_t i = 0; i < preprocess.size(); ++i) {
        std::string arg = preprocess[i];
        if (arg == "-I" && i + 1 < preprocess.size()) arg += preprocess[++i];
        if (arg.starts_with("-I")) {
            mirrored.push_back("-I" + (mirror / fs::absolute(arg.substr(2)).relative_path()).string());
        } else if (fs::path(arg).is_absolute() && fs::exists(mirror / fs::path(arg).relative_path()) &&
                   !fs::is_directory(arg)) {
            arg = (mirror / fs::path(arg).relative_path()).string();  // the source
        }
        mirrored.push_back(arg);
    }
    mirrored.insert(mirrored.end(), search.begin(), search.end());
    if (const int status = run(mirrored); status != 0) return status;
    std::string deps = read_file(depfile);
    const std::string mirror_prefix = depfile_spelling(mirror.string());
    for (std::size_t at; (at = deps.find(mirror_prefix)) != std::string::npos;)
        deps.erase(at, mirror_prefix.size());
    std::ofstream(depfile, std::ios::binary) << deps;
    return 0;
}

// ---- a precompiled cuda_runtime.h (--pch) ------------------------------------
// nvcc includes cuda_runtime.h in every .cu file, and the C++ library headers
// it brings are most of a lesson's compile: 1.45 s, 0.75 s with the header
// precompiled (results/README.md). With --pch DIR the launcher compiles that
// header once for each set of flags, into DIR, and the preprocessor then
// writes a pragma (-fpch-preprocess) where the header's text would be, which
// the compiler answers by loading it. The header's closure holds no
// __device__, __shared__ or <<<>>> for the rewrite to change. Include
// directories are left out of the key: they name where the learner's files
// are, and no lesson folder holds a header that cuda_runtime.h includes.

struct PrecompiledRuntime {
    fs::path header;   // the stand-in that -include names: its .gch beside it
    fs::path depfile;  // the files the precompiled header was made from
    fs::path gch() const { return header.string() + ".gch"; }
};

// The preprocessor's flags that shape the header: all but -E, the output,
// the dependency flags, the source and the -include of cuda_runtime.h.
Args header_flags(const Args& preprocess, const std::string& source) {
    Args flags;
    for (std::size_t i = 0; i < preprocess.size(); ++i) {
        const std::string& arg = preprocess[i];
        const bool with_value = arg == "-o" || arg == "-MF" || arg == "-MT" || arg == "-MQ";
        if (with_value ||
            (arg == "-include" && i + 1 < preprocess.size() && preprocess[i + 1] == "cuda_runtime.h")) {
            ++i;
        } else if (arg != "-E" && arg != "-MD" && arg != "-MMD" && arg != "-MP" && arg != source) {
            flags.push_back(arg);
        }
    }
    return flags;
}

// Which precompiled header a compile with these flags can read: the flags but
// the include directories, and the compiler's date (a new compiler cannot
// read an old header).
std::string header_key(const Args& flags) {
    std::string key;
    for (std::size_t i = 0; i < flags.size(); ++i) {
        if (flags[i] == "-I")
            ++i;
        else if (!flags[i].starts_with("-I"))
            key += flags[i] + '\n';
    }
    struct stat compiler {};
    if (stat(flags[0].c_str(), &compiler) == 0) key += std::to_string(compiler.st_mtime);
    return key;
}

// Whether `made` is newer than every file its depfile names.
bool up_to_date(const fs::path& made, const fs::path& depfile) {
    std::error_code error;
    const auto made_at = fs::last_write_time(made, error);
    if (error || !fs::exists(depfile)) return false;
    for (const fs::path& input : depfile_inputs(depfile.string())) {
        const auto input_at = fs::last_write_time(input, error);
        if (error || input_at > made_at) return false;
    }
    return true;
}

// Compiles the header, under names of its own that are then renamed, so that
// no compile reads half of it.
bool make_precompiled_runtime(Args flags, const PrecompiledRuntime& pch) {
    std::ofstream(pch.header) << "#include <cuda_runtime.h>\n";
    const std::string own = "." + std::to_string(getpid());
    flags.insert(flags.end(), {"-c", "-x", "c++-header", pch.header.string(), "-o", pch.gch().string() + own,
                               "-MD", "-MF", pch.depfile.string() + own, "-MT", pch.gch().string()});
    std::error_code error;
    if (run(flags, true) != 0) {
        fs::remove(pch.gch().string() + own, error);
        fs::remove(pch.depfile.string() + own, error);
        return false;
    }
    fs::rename(pch.gch().string() + own, pch.gch(), error);
    if (!error) fs::rename(pch.depfile.string() + own, pch.depfile, error);
    return !error;
}

// The precompiled cuda_runtime.h for this compile, made first if it is
// missing or older than a header it was made from. Nothing when it cannot be
// made (the compile then reads the header itself, and says what is wrong),
// or while another compile makes it: this one does not wait (a lock older
// than a minute was left by a compile that was stopped).
std::optional<PrecompiledRuntime> precompiled_runtime(const Args& preprocess, const std::string& source,
                                                      const fs::path& root) {
    const Args flags = header_flags(preprocess, source);
    std::ostringstream name;
    name << std::hex << std::hash<std::string>{}(header_key(flags));
    const fs::path folder = root / name.str();
    const PrecompiledRuntime pch{folder / "cuda_runtime.h", folder / "cuda_runtime.h.d"};
    if (up_to_date(pch.gch(), pch.depfile)) return pch;

    std::error_code error;
    fs::create_directories(folder, error);
    const fs::path lock = folder / "making";
    if (fs::exists(lock, error) &&
        fs::file_time_type::clock::now() - fs::last_write_time(lock, error) > std::chrono::minutes(1)) {
        fs::remove(lock, error);
    }
    const int lock_fd = open(lock.c_str(), O_CREAT | O_EXCL | O_WRONLY, 0644);
    if (lock_fd < 0) return std::nullopt;
    close(lock_fd);
    const bool made = make_precompiled_runtime(flags, pch);
    fs::remove(lock, error);
    return made ? std::optional(pch) : std::nullopt;
}

// The preprocessor names the precompiled header instead of reading it.
void use_precompiled(Args& preprocess, const PrecompiledRuntime& pch) {
    for (std::size_t i = 0; i + 1 < preprocess.size(); ++i) {
        if (preprocess[i] == "-include" && preprocess[i + 1] == "cuda_runtime.h")
            preprocess[i + 1] = pch.header.string();
    }
    preprocess.insert(std::ranges::find(preprocess, "-E") + 1, "-fpch-preprocess");
}

// A build's depfile then names the precompiled header's own files too, so
// that a change to one of them compiles the program again.
void add_precompiled_inputs(const std::string& depfile, const PrecompiledRuntime& pch) {
    const std::string inputs = read_file(pch.depfile);
    const std::size_t colon = inputs.find(": ");
    if (colon == std::string::npos) return;
    std::string deps = read_file(depfile);
    while (!deps.empty() && (deps.back() == '\n' || deps.back() == ' ')) deps.pop_back();
    std::ofstream(depfile, std::ios::binary) << deps << " \\\n " << inputs.substr(colon + 2);
}

// The depfile a compile writes (-MF), or "".
std::string depfile_of(const Args& compile) {
    const auto flag = std::ranges::find(compile, "-MF");
    return flag != compile.end() && flag + 1 != compile.end() ? *(flag + 1) : "";
}

// The column where `pattern` (a regular expression) first matches line
// `line` of `file`, as the source spells it (the preprocessed line may
// differ: its macros are expanded); 0 when the file cannot say.
int source_column(const std::string& file, int line, const std::string& pattern) {
    std::ifstream in(file);
    std::string text;
    for (int n = 0; n < line && std::getline(in, text); ++n) {
    }
    std::smatch found;
    if (!in || !std::regex_search(text, found, std::regex(pattern))) return 0;
    return static_cast<int>(found.position(0)) + 1;
}

// Says, as the compiler says an error (file:line:column: error: ...), each
// call from device code to a host function and from host code to a
// __device__ function, and each __shared__ variable of a host function;
// whether there was one.
bool report_execution_space_errors(const std::string& preprocessed) {
    const cudacc::ExecutionSpaceErrors errors = cudacc::execution_space_errors(preprocessed);
    // At the call of a function, or the name of a variable.
    const auto report = [](const std::string& file, int line, const std::string& pattern,
                           const std::string& error) {
        const int column = source_column(file, line, pattern);
        std::cerr << file << ':' << line << ':' << (column > 0 ? std::to_string(column) + ":" : "")
                  << " error: " << error << '\n';
    };
    for (const cudacc::CallAcrossSpaces& call : errors.calls) {
        report(call.file, call.line, "\\b" + call.callee + "\\s*\\(",
               call.caller_space == "__host__"
                   ? messages::text("cudacc.device_call_from_host",
                                    {{"callee", call.callee}, {"caller", call.caller}})
                   : messages::text(
                         "cudacc.host_call_from_device",
                         {{"callee", call.callee}, {"space", call.caller_space}, {"caller", call.caller}}));
    }
    for (const cudacc::SharedInHost& shared : errors.shared) {
        report(shared.file, shared.line, "\\b" + shared.variable + "\\b",
               messages::text("cudacc.shared_in_host",
                              {{"variable", shared.variable}, {"function", shared.function}}));
    }
    return !errors.calls.empty() || !errors.shared.empty();
}

// Compiles one .cu file: `compile` is the compiler's command for it (with
// -c, the source and -o OBJECT among its arguments). Returns the exit code.
int compile_cuda(Args compile, const std::string& source, const std::string& object, int arch,
                 const fs::path& pch_root = {}, cudacc::RewriteOptions rewrite_options = {}) {
    const std::string preprocessed = object + ".ii";
    const std::string rewritten = object + ".cudacc.ii";
    std::string depfile = depfile_of(compile);
    const bool own_depfile = depfile.empty();
    if (own_depfile) {
        depfile = object + ".cudacc.d";
        compile.insert(compile.begin() + 1, {"-MD", "-MF", depfile});
    }

    // 1. The preprocessor, with the dependency flags (a build's depfile comes from here).
    Args preprocess = preprocessor(compile, source, preprocessed);
    std::optional<PrecompiledRuntime> pch;
    if (!pch_root.empty()) pch = precompiled_runtime(preprocess, fs::absolute(source).string(), pch_root);
    if (pch) use_precompiled(preprocess, *pch);
    if (const int status = preprocess_naming_missing_headers(preprocess); status != 0) return status;
    const std::vector<fs::path> inputs = depfile_inputs(depfile);
    const bool names_arch = names_cuda_arch(inputs);
    if (names_arch) {
        const fs::path mirror = object + ".cuda-arch";
        const int status = preprocess_through_mirror(preprocess, inputs, mirror, depfile, arch);
        fs::remove_all(mirror);
        if (status != 0) return status;
    }
    if (pch) add_precompiled_inputs(depfile, *pch);
    if (own_depfile) fs::remove(depfile);
    const std::string text = read_file(preprocessed);
    fs::remove(preprocessed);

    // 2. Device code that calls host code, host code that calls device code
    // or declares __shared__ memory, refused as nvcc refuses them. A file
    // that names __CUDA_ARCH__ may keep such calls on paths that one of
    // nvcc's two compiles never reads: there nvcc alone can tell.
    if (!names_arch && report_execution_space_errors(text)) return 1;

    // 3. The rewrite.
    std::ofstream(rewritten, std::ios::binary) << cudacc::rewrite(text, rewrite_options);

    // 4. The compiler, on the rewritten text, without the preprocessor's flags.
    Args build;
    for (std::size_t i = 0; i < compile.size(); ++i) {
        const std::string& arg = compile[i];
        if (arg == "-MD" || arg == "-MMD" || arg == "-MP") continue;
        if (arg == "-MF" || arg == "-MT" || arg == "-MQ") {
            ++i;
            continue;
        }
        if (arg == source) {
            build.insert(build.end(), {"-x", "c++-cpp-output", rewritten});
        } else if (arg == "-xc++" || arg == "-xcu") {
            continue;
        } else if (arg == "-x" && i + 1 < compile.size()) {
            ++i;
        } else {
            build.push_back(arg);
        }
    }
    const int status = run(build);
    if (status == 0) fs::remove(rewritten);
    return status;
}

// ---- cudacc --launcher [--pch DIR] [--branches] COMPILER ARGS... -----------------
int launcher(Args compile) {
    fs::path pch_root;
    cudacc::RewriteOptions rewrite_options;
    while (!compile.empty()) {
        if (compile.size() > 2 && compile[0] == "--pch") {
            pch_root = fs::absolute(compile[1]);
            compile.erase(compile.begin(), compile.begin() + 2);
        } else if (compile[0] == "--branches") {
            rewrite_options.count_branches = true;
            compile.erase(compile.begin());
        } else {
            break;
        }
    }
    std::string source, object;
    for (std::size_t i = 1; i + 1 < compile.size(); ++i) {
        if (compile[i] == "-c") source = compile[i + 1];
        if (compile[i] == "-o") object = compile[i + 1];
    }
    if (!is_cuda_source(source) || object.empty()) return run(compile);
    return compile_cuda(compile, source, object, kDefaultArch, pch_root, rewrite_options);
}

// ---- cudacc [nvcc options] FILES... ---------------------------------------------
struct Options {
    int arch = kDefaultArch;  // __CUDA_ARCH__ (-arch=sm_80: 800)
    Args compile;             // flags for every compile
    Args link;                // flags for the link
    std::vector<std::string> inputs;
    std::string output;
    bool compile_only = false;
    bool device_debug = false;  // -G: kernels keep their locals' debug information too
};

// The toolkit's libraries whose part the backend carries in itself: a
// program's -lcublas links nothing more.
bool is_in_the_backend(std::string_view library) {
    for (std::string_view name :
         {"cudart", "cudart_static", "cudadevrt", "cublas", "cublas_static", "cublasLt", "cublasLt_static"}) {
        if (library == name) return true;
    }
    return false;
}

[[noreturn]] void usage_error(const std::string& message) {
    std::cerr << "cudacc: " << message << "\n";
    std::exit(2);
}

// nvcc's options that the CPU backend has a meaning for, or that change
// nothing on the CPU (-lineinfo: kernels always keep their line tables; -G
// gives them full debug information, as it gives device code on the GPU).
Options parse(const Args& args) {
    Options options;
    std::string standard = "c++20";
    auto value = [&](std::size_t& i, std::string_view name) -> std::string {
        const std::string& arg = args[i];
        if (arg.size() > name.size())
            return arg.substr(arg[name.size()] == '=' ? name.size() + 1 : name.size());
        if (i + 1 >= args.size()) usage_error(messages::text("cudacc.needs_value", {{"option", name}}));
        return args[++i];
    };
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& arg = args[i];
        if (arg == "-o") {
            options.output = value(i, "-o");
        } else if (arg == "-c" || arg == "--compile" || arg == "-dc") {
            options.compile_only = true;
        } else if (arg == "-G") {
            options.device_debug = true;
        } else if (arg == "-lineinfo" || arg == "--expt-relaxed-constexpr" ||
                   arg == "--expt-extended-lambda" || arg == "--extended-lambda" || arg == "-rdc=true" ||
                   arg == "-use_fast_math" || arg == "--use_fast_math") {
            continue;
        } else if (arg.starts_with("-I") || arg.starts_with("-D") || arg.starts_with("-U")) {
            const std::string flag = arg.substr(0, 2);
            options.compile.push_back(flag + value(i, flag));
        } else if (arg.starts_with("-L") || arg.starts_with("-l")) {
            const std::string flag = arg.substr(0, 2);
            const std::string library = value(i, flag);
            if (flag == "-l" && is_in_the_backend(library)) continue;
            options.link.push_back(flag + library);
        } else if (arg.starts_with("-std")) {
            standard = value(i, "-std");
            if (standard < "c++20") standard = "c++20";  // the backend's headers need C++20
        } else if (arg.starts_with("--std")) {
            standard = value(i, "--std");
            if (standard < "c++20") standard = "c++20";
        } else if (arg == "-O0" || arg == "-O1" || arg == "-O2" || arg == "-O3" || arg == "-g" ||
                   arg == "-w") {
            options.compile.push_back(arg);
        } else if (arg.starts_with("-arch") || arg.starts_with("--gpu-architecture") ||
                   arg.starts_with("-code") || arg.starts_with("-gencode")) {
            // sm_80, compute_90, arch=compute_90,code=sm_90: the first number is the GPU's.
            const std::string target = value(i, arg.starts_with("-arch")   ? "-arch"
                                                : arg.starts_with("-code") ? "-code"
                                                : arg.starts_with("-gen")  ? "-gencode"
                                                                           : "--gpu-architecture");
            const std::size_t digits = target.find_first_of("0123456789");
            if (digits != std::string::npos) options.arch = std::stoi(target.substr(digits)) * 10;
        } else if (arg == "-Xcompiler") {
            std::stringstream flags(value(i, "-Xcompiler"));
            for (std::string flag; std::getline(flags, flag, ',');) options.compile.push_back(flag);
        } else if (arg.starts_with("-")) {
            usage_error(messages::text("cudacc.unknown_option", {{"option", arg}}));
        } else {
            options.inputs.push_back(arg);
        }
    }
    options.compile.push_back("-std=" + standard);
    if (options.inputs.empty()) usage_error(messages::text("cudacc.no_inputs"));
    return options;
}

Args compiler_command(const Options& options) {
    Args command = {CUDACC_CXX};
    command.insert(command.end(), options.compile.begin(), options.compile.end());
    for (std::string_view flag : {CUDACC_COMPILE_FLAGS}) command.emplace_back(flag);
    return command;
}

int driver(const Args& args) {
    Options options = parse(args);
    if (options.compile_only && options.inputs.size() > 1 && !options.output.empty()) {
        usage_error(messages::text("cudacc.one_file_with_c"));
    }
    Args objects;
    std::vector<std::string> temporaries;
    int status = 0;
    for (const std::string& input : options.inputs) {
        if (!ends_with_any(input, {".cu", ".cpp", ".cc", ".cxx", ".c"})) {
            objects.push_back(input);  // an object file or a library
            continue;
        }
        std::string object = options.compile_only && !options.output.empty()
                                 ? options.output
                                 : fs::path(input).stem().string() + ".o";
        if (!options.compile_only) {
            object = (fs::temp_directory_path() /
                      ("cudacc-" + std::to_string(getpid()) + "-" + std::to_string(objects.size()) + ".o"))
                         .string();
            temporaries.push_back(object);
        }
        Args compile = compiler_command(options);
        if (is_cuda_source(input)) {
            for (std::string_view flag : {CUDACC_KERNEL_FLAGS}) compile.emplace_back(flag);
            if (options.device_debug) compile.emplace_back("-g");  // after the kernel flags' -g1
            compile.insert(compile.end(), {"-x", "c++"});
        }
        compile.insert(compile.end(), {"-c", input, "-o", object});
        status = is_cuda_source(input) ? compile_cuda(compile, input, object, options.arch) : run(compile);
        if (status != 0) break;
        objects.push_back(object);
    }
    if (status == 0 && !options.compile_only) {
        Args link = {CUDACC_CXX};
        link.insert(link.end(), objects.begin(), objects.end());
        link.insert(link.end(), {"-o", options.output.empty() ? "a.out" : options.output});
        link.insert(link.end(), options.link.begin(), options.link.end());
        for (std::string_view flag : {CUDACC_LINK_FLAGS}) link.emplace_back(flag);
        status = run(link);
    }
    for (const std::string& temporary : temporaries) fs::remove(temporary);
    return status;
}

}  // namespace

int main(int argc, char** argv) {
    const Args args(argv + 1, argv + argc);
    if (!args.empty() && args[0] == "--launcher") return launcher(Args(args.begin() + 1, args.end()));
    if (args.empty() || args[0] == "--help" || args[0] == "-h") {
        std::cout << "cudacc: nvcc for warpdrill's CPU backend\n"
                     "  cudacc [nvcc options] FILES... [-o OUT]   build a CUDA program for the CPU backend\n"
                     "options: -o -c -I -D -U -L -l -std -O0..3 -g -G -lineinfo -arch -gencode -Xcompiler\n";
        return args.empty() ? 2 : 0;
    }
    return driver(args);
}
