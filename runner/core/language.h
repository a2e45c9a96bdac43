// The language a lesson's README and hints are shown in: the one the runner
// speaks (warpdrill/messages.h chooses it from --lang and the locale), where
// the lesson has README.zh.md and hints.zh.md; English otherwise.
#pragma once

#include "course.h"
#include "warpdrill/messages.h"

namespace warpdrill::runner {

using messages::Language;

// README.md -> README.zh.md, hints.md -> hints.zh.md, when that file exists.
fs::path localized(const fs::path& file, Language language);

// Each lesson's title and hints from its translated README and hints, where it has them.
void localize(Course& course, Language language);

}  // namespace warpdrill::runner
