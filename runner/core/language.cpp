#include "language.h"

namespace warpdrill::runner {

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
