// Every sentence a learner or an instructor reads, from one catalog
// (messages/*.toml), in English or Simplified Chinese. A message is found by
// its id ("check.failed") and filled in from named fields:
//
//     messages::text("check.failed", {{"lesson", 3}, {"title", title}})
//
// The runner chooses the language (--lang, then the locale) and hands it to
// the programs it starts in WARPDRILL_LANG; a check program or the CPU
// backend speaks the language that variable names, English without it.
#pragma once

#include <concepts>
#include <cstdlib>
#include <functional>
#include <initializer_list>
#include <string>
#include <string_view>

namespace warpdrill::messages {

enum class Language { english, chinese };

// The variable that carries the chosen language to the programs the runner starts.
inline constexpr const char* kLanguageVariable = "WARPDRILL_LANG";

using Environment = std::function<const char*(const char*)>;

// `option` is --lang's value: "en", "zh" or a locale name such as
// "zh_CN.UTF-8". Without it: WARPDRILL_LANG, then the locale (LC_ALL,
// LC_MESSAGES, LANG: POSIX's order, the first one set); Chinese when the
// value starts with "zh", English otherwise.
Language choose_language(std::string_view option, const Environment& environment = std::getenv);

// This program's language: WARPDRILL_LANG's, unless use_language() chose one.
Language language();
// Reads the catalog now, where it is otherwise read at the first text(): for
// code that will need it where reading it is unsafe (a crash handler's stack).
void load();
// Speak `language` from now on, and have every program started from here
// on speak it too (sets WARPDRILL_LANG).
void use_language(Language language);

// A named value a message is filled in with: text, or a whole number.
struct Field {
    Field(std::string_view name, std::string_view value) : name(name), value(value) {}
    Field(std::string_view name, const char* value) : name(name), value(value) {}
    Field(std::string_view name, const std::string& value) : name(name), value(value) {}
    template <std::integral Number>
    Field(std::string_view name, Number value) : name(name), value(std::to_string(value)) {}

    std::string_view name;
    std::string value;
};

// The message `id` in this program's language, each {field} replaced by the
// value given for it. An id the catalog lacks, a field the message names but
// the call does not give, or one the call gives that the message does not
// name, is a mistake in the code: std::logic_error.
std::string text(std::string_view id, std::initializer_list<Field> fields = {});
std::string text(Language language, std::string_view id, std::initializer_list<Field> fields = {});
// As text(), for an id made from data, one of a family of cases
// ("setup.backend_reason.auto_gpu"): each case names only the fields it
// needs, so a field given that this one does not name is left out. A field
// it names that the call does not give is still a mistake.
std::string text_of_case(std::string_view id, std::initializer_list<Field> fields);

}  // namespace warpdrill::messages
