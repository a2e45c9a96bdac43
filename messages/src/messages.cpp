#include "warpdrill/messages.h"

#define TOML_HEADER_ONLY 1
#include <toml++/toml.h>

#include <atomic>
#include <map>
#include <mutex>
#include <stdexcept>

#include "catalog_files.h"

namespace warpdrill::messages {

namespace {

bool names_chinese(std::string_view value) { return value.starts_with("zh"); }

// One message in both languages.
struct Wording {
    std::string english;
    std::string chinese;
};
using Catalog = std::map<std::string, Wording, std::less<>>;

// A table with `en` and `zh` is a message, its id the path of tables to it
// ("check.failed" for [check.failed]); its other tables hold more
// ([help.watch] and [help.watch.lesson]).
void read_table(const toml::table& table, const std::string& path, Catalog& catalog) {
    const auto english = table["en"].value<std::string>();
    const auto chinese = table["zh"].value<std::string>();
    if (english && chinese) catalog.emplace(path, Wording{*english, *chinese});
    for (const auto& [key, value] : table) {
        if (const toml::table* inner = value.as_table()) {
            read_table(*inner, path.empty() ? std::string(key.str()) : path + "." + std::string(key.str()), catalog);
        }
    }
}

// Never destroyed: the CPU backend words messages after the static
// destructors have run (its pending warnings, the leak check's report).
const Catalog& catalog() {
    static const Catalog& read = *new Catalog([] {
        Catalog catalog;
        for (const detail::CatalogFile& file : detail::catalog_files()) {
            read_table(toml::parse(file.text, file.name), "", catalog);
        }
        return catalog;
    }());
    return read;
}

std::atomic<int> chosen{-1};  // a Language, or -1 while nothing chose one

// A field's name: lower-case letters, digits and '_'. Other braces are text.
bool is_field_name(std::string_view name) {
    return !name.empty() &&
           name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") == std::string_view::npos;
}

const Field& field_named(std::string_view id, std::string_view name, std::initializer_list<Field> fields) {
    for (const Field& field : fields) {
        if (field.name == name) return field;
    }
    throw std::logic_error("message " + std::string(id) + " needs the field " + std::string(name));
}

// Whether a field given that the message does not name is a mistake (text())
// or is left out (text_of_case()).
enum class Unnamed { mistake, left_out };

// `wording` with each {name} replaced by its field's value.
std::string fill_in(std::string_view id, std::string_view wording, std::initializer_list<Field> fields,
                    Unnamed unnamed) {
    for (const Field& field : fields) {
        const bool named = wording.find("{" + std::string(field.name) + "}") != std::string_view::npos;
        if (!named && unnamed == Unnamed::mistake) {
            throw std::logic_error("message " + std::string(id) + " has no field " + std::string(field.name));
        }
    }
    std::string text;
    std::size_t at = 0;
    while (at < wording.size()) {
        const std::size_t open = wording.find('{', at);
        const std::size_t close = wording.find('}', open);
        if (close == std::string_view::npos) break;
        const std::string_view name = wording.substr(open + 1, close - open - 1);
        if (!is_field_name(name)) {
            text += wording.substr(at, open + 1 - at);
            at = open + 1;
            continue;
        }
        text += wording.substr(at, open - at);
        text += field_named(id, name, fields).value;
        at = close + 1;
    }
    return text += wording.substr(at);
}

}  // namespace

Language choose_language(std::string_view option, const Environment& environment) {
    if (!option.empty()) return names_chinese(option) ? Language::chinese : Language::english;
    // POSIX: LC_ALL overrides LC_MESSAGES, which overrides LANG.
    for (const char* variable : {kLanguageVariable, "LC_ALL", "LC_MESSAGES", "LANG"}) {
        const char* value = environment(variable);
        if (value && *value) return names_chinese(value) ? Language::chinese : Language::english;
    }
    return Language::english;
}

Language language() {
    const int language = chosen.load(std::memory_order_relaxed);
    if (language >= 0) return static_cast<Language>(language);
    const char* value = std::getenv(kLanguageVariable);
    return value && names_chinese(value) ? Language::chinese : Language::english;
}

void load() { catalog(); }

void use_language(Language language) {
    chosen.store(static_cast<int>(language), std::memory_order_relaxed);
    setenv(kLanguageVariable, language == Language::chinese ? "zh" : "en", 1);
}

std::string text(std::string_view id, std::initializer_list<Field> fields) { return text(language(), id, fields); }

namespace {
std::string_view wording_of(std::string_view id, Language language) {
    const auto found = catalog().find(id);
    if (found == catalog().end()) throw std::logic_error("no message " + std::string(id) + " in messages/*.toml");
    return language == Language::chinese ? found->second.chinese : found->second.english;
}
}  // namespace

std::string text(Language language, std::string_view id, std::initializer_list<Field> fields) {
    return fill_in(id, wording_of(id, language), fields, Unnamed::mistake);
}

std::string text_of_case(std::string_view id, std::initializer_list<Field> fields) {
    return fill_in(id, wording_of(id, language()), fields, Unnamed::left_out);
}

}  // namespace warpdrill::messages
