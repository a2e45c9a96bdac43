// The language a lesson's README and hints are shown in: Simplified Chinese
// when `--lang zh` asks for it or, without --lang, when the locale does
// (LC_ALL, LC_MESSAGES or LANG, the first one set, starting with "zh"), and
// the lesson has README.zh.md and hints.zh.md; English otherwise.
#pragma once

#include <functional>
#include <string>

#include "course.h"

namespace warpdrill::runner {

enum class Language { english, chinese };

using Environment = std::function<const char*(const char*)>;

// `option` is --lang's value: "", "en" or "zh" (or a locale name such as zh_CN.UTF-8).
Language choose_language(const std::string& option, const Environment& environment = std::getenv);

// README.md -> README.zh.md, hints.md -> hints.zh.md, when that file exists.
fs::path localized(const fs::path& file, Language language);

// Each lesson's title and hints from its translated README and hints, where it has them.
void localize(Course& course, Language language);

}  // namespace warpdrill::runner
