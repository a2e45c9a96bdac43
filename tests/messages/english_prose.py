#!/usr/bin/env python3
"""Fails when a text meant to be Chinese holds English prose: three English
words in a row, outside `code`, identifiers, paths, numbers and commands.

    english_prose.py FILE    (- for standard input)

Names a learner types or reads as they are (warp, lane, kernel, CUDA's and
the tools' names, `warpdrill hint 2`) are single words or code, so they
pass; a sentence left untranslated does not.
"""
import re
import sys

CODE = re.compile(r"`[^`]*`")
# A word, once the punctuation around it is taken off; a token with a digit,
# a path's or an identifier's characters is code or data.
WORD = re.compile(r"^[A-Za-z]+$")
PUNCTUATION = "([\"'" + ")]\"',.;:!?"


def english_runs(line):
    """Each run of three or more English words in `line`."""
    runs, run = [], []
    for token in CODE.sub(" ", line).split():
        if WORD.match(token.strip(PUNCTUATION)):
            run.append(token)
            continue
        if len(run) >= 3:
            runs.append(" ".join(run))
        run = []
    if len(run) >= 3:
        runs.append(" ".join(run))
    return runs


def main(path):
    text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()
    found = [(number, run) for number, line in enumerate(text.splitlines(), 1) for run in english_runs(line)]
    for number, run in found:
        print(f"line {number}: English prose: \"{run}\"")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
