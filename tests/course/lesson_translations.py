#!/usr/bin/env python3
"""Every lesson's README and hints have a Simplified Chinese translation that
the runner can read (README.zh.md, hints.zh.md: `warpdrill --lang zh`, or a
Chinese LANG), and it says the same things: the same number of hints, in the
same order, and every piece of code of the English text unchanged in it.

  python3 tests/course/lesson_translations.py COURSE_ROOT
"""
import re
import sys
from pathlib import Path


def code_spans(text):
    return re.findall(r"`([^`]+)`", text)


def hints(path):
    """The hints of a hints file as the runner splits them: one per "## " heading."""
    found = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            found.append("")
        elif found:
            found[-1] += line + "\n"
    return found


def problems_of(lesson):
    problems = []
    readme, hints_file = lesson / "README.md", lesson / "hints.md"
    readme_zh, hints_zh = lesson / "README.zh.md", lesson / "hints.zh.md"
    for path in (readme_zh, hints_zh):
        if not path.exists():
            problems.append(f"{path}: missing")
    if problems:
        return problems
    title = readme_zh.read_text(encoding="utf-8").splitlines()[0]
    if not title.startswith("# ") or ": " not in title:
        problems.append(f"{readme_zh}: the first line must read '# 第 N 课: <title>' (the runner takes the title after ': ')")
    for span in code_spans(readme.read_text(encoding="utf-8")):
        if f"`{span}`" not in readme_zh.read_text(encoding="utf-8"):
            problems.append(f"{readme_zh}: lacks `{span}`")
    english, chinese = hints(hints_file), hints(hints_zh)
    if len(english) != len(chinese):
        problems.append(f"{hints_zh}: {len(chinese)} hints, {hints_file.name} has {len(english)}")
        return problems
    for number, (hint, translated) in enumerate(zip(english, chinese), start=1):
        for span in code_spans(hint):
            if f"`{span}`" not in translated:
                problems.append(f"{hints_zh}: hint {number} lacks `{span}`")
    return problems


def main():
    root = Path(sys.argv[1])
    lessons = sorted(path for path in (root / "lessons").iterdir() if re.match(r"\d\d-", path.name))
    problems = [problem for lesson in lessons for problem in problems_of(lesson)]
    if problems:
        print("\n".join(problems))
        sys.exit(1)
    print(f"{len(lessons)} lessons: README.zh.md and hints.zh.md say what the English files say")


if __name__ == "__main__":
    main()
