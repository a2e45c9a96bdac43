// The runner speaks Chinese when --lang, WARPDRILL_LANG or the locale asks
// for it, and shows a lesson's README and hints in Chinese where the lesson
// has them; English otherwise. A message is filled in from named fields.
#include <cstdlib>
#include <fstream>
#include <map>
#include <stdexcept>
#include <string>

#include "course.h"
#include "language.h"
#include "warpdrill/catch.h"

using namespace warpdrill::runner;
using warpdrill::messages::choose_language;
using warpdrill::messages::Environment;
namespace messages = warpdrill::messages;

namespace {

Environment environment(std::map<std::string, std::string> variables) {
    return [variables = std::move(variables)](const char* name) -> const char* {
        const auto it = variables.find(name);
        return it == variables.end() ? nullptr : it->second.c_str();
    };
}

// A course of one lesson with an English README and hints, and optionally Chinese ones.
fs::path make_course(bool with_chinese) {
    const fs::path root = fs::temp_directory_path() / ("warpdrill-language-" + std::to_string(with_chinese));
    fs::remove_all(root);
    const fs::path lesson = root / "lessons" / "01-first";
    fs::create_directories(lesson);
    std::ofstream(lesson / "README.md") << "# Lesson 1: the first lesson\n";
    std::ofstream(lesson / "hints.md") << "# Hints\n\n## Hint\nFirst.\n\n## Hint\nSecond.\n";
    if (with_chinese) {
        std::ofstream(lesson / "README.zh.md") << "# 第 1 课: 第一课\n";
        std::ofstream(lesson / "hints.zh.md") << "# 提示\n\n## 提示\n第一条。\n\n## 提示\n第二条。\n";
    }
    return root;
}

}  // namespace

TEST_CASE("--lang wins over the locale", "[language]") {
    const auto chinese_locale = environment({{"LANG", "zh_CN.UTF-8"}});
    CHECK(choose_language("en", chinese_locale) == Language::english);
    CHECK(choose_language("zh", environment({{"LANG", "en_GB.UTF-8"}})) == Language::chinese);
}

TEST_CASE("without --lang, LC_ALL, LC_MESSAGES and LANG decide, in POSIX's order", "[language]") {
    CHECK(choose_language("", environment({{"LANG", "zh_CN.UTF-8"}})) == Language::chinese);
    CHECK(choose_language("", environment({{"LANG", "zh_TW.UTF-8"}})) == Language::chinese);
    CHECK(choose_language("", environment({{"LANG", "de_DE.UTF-8"}})) == Language::english);
    CHECK(choose_language("", environment({{"LANG", "zh_CN.UTF-8"}, {"LC_ALL", "C"}})) == Language::english);
    CHECK(choose_language("", environment({{"LANG", "C"}, {"LC_MESSAGES", "zh_CN"}})) == Language::chinese);
    CHECK(choose_language("", environment({{"LANG", "zh_CN"}, {"LC_ALL", ""}})) == Language::chinese);
    CHECK(choose_language("", environment({})) == Language::english);
}

TEST_CASE("WARPDRILL_LANG, which the runner hands its programs, comes before the locale", "[language]") {
    CHECK(choose_language("", environment({{"WARPDRILL_LANG", "en"}, {"LANG", "zh_CN.UTF-8"}})) == Language::english);
    CHECK(choose_language("", environment({{"WARPDRILL_LANG", "zh"}, {"LC_ALL", "C"}})) == Language::chinese);
    CHECK(choose_language("en", environment({{"WARPDRILL_LANG", "zh"}})) == Language::english);
}

TEST_CASE("a message is filled in from its named fields, in either language", "[language]") {
    const auto line = [](Language language) {
        return messages::text(language, "check.line",
                              {{"lesson", 2}, {"title", "T"}, {"outcome", "x"}, {"backend", "B"}, {"seconds", "0.5"}});
    };
    CHECK(line(Language::english) == "lesson 2 (T): x  [B, 0.5 s]");
    CHECK(line(Language::chinese) == "第 2 课（T）：x  [B，0.5 秒]");
    CHECK(messages::text(Language::english, "check.all_pass") == "all checks pass");
}

TEST_CASE("an unknown message, a missing field and a field the message lacks are the code's mistakes", "[language]") {
    CHECK_THROWS_AS(messages::text(Language::english, "no.such.message"), std::logic_error);
    CHECK_THROWS_AS(messages::text(Language::english, "hint.none"), std::logic_error);
    CHECK_THROWS_AS(messages::text(Language::english, "hint.none", {{"lesson", 1}, {"extra", 2}}), std::logic_error);
}

TEST_CASE("the backend's reason names what its case names, and only that", "[language]") {
    messages::use_language(Language::english);
    CHECK(backend_reason("auto_nvcc_without_gpu", "NVIDIA H100", "nvcc 13.0") ==
          "nvcc 13.0 but no GPU visible: CPU backend");
    CHECK(backend_reason("auto_gpu", "NVIDIA H100", "nvcc 13.0") == "nvcc 13.0 and an NVIDIA H100: GPU backend");
    CHECK(backend_reason("chosen_cpu", "", "") == "chosen: CPU backend");
    // A case left out of the catalog, or a field its message names that the call lacks, is still a mistake.
    CHECK_THROWS_AS(backend_reason("no_such_case", "", ""), std::logic_error);
    CHECK_THROWS_AS(messages::text_of_case("setup.backend_reason.auto_gpu", {{"gpu", "G"}}), std::logic_error);
}

TEST_CASE("a Chinese course shows the translated title and hints", "[language]") {
    Course course = load_course(make_course(true), "build", "cpu", "chosen for the test");
    localize(course, Language::chinese);
    REQUIRE(course.lessons.size() == 1);
    CHECK(course.lessons[0].title == "第一课");
    REQUIRE(course.lessons[0].hints.size() == 2);
    CHECK(course.lessons[0].hints[1] == "第二条。");
}

TEST_CASE("English stays English, and a lesson without a translation falls back to it", "[language]") {
    Course english = load_course(make_course(true), "build", "cpu", "chosen for the test");
    localize(english, Language::english);
    CHECK(english.lessons[0].title == "the first lesson");

    Course untranslated = load_course(make_course(false), "build", "cpu", "chosen for the test");
    localize(untranslated, Language::chinese);
    CHECK(untranslated.lessons[0].title == "the first lesson");
    CHECK(untranslated.lessons[0].hints.size() == 2);
}
