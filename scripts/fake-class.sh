#!/usr/bin/env bash
# Makes a class of fake learners' checkouts, to try `warpdrill grade-all` on
# and to time it (results/grade-all.md): copies of the handout, one in five
# each solved in full, solved to lesson 5, solved with the usual slips of
# tests/course/ (lesson 3 loses the last element, lesson 5 unrolls the last
# warp with volatile), broken (a syntax error in lesson 4, a loop that never
# ends in lesson 2, a damaged progress file), and untouched.
#   scripts/fake-class.sh DESTINATION COUNT
set -euo pipefail
[[ $# -eq 2 ]] || { echo "usage: $0 DESTINATION COUNT" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
dest=$1
count=$2
[[ -e "$dest" ]] && { echo "$dest exists; choose a new directory" >&2; exit 1; }
mkdir -p "$dest"
handout="$dest/.handout"
"$root/build/cpu/runner/warpdrill" --root "$root" handout "$handout" > /dev/null 2>&1 ||
  "$root/warpdrill" handout "$handout" > /dev/null

solve_from() {  # solve_from LEARNER FIRST LAST: lessons FIRST to LAST from solutions/
  local lesson name
  for lesson in "$root"/solutions/*/; do
    name=$(basename "$lesson")
    ((10#${name:0:2} >= $2 && 10#${name:0:2} <= $3)) && cp "$lesson"*.cuh "$dest/$1/lessons/$name/"
  done
  return 0
}

for ((i = 0; i < count; i++)); do
  learner=$(printf 'learner%03d' "$i")
  cp -r "$handout" "$dest/$learner"
  case $((i % 5)) in
    0) solve_from "$learner" 1 99 ;;
    1) solve_from "$learner" 1 5 ;;
    2)
      solve_from "$learner" 1 99
      # The slips' kernels; their shuffle.cuh only includes the solution's, which a handout lacks.
      cp "$root"/tests/course/lesson03-last-element-lost/reduce.cuh "$dest/$learner/lessons/03-sequential-addressing/"
      cp "$root"/tests/course/volatile-last-warp/reduce.cuh "$dest/$learner/lessons/05-unroll-last-warp/"
      ;;
    3)
      solve_from "$learner" 1 99
      echo "this is not C++;" >> "$dest/$learner/lessons/04-first-add-during-load/reduce.cuh"
      sed -i 's|for (unsigned stride = 1; stride < blockDim.x; stride \*= 2)|for (unsigned stride = 1; stride < blockDim.x; stride * 2)|' \
        "$dest/$learner/lessons/02-interleaved-strided/reduce.cuh"
      mkdir -p "$dest/$learner/.progress"
      echo "this is [[ not toml" > "$dest/$learner/.progress/progress.toml"
      ;;
    4) ;;  # as handed out
  esac
done
rm -rf "$handout"
echo "$count fake checkouts in $dest"
