#include "tokens.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <string>

namespace cudacc {
namespace {

bool is_identifier_start(char c) {
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$';
}
bool is_identifier_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$';
}

// C++ tokens, as much as the rewrite needs: identifiers, numbers, literals
// (raw strings too), one token per punctuation character, and the
// preprocessor's line markers as one token each. Comments are skipped.
class Lexer {
  public:
    explicit Lexer(std::string_view text) : text_(text) {}

    std::vector<Token> tokens() {
        std::vector<Token> tokens;
        bool line_start = true;
        while (at_ < text_.size()) {
            const char c = text_[at_];
            if (c == '\n') {
                line_start = true;
                ++at_;
            } else if (std::isspace(static_cast<unsigned char>(c))) {
                ++at_;
            } else if (c == '#' && line_start) {
                tokens.push_back(span(Kind::directive, [&] { to_line_end(); }));
            } else if (starts_with("//")) {
                to_line_end();
            } else if (starts_with("/*")) {
                const std::size_t close = text_.find("*/", at_ + 2);
                at_ = close == std::string_view::npos ? text_.size() : close + 2;
            } else {
                line_start = false;
                tokens.push_back(next_token());
            }
        }
        return tokens;
    }

  private:
    template <class Scan>
    Token span(Kind kind, Scan scan) {
        const std::size_t begin = at_;
        scan();
        return {kind, begin, at_};
    }

    bool starts_with(std::string_view prefix) const { return text_.substr(at_).starts_with(prefix); }
    void to_line_end() {
        const std::size_t end = text_.find('\n', at_);
        at_ = end == std::string_view::npos ? text_.size() : end;
    }

    Token next_token() {
        const char c = text_[at_];
        if (is_identifier_start(c)) {
            const std::size_t begin = at_;
            while (at_ < text_.size() && is_identifier_char(text_[at_])) ++at_;
            const std::string_view word = text_.substr(begin, at_ - begin);
            if (at_ < text_.size() && (text_[at_] == '"' || text_[at_] == '\'') && is_literal_prefix(word)) {
                if (word.ends_with('R') && text_[at_] == '"') {
                    raw_string();
                } else {
                    quoted(text_[at_]);
                }
                return {Kind::literal, begin, at_};
            }
            return {Kind::identifier, begin, at_};
        }
        if (std::isdigit(static_cast<unsigned char>(c)) ||
            (c == '.' && at_ + 1 < text_.size() &&
             std::isdigit(static_cast<unsigned char>(text_[at_ + 1])))) {
            return span(Kind::number, [&] { number(); });
        }
        if (c == '"' || c == '\'') return span(Kind::literal, [&] { quoted(c); });
        return span(Kind::punctuation, [&] { ++at_; });
    }

    static bool is_literal_prefix(std::string_view word) {
        for (std::string_view prefix : {"R", "u8", "u", "U", "L", "u8R", "uR", "UR", "LR"}) {
            if (word == prefix) return true;
        }
        return false;
    }

    // A pp-number: digits, letters, dots, digit separators, exponent signs.
    void number() {
        while (at_ < text_.size()) {
            const char c = text_[at_];
            const bool sign = (c == '+' || c == '-') &&
                              std::string_view("eEpP").find(text_[at_ - 1]) != std::string_view::npos;
            if (!(is_identifier_char(c) || c == '.' || c == '\'' || sign)) break;
            ++at_;
        }
    }

    void quoted(char quote) {
        ++at_;
        while (at_ < text_.size() && text_[at_] != quote && text_[at_] != '\n') {
            at_ += text_[at_] == '\\' ? 2 : 1;
        }
        at_ = std::min(at_ + 1, text_.size());
    }

    void raw_string() {
        const std::size_t open = text_.find('(', at_);
        if (open == std::string_view::npos) {
            at_ = text_.size();
            return;
        }
        const std::string close = ")" + std::string(text_.substr(at_ + 1, open - at_ - 1)) + "\"";
        const std::size_t end = text_.find(close, open);
        at_ = end == std::string_view::npos ? text_.size() : end + close.size();
    }

    std::string_view text_;
    std::size_t at_ = 0;
};

}  // namespace

std::vector<Token> tokenize(std::string_view text) { return Lexer(text).tokens(); }

std::optional<LineMarker> line_marker(std::string_view directive) {
    const std::size_t number = directive.find_first_not_of("# \t");
    const std::size_t open = directive.find('"'), close = directive.rfind('"');
    if (number == std::string_view::npos || !std::isdigit(static_cast<unsigned char>(directive[number])) ||
        open == std::string_view::npos || close <= open) {
        return std::nullopt;
    }
    return LineMarker{directive.substr(open + 1, close - open - 1),
                      std::atoi(std::string(directive.substr(number, open - number)).c_str()),
                      directive.substr(close + 1).find('3') != std::string_view::npos};
}

bool program_file_lines(std::string_view marker, bool current) {
    const std::optional<LineMarker> line = line_marker(marker);
    if (!line) return current;
    return !line->system_header && line->file.find("cpu-cuda/include/") == std::string_view::npos &&
           !line->file.starts_with("<");
}

std::string string_literal_value(std::string_view literal) {
    const std::size_t first = literal.find('"'), last = literal.rfind('"');
    std::string value;
    for (std::size_t i = first + 1; i < last; ++i) {
        if (literal[i] != '\\' || i + 1 >= last) {
            value += literal[i];
            continue;
        }
        const char escape = literal[++i];
        value += escape == 'n' ? '\n' : escape == 't' ? '\t' : escape == 'r' ? '\r' : escape;
    }
    return value;
}

std::string escaped_for_literal(std::string_view text) {
    std::string out;
    for (const char c : text) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out;
}

}  // namespace cudacc
