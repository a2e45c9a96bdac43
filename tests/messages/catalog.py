#!/usr/bin/env python3
"""The message catalog (messages/*.toml) holds together:

- every message has English and Chinese wording with the same {fields};
- a CUDA term of the glossary (messages/glossary.toml) in a message's English
  has the term's one Chinese rendering in its Chinese;
- every id the code asks for is in the catalog, and every message in the
  catalog is asked for somewhere (an unused one is wording nobody reads):
  the C++ code's, and the set-up's bash (scripts/*.sh, ./warpdrill), which
  asks through its `message` function;
- the ids the code makes up from data match their data: each package of
  packages/debian.txt has its purpose (setup.package.NAME), each case
  cmake/Backend.cmake records its reason (setup.backend_reason.CASE), each
  row of the profile's metric table (runner/profile/metrics.toml) its words
  (profile.row.KEY), and the catalog has no purpose, reason or row's words
  without its package, case or row.

    catalog.py SOURCE_DIR
"""
import re
import sys
import tomllib
from pathlib import Path

FIELD = re.compile(r"\{([a-z0-9_]+)\}")
# A message id as the code writes it: "check.line", "status.not_tried".
ID_LITERAL = re.compile(r'"([a-z][a-z0-9_]*(?:\.[a-z0-9_]+)+)"')
# An id passed straight to messages::text(), with or without a language first.
ASKED = re.compile(r'\btext\((?:[^(),"]*,\s*)?"([a-z][a-z0-9_]*(?:\.[a-z0-9_]+)+)"')
# An id passed to the set-up's bash function: message setup.install.ask command="$command".
# An id that goes on with a variable ("setup.package.$1") is made up from data.
BASH_ASKED = re.compile(r'\bmessage\s+"?([a-z][a-z0-9_]*(?:\.[a-z0-9_]+)+)(?![\w.$-])')
# The ids the code makes up from data: what a package is for, why this backend,
# what a row of the profile counts.
PURPOSE = "setup.package."
BACKEND_REASON = "setup.backend_reason."
PROFILE_ROW = "profile.row."
# A case of cmake/Backend.cmake: set(_case auto_gpu).
BACKEND_CASE = re.compile(r"set\(_case (\w+)\)")


def messages_of(table, path=""):
    """{id: (english, chinese)} of a catalog file's tables, as messages.cpp reads them."""
    found = {}
    if isinstance(table.get("en"), str) and isinstance(table.get("zh"), str):
        found[path] = (table["en"], table["zh"])
    elif "en" in table or "zh" in table:
        raise ValueError(f"{path}: a message needs both en and zh")
    for key, value in table.items():
        if isinstance(value, dict):
            found.update(messages_of(value, f"{path}.{key}" if path else key))
    return found


def made_up_problems(source, catalog):
    """What does not hold between the ids made up from data and the catalog:
    a purpose for each package of packages/debian.txt and for no other, a
    reason for each case of cmake/Backend.cmake and for no other, words for
    each row of the profile's metric table (its entries with a basis) and for
    no other."""
    packages = {line.split()[0] for line in (source / "packages" / "debian.txt").read_text().splitlines()
                if line.strip() and not line.startswith("#")}
    cases = set(BACKEND_CASE.findall((source / "cmake" / "Backend.cmake").read_text()))
    metrics = tomllib.loads((source / "runner" / "profile" / "metrics.toml").read_text())["metric"]
    rows = {metric["key"] for metric in metrics if "basis" in metric}
    problems = []
    for prefix, names, where in ((PURPOSE, packages, "packages/debian.txt"),
                                 (BACKEND_REASON, cases, "cmake/Backend.cmake"),
                                 (PROFILE_ROW, rows, "runner/profile/metrics.toml")):
        in_catalog = {message_id.removeprefix(prefix) for message_id in catalog if message_id.startswith(prefix)}
        problems += [f"{prefix}{name}: not in the catalog, for {where}" for name in sorted(names - in_catalog)]
        problems += [f"{prefix}{name}: {where} has no {name}" for name in sorted(in_catalog - names)]
    return problems


def prose(text):
    """The words a reader reads: code spans, paths, file names and fields taken out."""
    return FIELD.sub(" ", re.sub(r"`[^`]*`|\S*/\S*|\S+\.[a-z]{2,4}\b", " ", text))


def main(source_dir):
    source = Path(source_dir)
    problems = []
    catalog = {}
    for file in sorted((source / "messages").glob("*.toml")):
        if file.name == "glossary.toml":
            continue
        for message_id, wording in messages_of(tomllib.loads(file.read_text())).items():
            if message_id in catalog:
                problems.append(f"{file.name}: {message_id} is in the catalog twice")
            catalog[message_id] = wording
    terms = tomllib.loads((source / "messages" / "glossary.toml").read_text())["terms"]

    for message_id, (english, chinese) in catalog.items():
        if set(FIELD.findall(english)) != set(FIELD.findall(chinese)):
            problems.append(f"{message_id}: the fields differ: en {sorted(set(FIELD.findall(english)))}, "
                            f"zh {sorted(set(FIELD.findall(chinese)))}")
        if not chinese.strip() or chinese == english:
            problems.append(f"{message_id}: no Chinese wording")
        for term, rendering in terms.items():
            if re.search(rf"\b{re.escape(term)}(s|es)?\b", prose(english), re.IGNORECASE) and rendering not in chinese:
                problems.append(f"{message_id}: the English says \"{term}\", the Chinese lacks \"{rendering}\"")

    code = {}
    for folder in ("runner", "cpu-cuda", "common", "lessons", "bench"):
        for file in (source / folder).rglob("*"):
            if file.suffix in (".cpp", ".h", ".cu", ".cuh") and file.is_file():
                code[file] = file.read_text(errors="replace")
    scripts = {file: file.read_text() for file in [*sorted((source / "scripts").glob("*.sh")), source / "warpdrill"]}
    problems += made_up_problems(source, catalog)
    literals = {literal for text in code.values() for literal in ID_LITERAL.findall(text)}
    literals |= {message_id for text in scripts.values() for message_id in BASH_ASKED.findall(text)}
    asked = [(file, ASKED.findall(text)) for file, text in code.items()]
    asked += [(file, BASH_ASKED.findall(text)) for file, text in scripts.items()]
    for file, message_ids in asked:
        for message_id in message_ids:
            if message_id not in catalog:
                problems.append(f"{file.relative_to(source)}: asks for {message_id}, which the catalog lacks")
    for message_id in catalog:
        # made_up_problems holds the made-up ids to their packages and cases.
        if message_id not in literals and not message_id.startswith((PURPOSE, BACKEND_REASON, PROFILE_ROW)):
            problems.append(f"{message_id}: no code asks for it")

    for problem in problems:
        print(problem)
    print(f"{len(catalog)} messages, {len(terms)} glossary terms: "
          f"{'every one holds' if not problems else f'{len(problems)} problems'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
