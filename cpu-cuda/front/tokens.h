// The C++ tokens of a preprocessed translation unit, as much as cudacc's
// front end needs (rewrite.cpp, execution_spaces.cpp): identifiers,
// numbers, literals (raw strings too), one token per punctuation character,
// and the preprocessor's line markers as one token each. Comments are skipped.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cudacc {

enum class Kind { identifier, number, literal, punctuation, directive };

struct Token {
    Kind kind;
    std::size_t begin, end;
};

std::vector<Token> tokenize(std::string_view text);

// A line marker, `# 12 "lessons/01-x/reduce.cuh" 2 3`: the line after it is
// line 12 of that file; flag 3, a system header's.
struct LineMarker {
    std::string_view file;
    int line = 0;
    bool system_header = false;
};
// The marker a directive is, or nothing for another directive (#pragma).
std::optional<LineMarker> line_marker(std::string_view directive);

// Whether the line marker `marker` begins lines of the program's own files:
// not a system header's, nor the backend's. Another directive (#pragma)
// leaves `current` as it is.
bool program_file_lines(std::string_view marker, bool current);

// A string literal's characters: "a\tb" is a, a tab and b.
std::string string_literal_value(std::string_view literal);
// `text` written inside a string literal: its quotes and backslashes escaped.
std::string escaped_for_literal(std::string_view text);

}  // namespace cudacc
