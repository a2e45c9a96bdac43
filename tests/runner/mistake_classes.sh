#!/usr/bin/env bash
# Every program in cpu-cuda/tests/mistakes/ makes one class of mistake: under
# `warpdrill run` on the CPU backend its report must hold each of the words
# its `// expect:` line lists (separated by |), name a line of the program
# itself, and show no frame of the standard library.
set -euo pipefail
warpdrill=$1
root=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
failed=0
for program in "$root"/cpu-cuda/tests/mistakes/*.cu; do
  name=$(basename "$program" .cu)
  "$warpdrill" --root "$root" run "$program" > "$name.txt" 2>&1 || true
  IFS='|' read -ra words <<< "$(sed -n 's|^// expect: ||p' "$program")"
  [[ ${#words[@]} -gt 0 ]] || { echo "FAILED: $name has no // expect: line"; failed=1; continue; }
  for word in "${words[@]}"; do
    grep -qF -- "$word" "$name.txt" || { echo "FAILED: $name: no \"$word\" in:"; cat "$name.txt"; failed=1; }
  done
  grep -q "$name.cu:[0-9]" "$name.txt" || { echo "FAILED: $name: its own line is not named:"; cat "$name.txt"; failed=1; }
  if grep -q "/usr/include" "$name.txt"; then echo "FAILED: $name: a standard library frame:"; cat "$name.txt"; failed=1; fi
done
[[ $failed == 0 ]] && echo "mistake classes: all named"
exit $failed
