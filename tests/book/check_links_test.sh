#!/usr/bin/env bash
# book/check_links.py must find what it is there to find: a link to a missing
# page, a missing anchor, a missing figure and a figure that is not valid SVG,
# and pass a page without them.
set -euo pipefail
checker="$1/book/check_links.py"
site=$(mktemp -d)
trap 'rm -rf "$site"' EXIT
mkdir -p "$site/good" "$site/bad"
printf '<svg xmlns="http://www.w3.org/2000/svg"><title>ok</title></svg>' > "$site/good/figure.svg"
printf '<html><body><h2 id="part">x</h2><a href="#part">here</a><a href="https://example.org/">away</a>
<img src="figure.svg"></body></html>' > "$site/good/index.html"
python3 "$checker" "$site/good"

printf '<svg><title>a < b</title></svg>' > "$site/bad/broken.svg"
printf '<html><body><a href="missing.html">1</a><a href="index.html#nowhere">2</a>
<img src="absent.svg"><img src="broken.svg"></body></html>' > "$site/bad/index.html"
if python3 "$checker" "$site/bad" > "$site/report"; then
  echo "FAILED: the checker passed a page with broken links"
  exit 1
fi
for expected in "no such file" "no element with id 'nowhere'" "absent.svg" "not valid SVG"; do
  grep -q "$expected" "$site/report" || { cat "$site/report"; echo "FAILED: not reported: $expected"; exit 1; }
done
echo "the link checker passes a good page and names each kind of broken link"
