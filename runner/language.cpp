#include "language.h"

#include <cstdlib>

namespace warpdrill::runner {

namespace {

bool names_chinese(const std::string& locale) { return locale.rfind("zh", 0) == 0; }

}  // namespace

Language choose_language(const std::string& option, const Environment& environment) {
    if (!option.empty()) return names_chinese(option) ? Language::chinese : Language::english;
    // POSIX: LC_ALL overrides LC_MESSAGES, which overrides LANG.
    for (const char* variable : {"LC_ALL", "LC_MESSAGES", "LANG"}) {
        const char* value = environment(variable);
        if (value && *value) return names_chinese(value) ? Language::chinese : Language::english;
    }
    return Language::english;
}

fs::path localized(const fs::path& file, Language language) {
    if (language == Language::english) return file;
    fs::path translated = file;
    translated.replace_extension(".zh" + file.extension().string());
    return fs::exists(translated) ? translated : file;
}

void localize(Course& course, Language language) {
    if (language == Language::english) return;
    for (Lesson& lesson : course.lessons) {
        lesson.title = read_title(localized(lesson.dir / "README.md", language));
        lesson.hints = read_hints(localized(lesson.dir / "hints.md", language));
    }
}

}  // namespace warpdrill::runner
