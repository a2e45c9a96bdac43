#!/usr/bin/env bash
# Every program in cpu-cuda/tests/mistakes/ makes one class of mistake: under
# `warpdrill run` on the CPU backend its report must hold each of the words
# its `// expect:` line lists (separated by |), name a line of the program
# itself, and show no frame of the standard library. The book's page of
# mistake classes quotes each report from book/mistakes/classes/NAME.txt:
# the copy must be what the backend says now (addresses aside), and
#   mistake_classes.sh WARPDRILL ROOT --write
# rewrites the copies of the reports that pass the checks above. The Chinese
# book quotes the report in Chinese (WARPDRILL_LANG=zh), from
# book/mistakes/classes/zh_CN/NAME.txt, held to the same rule and to holding
# no English sentence.
set -euo pipefail
warpdrill=$(realpath -e "$1")  # the checks run in a scratch folder
root=$(realpath -e "$2")
write=${3:-}
copies=$root/book/mistakes/classes
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
failed=0
# build PROGRAM: compiles it once, as `warpdrill run` would, into ./NAME
# (the compiler's own words, if any, into NAME.cc.txt).
build() {
  "$warpdrill" --root "$root" cc "$1" -o "$name" > "$name.cc.txt" 2>&1 || true
}
# report LANGUAGE: what `warpdrill run` says of the program, addresses aside:
# the compiler's words, then the program's, with the leak check run sets.
report() {
  {
    cat "$name.cc.txt"
    # One worker: blocks run in one order, so the report names the same block each time.
    if [[ -x $name ]]; then WARPDRILL_LANG=$1 WARPDRILL_CPU_WORKERS=1 WARPDRILL_LEAK_CHECK=1 "./$name" 2>&1 || true; fi
  } | sed -E 's/0x[0-9a-f]{6,}/0x.../g'
}
# same_as_copy REPORT COPY: the book's copy is the report (or, with --write,
# becomes it, where the report passed its checks).
same_as_copy() {
  if [[ $write == --write ]]; then
    if ((failed == failed_before)); then mkdir -p "$(dirname "$2")" && cp "$1" "$2"; fi
  elif ! diff -u "$2" "$1"; then
    echo "FAILED: the book's copy of $name's report is out of date: bash $0 WARPDRILL ROOT --write"
    failed=1
  fi
}
for program in "$root"/cpu-cuda/tests/mistakes/*.cu; do
  name=$(basename "$program" .cu)
  failed_before=$failed
  build "$program"
  report en > "$name.txt"
  report zh > "$name.zh.txt"
  IFS='|' read -ra words <<< "$(sed -n 's|^// expect: ||p' "$program")"
  [[ ${#words[@]} -gt 0 ]] || { echo "FAILED: $name has no // expect: line"; failed=1; continue; }
  for word in "${words[@]}"; do
    grep -qF -- "$word" "$name.txt" || { echo "FAILED: $name: no \"$word\" in:"; cat "$name.txt"; failed=1; }
  done
  grep -q "$name.cu:[0-9]" "$name.txt" || { echo "FAILED: $name: its own line is not named:"; cat "$name.txt"; failed=1; }
  if grep -q "/usr/include" "$name.txt"; then echo "FAILED: $name: a standard library frame:"; cat "$name.txt"; failed=1; fi
  python3 "$root/tests/messages/english_prose.py" "$name.zh.txt" || { echo "FAILED: $name: English in its Chinese report"; failed=1; }
  same_as_copy "$name.txt" "$copies/$name.txt"
  same_as_copy "$name.zh.txt" "$copies/zh_CN/$name.txt"
done
[[ $failed == 0 ]] && echo "mistake classes: all named"
exit $failed
