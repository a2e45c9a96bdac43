#!/usr/bin/env bash
# The book as HTML, in English and in Simplified Chinese, its local links and
# figures checked:  scripts/book.sh
# English: book/_build/html/index.html; Chinese: book/_build/html/zh_CN/index.html
# (each page's sidebar links to the other language). Debian: python3-sphinx python3-myst-parser.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/book/_build/html"
if ! command -v sphinx-build > /dev/null; then
  echo "book.sh: sphinx-build not found (Debian: apt-get install python3-sphinx python3-myst-parser)" >&2
  exit 2
fi
sphinx-build -W -q -b html "$root/book" "$out"
sphinx-build -W -q -b html -D language=zh_CN "$root/book" "$out/zh_CN"
python3 "$root/book/check_links.py" "$out"
echo "the book: $out/index.html   中文: $out/zh_CN/index.html"
