#!/usr/bin/env python3
"""Checks the built book offline: every local link (href) and every image or
script (src) of every HTML page under the given directories must lead to a
file that exists, an anchor (#id) to an element of that page, and a figure to
a non-empty file that parses (SVG as XML). Links to other sites are not
followed: Sphinx's linkcheck needs the internet, this does not.

  python3 book/check_links.py book/_build/html [more directories ...]

Exits 1 and names each broken link with the page it is on. Standard library only.
"""
import re
import sys
import xml.etree.ElementTree as ElementTree
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

LINKING_ATTRIBUTES = {"href", "src", "data"}
FIGURE_SUFFIXES = {".svg", ".png", ".jpg", ".jpeg", ".gif"}


class Page(HTMLParser):
    """The links and the anchors (id and name attributes) of one HTML page."""

    def __init__(self, text):
        super().__init__()
        self.links, self.anchors = [], set()
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if value is None:
                continue
            if name in ("id", "name"):
                self.anchors.add(value)
            elif name in LINKING_ATTRIBUTES:
                self.links.append((tag, value))


def is_local(link):
    return not re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", link) and not link.startswith("//")


def figure_problem(path):
    if path.stat().st_size == 0:
        return "an empty file"
    if path.suffix == ".svg":
        try:
            ElementTree.parse(path)
        except ElementTree.ParseError as error:
            return f"not valid SVG ({error})"
    return None


def check(roots):
    pages = {}

    def page(path):
        if path not in pages:
            pages[path] = Page(path.read_text(encoding="utf-8"))
        return pages[path]

    problems, checked = [], 0
    for root in roots:
        for html in sorted(Path(root).rglob("*.html")):
            for tag, link in page(html).links:
                if not link or not is_local(link):
                    continue
                checked += 1
                parts = urlsplit(link)
                target = html if not parts.path else (html.parent / unquote(parts.path)).resolve()
                if target.is_dir():
                    target = target / "index.html"
                where = f"{html}: <{tag}> {link}"
                if not target.exists():
                    problems.append(f"{where}: no such file {target}")
                    continue
                if target.suffix.lower() in FIGURE_SUFFIXES and (problem := figure_problem(target)):
                    problems.append(f"{where}: {problem}")
                if parts.fragment and target.suffix == ".html" and unquote(parts.fragment) not in page(target).anchors:
                    problems.append(f"{where}: no element with id '{parts.fragment}' in {target.name}")
    return problems, checked, len(pages)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    missing = [root for root in sys.argv[1:] if not Path(root).is_dir()]
    if missing:
        sys.exit(f"not a directory: {', '.join(missing)} (build the book first)")
    problems, checked, pages = check(sys.argv[1:])
    if problems:
        print(f"{len(problems)} broken links or figures:")
        print("\n".join(problems))
        sys.exit(1)
    print(f"{checked} local links and figures on {pages} pages, none broken")


if __name__ == "__main__":
    main()
