#!/usr/bin/env python3
"""The message catalog (messages/*.toml) holds together:

- every message has English and Chinese wording with the same {fields};
- a CUDA term of the glossary (messages/glossary.toml) in a message's English
  has the term's one Chinese rendering in its Chinese;
- every id the code asks for is in the catalog, and every message in the
  catalog is asked for somewhere (an unused one is wording nobody reads).

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
    literals = {literal for text in code.values() for literal in ID_LITERAL.findall(text)}
    for file, text in code.items():
        for message_id in ASKED.findall(text):
            if message_id not in catalog:
                problems.append(f"{file.relative_to(source)}: asks for {message_id}, which the catalog lacks")
    for message_id in catalog:
        if message_id not in literals:
            problems.append(f"{message_id}: no code asks for it")

    for problem in problems:
        print(problem)
    print(f"{len(catalog)} messages, {len(terms)} glossary terms: "
          f"{'every one holds' if not problems else f'{len(problems)} problems'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
