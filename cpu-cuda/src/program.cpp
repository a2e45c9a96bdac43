#include "program.h"

#include <cxxabi.h>
#include <elf.h>
#include <execinfo.h>
#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>

#include "warpdrill/messages.h"

namespace warpdrill::cpu::detail {
namespace {

std::string demangle(const char* name) {
    int status = 0;
    char* text = abi::__cxa_demangle(name, nullptr, nullptr, &status);
    std::string result = status == 0 && text ? text : name;
    std::free(text);
    return result;
}

// The backend's own thread_local variables, and libraries', are not __shared__ memory.
bool is_shared_memory(const std::string& name) {
    for (const char* library : {"warpdrill::cpu::", "std::", "Catch::", "boost::", "__", "guard variable", "TLS "}) {
        if (name.starts_with(library)) return false;
    }
    return true;
}

// Calls visit(symbol, demangled name) for each symbol of the executable's symbol table.
template <class Visit>
void for_each_symbol(Visit visit) {
    const int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    struct stat info {};
    void* mapped = fstat(fd, &info) == 0 ? mmap(nullptr, info.st_size, PROT_READ, MAP_PRIVATE, fd, 0) : MAP_FAILED;
    close(fd);
    if (mapped == MAP_FAILED) return;
    const auto* image = static_cast<const char*>(mapped);
    const auto* header = reinterpret_cast<const Elf64_Ehdr*>(image);
    const auto* sections = reinterpret_cast<const Elf64_Shdr*>(image + header->e_shoff);
    for (int s = 0; s < header->e_shnum; ++s) {
        if (sections[s].sh_type != SHT_SYMTAB) continue;
        const auto* symbols = reinterpret_cast<const Elf64_Sym*>(image + sections[s].sh_offset);
        const char* names = image + sections[sections[s].sh_link].sh_offset;
        for (std::size_t k = 0; k < sections[s].sh_size / sizeof(Elf64_Sym); ++k) {
            visit(symbols[k], names + symbols[k].st_name);
        }
    }
    munmap(mapped, info.st_size);
}

std::vector<TlsVariable> read_tls_variables() {
    std::vector<TlsVariable> variables;
    for_each_symbol([&](const Elf64_Sym& symbol, const char* mangled) {
        if (ELF64_ST_TYPE(symbol.st_info) != STT_TLS || symbol.st_size == 0) return;
        std::string name = demangle(mangled);
        const bool shared = is_shared_memory(name);
        variables.push_back({std::move(name), symbol.st_value, symbol.st_size, shared});
    });
    std::ranges::sort(variables, {}, &TlsVariable::tls_offset);
    return variables;
}

struct Image {
    std::uintptr_t load_address = 0;
    std::string path;
};

const Image& executable() {
    // Never destroyed: the leak check names places after static destructors have run.
    static const Image& image = *new Image([] {
        Image result;
        dl_iterate_phdr(
            [](dl_phdr_info* info, std::size_t, void* out) {
                static_cast<Image*>(out)->load_address = info->dlpi_addr;
                return 1;  // the first object is the executable
            },
            &result);
        char path[4096];
        const ssize_t length = readlink("/proc/self/exe", path, sizeof path - 1);
        if (length > 0) result.path.assign(path, static_cast<std::size_t>(length));
        return result;
    }());
    return image;
}

std::string base_name(const std::string& file) { return file.substr(file.rfind('/') + 1); }

// "void scale<4, 1>(float const*, float*, int)" -> "scale<4, 1>": the
// parameters go, and the return type, which ends at the last space outside
// the template's brackets.
std::string without_return_type(const std::string& signature) {
    const std::string head = signature.substr(0, signature.find('('));
    std::size_t start = 0;
    int depth = 0;
    for (std::size_t i = 0; i < head.size(); ++i) {
        depth += head[i] == '<' ? 1 : head[i] == '>' ? -1 : 0;
        if (head[i] == ' ' && depth == 0) start = i + 1;
    }
    return head.substr(start);
}

// "float warpdrill::load_pack<float, 4>(float const*)" -> "warpdrill::load_pack"
std::string plain_function(std::string name) {
    // "(anonymous namespace)::" would read as the start of the parameter list.
    for (std::size_t at; (at = name.find("(anonymous namespace)::")) != std::string::npos;) name.erase(at, 23);
    const std::string head = without_return_type(name);
    return head.substr(0, head.find('<'));
}

struct Frame {
    std::string function;
    std::string file;
    unsigned line = 0;
};

// The tree that the program's relative file names (-ffile-prefix-map) are
// relative to: the course the runner runs it for (WARPDRILL_SOURCE_DIR, set
// by runner/core/checker.cpp), else the one this backend was built in.
std::string source_root() {
    if (const char* root = std::getenv("WARPDRILL_SOURCE_DIR"); root && *root) return root;
#if defined(WARPDRILL_SOURCE_DIR)
    return WARPDRILL_SOURCE_DIR;
#else
    return ".";
#endif
}

bool readable(const std::string& path) { return std::ifstream(path).good(); }

SourcePlace choose_frame(const std::vector<Frame>& frames) {
    SourcePlace place;
    if (frames.empty()) return place;
    const Frame* mine = &frames.front();
    for (const Frame& frame : frames) {
        if (!is_library_file(frame.file)) {
            mine = &frame;
            break;
        }
    }
    place.file = mine->file;
    place.line = mine->line;
    place.function = plain_function(mine->function);
    // The helper the learner's line called (a course helper, a CUB or
    // cooperative groups header); the standard library's frames and the
    // backend's own (atomicAdd's body) would tell the learner nothing.
    if (mine != &frames.front()) {
        const Frame& helper = *(mine - 1);
        const bool internal = helper.file.starts_with("/usr/") ||
                              helper.file.find("cpu-cuda/include/warpdrill/") != std::string::npos;
        if (!internal) {
            place.via = base_name(helper.file) + ":" + std::to_string(helper.line);
            place.via_function = plain_function(helper.function);
        }
    }
    return place;
}

std::string trimmed(const std::string& text) {
    const std::size_t first = text.find_first_not_of(" \t");
    const std::size_t last = text.find_last_not_of(" \t\r");
    return first == std::string::npos ? "" : text.substr(first, last - first + 1);
}

std::vector<std::string> source_lines(const std::string& file) {
    std::ifstream in(file.starts_with("/") ? file : source_root() + "/" + file);
    std::vector<std::string> lines;
    for (std::string text; std::getline(in, text);) lines.push_back(trimmed(text.substr(0, text.find("//"))));
    return lines;
}

bool has_word(const std::string& text, const std::string& word) {
    for (std::size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
        const bool starts = at == 0 || !(std::isalnum(static_cast<unsigned char>(text[at - 1])) || text[at - 1] == '_');
        const std::size_t end = at + word.size();
        const bool ends = end == text.size() || !(std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_');
        if (starts && ends) return true;
    }
    return false;
}

bool is_branch(const std::string& text) {
    return has_word(text, "if") || has_word(text, "else") || has_word(text, "switch");
}
bool is_loop(const std::string& text) {
    return has_word(text, "for") || has_word(text, "while") || has_word(text, "do");
}

// Walks from `line` outwards through the blocks that enclose it, up to its
// function; calls visit(header line index, header text) for each opening
// brace and visit_line(index) for each line passed. Stops when visit says so.
template <class Visit, class VisitLine>
void walk_out(const std::vector<std::string>& lines, unsigned line, Visit visit, VisitLine visit_line) {
    int depth = 0;
    for (int index = static_cast<int>(line) - 2; index >= 0; --index) {
        const std::string& text = lines[static_cast<std::size_t>(index)];
        if (visit_line(index)) return;
        for (int c = static_cast<int>(text.size()) - 1; c >= 0; --c) {
            if (text[c] == '}') ++depth;
            if (text[c] != '{') continue;
            if (depth > 0) {
                --depth;
                continue;
            }
            int header = index;
            std::string head = trimmed(text.substr(0, static_cast<std::size_t>(c)));
            if (head.empty() && index > 0) head = lines[static_cast<std::size_t>(header = index - 1)];
            if (visit(header, head)) return;
        }
    }
}

}  // namespace

std::optional<SourceStatement> enclosing_branch(const std::string& file, unsigned line) {
    const std::vector<std::string> lines = source_lines(file);
    if (line == 0 || line > lines.size()) return std::nullopt;
    // `if (c) __syncthreads();`, or the same over two lines, without braces.
    const std::string& own = lines[line - 1];
    if (is_branch(own.substr(0, own.find("__sync")))) return SourceStatement{line, own};
    if (line >= 2) {
        const std::string& above = lines[line - 2];
        if (is_branch(above) && !above.ends_with(";") && !above.ends_with("{") && !above.ends_with("}")) {
            return SourceStatement{line - 1, above};
        }
    }
    std::optional<SourceStatement> branch;
    walk_out(
        lines, line,
        [&](int header, const std::string& head) {
            if (is_branch(head)) branch = SourceStatement{static_cast<unsigned>(header + 1), head};
            return branch.has_value() || !is_loop(head);  // stop at a branch, or at the function
        },
        [](int) { return false; });
    return branch;
}

std::optional<SourceStatement> enclosing_loop(const std::string& file, unsigned line) {
    const std::vector<std::string> lines = source_lines(file);
    if (line == 0 || line > lines.size()) return std::nullopt;
    std::optional<SourceStatement> loop;
    walk_out(
        lines, line,
        [&](int header, const std::string& head) {
            if (is_loop(head)) loop = SourceStatement{static_cast<unsigned>(header + 1), head};
            return true;  // the innermost block around the line decides
        },
        [](int) { return false; });
    return loop;
}

std::optional<SourceStatement> return_before(const std::string& file, unsigned line) {
    const std::vector<std::string> lines = source_lines(file);
    if (line == 0 || line > lines.size()) return std::nullopt;
    std::optional<SourceStatement> found;
    walk_out(
        lines, line, [](int, const std::string& head) { return !is_branch(head) && !is_loop(head); },
        [&](int index) {
            if (has_word(lines[static_cast<std::size_t>(index)], "return")) {
                found = SourceStatement{static_cast<unsigned>(index + 1), lines[static_cast<std::size_t>(index)]};
            }
            return found.has_value();
        });
    return found;
}

const std::vector<TlsVariable>& tls_variables() {
    static const std::vector<TlsVariable> variables = read_tls_variables();
    return variables;
}

std::uintptr_t tls_block() {
    std::uintptr_t block = 0;
    dl_iterate_phdr(
        [](dl_phdr_info* info, std::size_t, void* out) {
            *static_cast<std::uintptr_t*>(out) = reinterpret_cast<std::uintptr_t>(info->dlpi_tls_data);
            return 1;
        },
        &block);
    return block;
}

std::uintptr_t executable_load_address() { return executable().load_address; }

std::string function_name(const void* function) {
    if (function == nullptr) return {};
    const std::uint32_t offset = code_offset(function);
    std::string name;
    for_each_symbol([&](const Elf64_Sym& symbol, const char* mangled) {
        if (name.empty() && ELF64_ST_TYPE(symbol.st_info) == STT_FUNC && symbol.st_value == offset) {
            name = demangle(mangled);
        }
    });
    return without_return_type(name);
}

namespace {

// The inlined frames at each code offset, innermost first. Asks addr2line once for all.
std::vector<std::vector<Frame>> frame_chains(const std::vector<std::uint32_t>& offsets) {
    std::vector<std::vector<Frame>> frames;
    if (offsets.empty() || executable().path.empty()) return frames;
    static std::mutex mutex;  // one addr2line at a time
    std::lock_guard lock(mutex);
    std::ostringstream command;
    command << "addr2line -a -f -C -i -e '" << executable().path << "'";
    // An offset is a return address: the access is the instruction before it.
    for (std::uint32_t offset : offsets) command << " 0x" << std::hex << offset - 1;
    command << " 2>/dev/null";
    FILE* pipe = popen(command.str().c_str(), "r");
    if (!pipe) return frames;
    char buffer[8192];
    std::string function;
    while (std::fgets(buffer, sizeof buffer, pipe)) {
        std::string text(buffer);
        while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
        if (text.starts_with("0x")) {
            frames.emplace_back();
        } else if (function.empty()) {
            function = text.empty() ? "?" : text;
        } else if (!frames.empty()) {
            const std::size_t colon = text.rfind(':', text.find(" (discriminator"));
            Frame frame{function, checkout_path(text.substr(0, colon)), 0};
            if (colon != std::string::npos) frame.line = static_cast<unsigned>(std::atoi(text.c_str() + colon + 1));
            frames.back().push_back(frame);
            function.clear();
        }
    }
    pclose(pipe);
    frames.resize(offsets.size());
    return frames;
}

}  // namespace

std::vector<SourcePlace> source_places(const std::vector<std::uint32_t>& offsets) {
    std::vector<SourcePlace> places;
    for (const std::vector<Frame>& chain : frame_chains(offsets)) places.push_back(choose_frame(chain));
    places.resize(offsets.size());
    return places;
}

namespace {
// How many callers of an out-of-line library function are looked through.
constexpr int kCallers = 24;
}  // namespace

std::vector<std::uint32_t> call_stack() {
    void* stack[kCallers + 8];
    const int depth = backtrace(stack, kCallers + 8);
    std::vector<std::uint32_t> offsets;
    for (int i = 2; i < depth; ++i) offsets.push_back(code_offset(stack[i]));
    return offsets;
}

SourcePlace place_on_stack(const std::vector<std::uint32_t>& stack) {
    std::vector<Frame> frames;
    for (const std::vector<Frame>& chain : frame_chains(stack)) frames.insert(frames.end(), chain.begin(), chain.end());
    return choose_frame(frames);
}

SourcePlace running_place(std::uint32_t code) {
    std::vector<std::uint32_t> stack = call_stack();
    const auto at = std::ranges::find(stack, code);
    if (at == stack.end()) return place_on_stack({code});  // not on this stack: the code's own frames
    stack.erase(stack.begin(), at);
    return place_on_stack(stack);
}

std::string checkout_path(const std::string& file) {
    if (file.empty() || file.starts_with("/usr/")) return file;
    if (file.starts_with(source_root() + "/")) return file.substr(source_root().size() + 1);
    // A file of another tree (a submission staged for grading, a scratch copy
    // of the course): its own lines, never those of the same name here.
    if (file.starts_with("/") && readable(file)) return file;
    for (std::size_t from = 0;;) {
        const std::string candidate = std::filesystem::path(file.substr(from)).lexically_normal().string();
        if (!candidate.starts_with("/") && !candidate.starts_with("..") && readable(source_root() + "/" + candidate)) {
            return candidate;
        }
        from = file.find('/', from);
        if (from == std::string::npos) return file;
        ++from;
    }
}

bool is_library_file(const std::string& file) {
    return file.empty() || file == "??" || file.find("common/include/") != std::string::npos ||
           file.find("cpu-cuda/include/") != std::string::npos || file.find("cpu-cuda/src/") != std::string::npos ||
           file.starts_with("/usr/");
}

std::string to_string(const SourcePlace& place) {
    if (place.line == 0) return messages::text("backend.place.unknown");
    const std::string text = place.file + ":" + std::to_string(place.line);
    if (place.via.empty()) return text;
    return messages::text("backend.place.through",
                          {{"place", text}, {"helper", place.via}, {"function", place.via_function}});
}

std::string source_line(const std::string& file, unsigned line) {
    std::ifstream in(file.starts_with("/") ? file : source_root() + "/" + file);
    std::string text;
    for (unsigned n = 1; n <= line && std::getline(in, text); ++n) {
        if (n == line) return trimmed(text);
    }
    return "";
}

std::string short_name(const std::string& qualified) {
    const std::size_t colons = qualified.rfind("::");
    return colons == std::string::npos ? qualified : qualified.substr(colons + 2);
}

std::vector<std::string> parameter_names(const void* function) {
    if (function == nullptr) return {};
    const std::vector<SourcePlace> places = source_places({code_offset(function) + 1});
    const SourcePlace& place = places.front();
    if (place.line == 0) return {};
    // The signature may start a line or two above the first instruction's line.
    std::string text;
    for (unsigned line = place.line > 3 ? place.line - 3 : 1; line <= place.line + 6; ++line) {
        text += source_line(place.file, line) + " ";
    }
    const std::string name = short_name(plain_function(place.function));
    std::size_t open = text.find(name + "(");
    if (open == std::string::npos) return {};
    open += name.size();
    std::vector<std::string> names;
    std::string parameter;
    int depth = 0;
    for (std::size_t i = open + 1; i < text.size(); ++i) {
        const char c = text[i];
        if (depth == 0 && (c == ',' || c == ')')) {
            std::string declaration = parameter.substr(0, parameter.find('='));
            while (!declaration.empty() && !std::isalnum(static_cast<unsigned char>(declaration.back())) &&
                   declaration.back() != '_') {
                declaration.pop_back();  // "]", spaces
            }
            std::size_t start = declaration.size();
            while (start > 0 && (std::isalnum(static_cast<unsigned char>(declaration[start - 1])) ||
                                 declaration[start - 1] == '_')) {
                --start;
            }
            names.push_back(declaration.substr(start));
            parameter.clear();
            if (c == ')') break;
            continue;
        }
        if (c == '(' || c == '<' || c == '[') ++depth;
        if (c == ')' || c == '>' || c == ']') --depth;
        parameter += c;
    }
    return names;
}

}  // namespace warpdrill::cpu::detail
