#!/usr/bin/env bash
# The learner's loop, timed: save a kernel file, wait for `warpdrill check N`.
# For each lesson, solved (its solution in place) and broken (as shipped), it
# saves a change to the lesson's kernel file (a comment appended: the text
# changes, so where nvcc is installed its compile check runs too, as after a
# learner's edit; --touch only touches the files, which leaves nvcc's check
# out) and times `warpdrill check N --timings` from the command to its
# verdict, --runs times after one untimed run, and prints the medians: the
# whole wait, and the build, the checks and the wait for nvcc after them as
# the runner's own split reports them. It works in a scratch copy of the course
# at git HEAD (made once in --work, set up by its ./warpdrill), never in your
# own lessons.
#   bench/feedback-loop.sh [--runs R] [--lessons "1 2 3"] [--work DIR] [--touch]
set -euo pipefail
course=$(cd "$(dirname "$0")/.." && pwd)
runs=5
lessons="1 2 3 4 5 6 7 8 9"
work=$course/build/feedback-loop
save=edit
while (($#)); do
  case $1 in
    --runs) runs=$2; shift ;;
    --lessons) lessons=$2; shift ;;
    --work) work=$2; shift ;;
    --touch) save=touch ;;
    *) echo "usage: bench/feedback-loop.sh [--runs R] [--lessons \"1 2 3\"] [--work DIR] [--touch]" >&2; exit 2 ;;
  esac
  shift
done

scratch=$work/course
if [[ ! -x $scratch/warpdrill ]]; then
  mkdir -p "$scratch"
  git -C "$course" archive --format=tar HEAD | tar -xf - -C "$scratch"
  echo "feedback-loop: setting up a scratch course in $scratch (once) ..." >&2
  (cd "$scratch" && CI=true ./warpdrill list > /dev/null)
fi

lesson_dir() { echo "$scratch"/lessons/"$(printf %02d "$1")"-*; }
solution_dir() { echo "$scratch"/solutions/"$(printf %02d "$1")"-*; }
pristine=$work/pristine
rm -rf "$pristine" && mkdir -p "$pristine" && cp -r "$scratch/lessons/." "$pristine/"

# Puts lesson N in STATE (solved: its solution's kernel files; broken: as shipped).
put() {
  local dir; dir=$(lesson_dir "$1")
  cp "$pristine/$(basename "$dir")"/*.cuh "$dir/"
  [[ $2 == solved ]] && cp "$(solution_dir "$1")"/*.cuh "$dir/"
  return 0
}

# One save and verdict: prints "WALL BUILD CHECKS NVCC_WAIT" in seconds.
saves=0
time_once() {
  local dir out begun ended files
  dir=$(lesson_dir "$1")
  files=("$dir"/*.cuh)
  if [[ $save == touch ]]; then
    touch "${files[@]}"
  else
    echo "// save $((++saves))" >> "${files[0]}"
  fi
  begun=$(date +%s.%N)
  out=$(cd "$scratch" && ./warpdrill check "$1" --timings 2>&1) || true
  ended=$(date +%s.%N)
  awk -v begun="$begun" -v ended="$ended" '
    / s  build \(/ { build += $1 } / s  checks \(/ { checks += $1 } / s  waiting for nvcc/ { nvcc += $1 }
    END { printf "%.3f %.3f %.3f %.3f\n", ended - begun, build, checks, nvcc }' <<< "$out"
}

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "| lesson | state | save to verdict, s | build, s | checks, s | then nvcc, s |"
echo "| --- | --- | --- | --- | --- | --- |"
for lesson in $lessons; do
  for state in solved broken; do
    put "$lesson" "$state"
    time_once "$lesson" > /dev/null  # untimed: builds what the change left to build
    samples=$(for ((r = 0; r < runs; r++)); do time_once "$lesson"; done)
    wall=$(cut -d' ' -f1 <<< "$samples" | median)
    build=$(cut -d' ' -f2 <<< "$samples" | median)
    checks=$(cut -d' ' -f3 <<< "$samples" | median)
    nvcc=$(cut -d' ' -f4 <<< "$samples" | median)
    printf "| %s | %s | %.2f | %.2f | %.2f | %.2f |\n" "$lesson" "$state" "$wall" "$build" "$checks" "$nvcc"
  done
  put "$lesson" broken
done
echo
nvcc=$(command -v nvcc || ls /usr/local/cuda/bin/nvcc 2> /dev/null || echo "no nvcc")
echo "Median of $runs saves per row ($save) after one untimed; $nvcc; $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs);" \
     "$(. /etc/os-release && echo "$PRETTY_NAME"); $(date -u +%Y-%m-%d); bench/feedback-loop.sh --runs $runs --lessons \"$lessons\"$([[ $save == touch ]] && echo " --touch")."
