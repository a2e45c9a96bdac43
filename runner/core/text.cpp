#include "text.h"

#include <algorithm>
#include <ctime>
#include <sstream>

namespace warpdrill::runner {

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

bool is_blank(const std::string& line) { return line.find_first_not_of(" \t") == std::string::npos; }

std::vector<std::string> nonblank_lines(const std::string& text) {
    std::vector<std::string> lines = lines_of(text);
    std::erase_if(lines, is_blank);
    return lines;
}

std::string first_nonblank_line(const std::string& text) {
    const std::vector<std::string> lines = lines_of(text);
    const auto first = std::ranges::find_if_not(lines, is_blank);
    return first == lines.end() ? "" : *first;
}

std::string last_lines(const std::string& text, std::size_t count) {
    const std::vector<std::string> lines = lines_of(text);
    std::string tail;
    for (std::size_t i = lines.size() > count ? lines.size() - count : 0; i < lines.size(); ++i)
        tail += lines[i] + "\n";
    return tail;
}

std::string before_colon(const std::string& text) {
    return text.substr(0, std::min(text.find(':'), text.find("\uFF1A")));
}

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
    for (std::size_t at = 0; (at = text.find(from, at)) != std::string::npos; at += to.size())
        text.replace(at, from.size(), to);
    return text;
}

std::string utc_time(const char* format) {
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    char text[64];
    std::strftime(text, sizeof text, format, &utc);
    return text;
}

std::string cmake_error(const std::string& output) {
    const auto at = output.find("CMake Error");
    if (at == std::string::npos) return output;
    const auto message = output.find('\n', at);
    return message == std::string::npos ? output.substr(at) : output.substr(message + 1);
}

}  // namespace warpdrill::runner
