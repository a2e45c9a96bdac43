#!/usr/bin/env python3
"""The book's "Mistakes" sections, made from the course's own checks.

book/mistakes/mistakes.toml lists mistakes, each one change to a lesson's
solution. This script
  list                         prints id|lesson directory|checks, one mistake a line (for CMake)
  plant OUT                    writes OUT/<id>/: the solution's kernel files with the mistake made
  message ID PROGRAM --check   runs PROGRAM (the lesson's checks built against OUT/<id>), in
                               English and in Chinese, and fails unless its first failure equals
                               book/mistakes/<id>.txt and book/mistakes/zh_CN/<id>.txt
  message ID PROGRAM --write   writes those failures there (where they differ)
The failure is what `warpdrill check` shows: the first failure in the run's
record (common/include/warpdrill/check_record.h), with the input seed fixed
and one CPU worker, so that it is the same on every run, and paths as the
learner sees them (lessons/NN-name/...).
Standard library only (tomllib: Python 3.11).
"""
import argparse
import difflib
import json
import os
import re
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CATALOGUE = ROOT / "book" / "mistakes" / "mistakes.toml"
SEED = "20261123"
# The languages the checks speak (WARPDRILL_LANG), and where the book keeps each one's copies.
COPIES = {"en": CATALOGUE.parent, "zh": CATALOGUE.parent / "zh_CN"}


def mistakes():
    with CATALOGUE.open("rb") as file:
        return tomllib.load(file)["mistake"]


def lesson_dir(mistake):
    """solutions/NN-name/ for a mistake "NN-..."."""
    number = mistake["id"][:2]
    matches = sorted((ROOT / "solutions").glob(f"{number}-*"))
    if len(matches) != 1:
        sys.exit(f"{mistake['id']}: no single solutions/{number}-*/ directory")
    return matches[0]


def planted_text(mistake):
    source = lesson_dir(mistake) / mistake["file"]
    text = source.read_text()
    count = text.count(mistake["replace"])
    if count != 1:
        sys.exit(f"{mistake['id']}: the text to replace occurs {count} times in "
                 f"{source.relative_to(ROOT)}, not once: update book/mistakes/mistakes.toml\n"
                 f"{mistake['replace']}")
    return text.replace(mistake["replace"], mistake["with"])


def write_if_changed(path, text):
    if not path.exists() or path.read_text() != text:
        path.write_text(text)


def plant(out):
    for mistake in mistakes():
        target = Path(out) / mistake["id"]
        target.mkdir(parents=True, exist_ok=True)
        for source in lesson_dir(mistake).glob("*.cuh"):
            text = planted_text(mistake) if source.name == mistake["file"] else source.read_text()
            write_if_changed(target / source.name, text)


def first_failure(record_file):
    """The first failure the run's record holds, as runner/core/checker.cpp takes it, or None."""
    for line in Path(record_file).read_text().splitlines():
        event = json.loads(line)
        if event["event"] == "case" and event["failures"]:
            return event["failures"][0]
    return None


def message(mistake_id, program, planted_dir, language):
    mistake = next((m for m in mistakes() if m["id"] == mistake_id), None)
    if mistake is None:
        sys.exit(f"no mistake {mistake_id} in {CATALOGUE.relative_to(ROOT)}")
    with tempfile.TemporaryDirectory() as scratch:
        record = Path(scratch) / "record.jsonl"
        record.touch()
        env = dict(os.environ, WARPDRILL_SEED=SEED, WARPDRILL_CPU_WORKERS="1", WARPDRILL_LANG=language,
                   WARPDRILL_RESULT_FILE=str(record))
        run = subprocess.run([program, mistake["checks"]], env=env, capture_output=True, text=True, timeout=300)
        failure = first_failure(record)
    if run.returncode == 0 or failure is None:
        sys.exit(f"{mistake_id}: the checks did not fail (exit {run.returncode}):\n{run.stdout}{run.stderr}")
    learner_dir = f"lessons/{lesson_dir(mistake).name}/"
    planted = Path(planted_dir).resolve() / mistake_id
    # The backend names files relative to the course's root where it can.
    for path in (planted, planted.relative_to(ROOT) if planted.is_relative_to(ROOT) else None):
        if path is not None:
            failure = failure.replace(f"{path}/", learner_dir)
    return failure.replace(f"{ROOT}/", "")


def which_threads_aside(text):
    """The message with the blocks, ranks, threads, warps and lanes it names masked: where several
    blocks run at once (a cooperative launch runs one OS thread per block, whatever
    WARPDRILL_CPU_WORKERS says), which of them the backend catches first varies from run to run."""
    text = re.sub(r"\(\d+,\d+,\d+\)", "(B)", text)
    return re.sub(r"(\b(?:rank|thread|warp|lane)|线程) \d+", r"\1 N", text)


def check_or_write(args):
    for language, copies in COPIES.items():
        check_or_write_one(args, language, copies / f"{args.id}.txt")


def check_or_write_one(args, language, committed):
    text = message(args.id, args.program, args.planted, language)
    old = committed.read_text() if committed.exists() else ""
    mistake = next(m for m in mistakes() if m["id"] == args.id)
    same = old == text or (mistake.get("threads_vary", False) and bool(old)
                           and which_threads_aside(old) == which_threads_aside(text))
    if args.write:
        if not same:
            committed.parent.mkdir(exist_ok=True)
            committed.write_text(text)
        print(f"{committed.relative_to(ROOT)}: {'unchanged' if same else 'written'}")
    elif not same:
        sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), text.splitlines(True),
                                                   f"{committed.relative_to(ROOT)} (in the book)",
                                                   "what the checks print now"))
        sys.exit("the book's copy of this message is out of date: cmake --build build/cpu --target book-messages")
    else:
        print(text, end="")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("list")
    plant_command = commands.add_parser("plant")
    plant_command.add_argument("out")
    message_command = commands.add_parser("message")
    message_command.add_argument("id")
    message_command.add_argument("program")
    message_command.add_argument("--planted", required=True, help="the directory `plant` wrote")
    mode = message_command.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true")
    mode.add_argument("--write", action="store_true")
    args = parser.parse_args()

    if args.command == "list":
        for mistake in mistakes():
            print(f"{mistake['id']}|{lesson_dir(mistake).name}|{mistake['checks']}")
    elif args.command == "plant":
        plant(args.out)
    else:
        check_or_write(args)


if __name__ == "__main__":
    main()
