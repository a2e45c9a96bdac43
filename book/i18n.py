#!/usr/bin/env python3
"""The book's translations: one gettext catalogue per chapter under
locales/<language>/LC_MESSAGES/, made and checked with Sphinx's own gettext
builder and GNU gettext's msgmerge and msginit (Debian: gettext).

  python3 book/i18n.py update   extract the English text and merge it into the
                                catalogues: new paragraphs arrive with an empty
                                msgstr, changed ones marked fuzzy with the old
                                translation beside them
  python3 book/i18n.py check    fail, naming each one, when a paragraph of the
                                English book has no translation (missing, empty
                                or fuzzy) in a catalogue

Both extract into a temporary directory, so `check` sees the book as it is
now, not as it was when the catalogues were last updated. Standard library only.
"""
import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

BOOK = Path(__file__).resolve().parent
LANGUAGE = "zh_CN"
CATALOGUES = BOOK / "locales" / LANGUAGE / "LC_MESSAGES"


def extract(sphinx_build, out):
    """The English text as .pot files, one per document, with line numbers for messages."""
    subprocess.run([sphinx_build, "-q", "-E", "-b", "gettext", "-D", "gettext_location=1", str(BOOK), str(out)],
                   check=True)
    return sorted(out.rglob("*.pot"))


ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}


def unquote(lines):
    """The text of a PO string's quoted lines."""
    return "".join(re.sub(r"\\(.)", lambda m: ESCAPES.get(m.group(1), m.group(1)), line.strip()[1:-1])
                   for line in lines)


def entries(path):
    """(msgid, msgstr, fuzzy, locations) for every entry of a .po or .pot file, the header and
    obsolete (#~) entries left out."""
    found = []
    blocks = re.split(r"\n\s*\n", path.read_text(encoding="utf-8"))
    for block in blocks:
        lines = [line for line in block.splitlines() if not line.startswith("#~")]
        flags = " ".join(line for line in lines if line.startswith("#,"))
        locations = " ".join(line[3:] for line in lines if line.startswith("#: "))
        fields, current = {}, None
        for line in lines:
            if line.startswith("msgid "):
                current = "msgid"
            elif line.startswith("msgstr "):
                current = "msgstr"
            elif line.startswith("msgctxt ") or line.startswith("#"):
                current = None
                continue
            if current and line.strip():
                fields.setdefault(current, []).append(line.split(" ", 1)[1] if line.startswith("msg") else line)
        if "msgid" not in fields:
            continue
        msgid = unquote(fields["msgid"])
        if msgid:
            found.append((msgid, unquote(fields.get("msgstr", ['""'])), "fuzzy" in flags, locations))
    return found


def source_of(locations, pot_dir):
    """"book/lessons/03-....md:12" from a location the gettext builder wrote relative to its output."""
    path, _, line = locations.split()[0].rpartition(":")
    source = (pot_dir / path).resolve()
    shown = source.relative_to(BOOK.parent) if source.is_relative_to(BOOK.parent) else source
    return f"{shown}:{line}"


def without_date(catalogue):
    return re.sub(r'"POT-Creation-Date: [^"]*"', "", catalogue)


def catalogue_for(pot, pot_dir):
    return CATALOGUES / pot.relative_to(pot_dir).with_suffix(".po")


def update(sphinx_build):
    with tempfile.TemporaryDirectory() as scratch:
        pot_dir = Path(scratch)
        for pot in extract(sphinx_build, pot_dir):
            po = catalogue_for(pot, pot_dir)
            po.parent.mkdir(parents=True, exist_ok=True)
            if po.exists():
                before = po.read_text(encoding="utf-8")
                subprocess.run(["msgmerge", "--quiet", "--update", "--backup=none", "--no-location",
                                "--no-wrap", str(po), str(pot)], check=True)
                # Paragraphs no longer in the book: their old translations go too.
                subprocess.run(["msgattrib", "--no-obsolete", "--no-wrap", f"--output-file={po}", str(po)],
                               check=True)
                if without_date(po.read_text(encoding="utf-8")) == without_date(before):
                    po.write_text(before, encoding="utf-8")  # only the extraction's date moved
                    continue
            else:
                subprocess.run(["msginit", "--no-translator", f"--locale={LANGUAGE}.UTF-8", "--no-wrap",
                                f"--input={pot}", f"--output-file={po}"], check=True, capture_output=True)
                subprocess.run(["msgattrib", "--no-location", "--no-wrap", f"--output-file={po}", str(po)],
                               check=True)
            print(f"updated {po.relative_to(BOOK.parent)}")


def check(sphinx_build):
    missing = []
    with tempfile.TemporaryDirectory() as scratch:
        pot_dir = Path(scratch)
        for pot in extract(sphinx_build, pot_dir):
            po = catalogue_for(pot, pot_dir)
            translated = {msgid: (msgstr, fuzzy) for msgid, msgstr, fuzzy, _ in entries(po)} if po.exists() else {}
            for msgid, _, _, locations in entries(pot):
                msgstr, fuzzy = translated.get(msgid, ("", False))
                if msgstr and not fuzzy:
                    continue
                where = source_of(locations, pot_dir) if locations else pot.name
                state = "fuzzy" if fuzzy else ("no translation" if msgid in translated else "not in the catalogue")
                text = msgid if len(msgid) <= 100 else msgid[:97] + "..."
                missing.append(f"{where}: {state} ({po.relative_to(BOOK.parent)}):\n    {text}")
    if missing:
        print(f"{len(missing)} paragraphs of the English book have no {LANGUAGE} translation "
              f"(python3 book/i18n.py update, then translate them):")
        print("\n".join(missing))
        sys.exit(1)
    print(f"every paragraph of the book has a {LANGUAGE} translation")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=["update", "check"])
    parser.add_argument("--sphinx-build", default="sphinx-build")
    args = parser.parse_args()
    (update if args.command == "update" else check)(args.sphinx_build)


if __name__ == "__main__":
    main()
