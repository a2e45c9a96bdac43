// Small text helpers the runner's commands share: lines, blank lines, the
// time of day as reports write it.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace warpdrill::runner {

std::vector<std::string> lines_of(const std::string& text);
bool is_blank(const std::string& line);  // nothing but spaces and tabs
std::vector<std::string> nonblank_lines(const std::string& text);
std::string first_nonblank_line(const std::string& text);  // "" when there is none
std::string last_lines(const std::string& text, std::size_t count);
// The text before the first colon, ':' or Chinese '：' (all of it when it has none).
std::string before_colon(const std::string& text);
std::string replace_all(std::string text, const std::string& from, const std::string& to);
// What CMake said in its errors: the output from the line after the first
// "CMake Error" on (all of it when there is none), not the log before.
std::string cmake_error(const std::string& output);
// Now, in UTC, written with strftime's `format` ("%Y-%m-%d").
std::string utc_time(const char* format);

}  // namespace warpdrill::runner
