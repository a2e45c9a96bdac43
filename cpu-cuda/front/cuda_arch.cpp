#include "cuda_arch.h"

#include <regex>
#include <sstream>

namespace cudacc {
namespace {

constexpr std::string_view kMacro = "__CUDA_ARCH__";

// A directive's keyword ("if", "ifdef", ...) and where its condition starts.
struct Directive {
    std::string keyword;
    std::size_t condition = 0;
};

bool parse_directive(const std::string& line, Directive& directive) {
    static const std::regex pattern(R"(^\s*#\s*(if|ifdef|ifndef|elif|elifdef|elifndef)\b)");
    std::smatch match;
    if (!std::regex_search(line, match, pattern)) return false;
    directive = {match[1].str(), static_cast<std::size_t>(match.length(0))};
    return true;
}

// Whether the condition compares the macro with something: "which GPU?".
bool compares_arch(const std::string& condition) {
    static const std::regex comparison(R"(__CUDA_ARCH__\s*(<|>|==|!=)|(<|>|==|!=)=?\s*__CUDA_ARCH__)");
    return std::regex_search(condition, comparison);
}

// The condition with the macro answered: defined or not, and its value.
std::string answered(std::string condition, bool defined, int arch) {
    static const std::regex definedness(R"(defined\s*\(\s*__CUDA_ARCH__\s*\)|defined\s+__CUDA_ARCH__)");
    static const std::regex value(R"(\b__CUDA_ARCH__\b)");
    condition = std::regex_replace(condition, definedness, defined ? "1" : "0");
    return std::regex_replace(condition, value, defined ? std::to_string(arch) : "0");
}

std::string answer_directive(const std::string& line, const Directive& directive, int arch) {
    const std::string head = line.substr(0, directive.condition);
    const std::string condition = line.substr(directive.condition);
    const std::string indent = line.substr(0, line.find('#'));
    if (directive.keyword.ends_with("ifdef") || directive.keyword.ends_with("ifndef")) {
        if (condition.find(kMacro) == std::string::npos) return line;
        // Host or GPU? The host: not defined.
        const bool is_ndef = directive.keyword.ends_with("ifndef");
        const std::string keyword = directive.keyword.starts_with("elif") ? "elif" : "if";
        return indent + "#" + keyword + (is_ndef ? " 1" : " 0") + "  /* " + directive.keyword +
               " __CUDA_ARCH__ */";
    }
    return head + answered(condition, compares_arch(condition), arch);
}

}  // namespace

std::string answer_cuda_arch(std::string_view source, int arch) {
    std::istringstream in{std::string(source)};
    std::string out;
    std::string line;
    while (std::getline(in, line)) {
        // A directive continued over several lines is answered as one, and
        // its continuation lines left empty, so that no line moves.
        int continued = 0;
        const bool is_directive =
            line.find_first_not_of(" \t") != std::string::npos && line[line.find_first_not_of(" \t")] == '#';
        while (is_directive && line.ends_with('\\')) {
            std::string next;
            if (!std::getline(in, next)) break;
            line.pop_back();
            line += " " + next;
            ++continued;
        }
        Directive directive;
        if (line.find(kMacro) != std::string::npos && parse_directive(line, directive)) {
            line = answer_directive(line, directive, arch);
        }
        out += line + '\n' + std::string(continued, '\n');
    }
    return out;
}

}  // namespace cudacc
