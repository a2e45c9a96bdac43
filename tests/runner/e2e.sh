#!/usr/bin/env bash
# The warpdrill command end to end, on a scratch copy of the course (lessons 1,
# 2, 3, 10 and 12), as a learner and an instructor would use it: check, pass,
# list, hints, the loop in Chinese, a damaged progress file, a compile error, a kernel that never
# ends, reset, solution, profile, grade, the interactive watch under a
# pseudo-terminal, a lesson this GPU cannot run, a handout copy without
# solutions/, and a lesson scaffolded by new, proven by verify, profiled and
# (where nvcc is) in the GPU benchmark, then left without a workload in the
# course's manifest. The warpdrill program is the one the
# suite built: --root and --build-dir point it at the scratch copy, which
# builds only the lessons' checks, linked with the common libraries that the
# suite built in LIBRARIES (its build directory; cmake/Libraries.cmake).
# Where nvcc is installed (NVCC, which the warpdrill program was built to
# use), a kernel that only the CPU backend accepts is named by nvcc.
#   tests/runner/e2e.sh WARPDRILL SOURCE_DIR LIBRARIES [NVCC]
set -euo pipefail
warpdrill=$1
source_dir=$(cd "$2" && pwd)
libraries=$(cd "$3" && pwd)
nvcc=${4:-}
# Every check but the one about nvcc runs without it: each would wait for nvcc's compile.
export WARPDRILL_NVCC_CHECK=0
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
course="$scratch/a course"  # a path with a space, as many home directories have
fail() { echo "FAILED: $*" >&2; exit 1; }
expect() {  # expect TEXT FILE: the file contains the text
  grep -qF -- "$1" "$2" || { cat "$2"; fail "expected '$1'"; }
}

mkdir -p "$course"
tar -C "$source_dir" --exclude=./build --exclude=./.progress --exclude=./.git --exclude=./.deps \
  --exclude=./book/_build -cf - . | tar -C "$course" -xf -
# The lessons as git's HEAD has them, whatever a learner has done to this checkout's.
if git -C "$source_dir" rev-parse -q --verify HEAD > /dev/null 2>&1; then
  git -C "$source_dir" archive HEAD lessons | tar -C "$course" -xf -
fi
# Only the lessons this test works with: the runner finds lessons on disk,
# and every other one would only lengthen the rebuild from the checks and grade.
kept='01|02|03|10|12'
for dir in "$course"/lessons/[0-9][0-9]-* "$course"/solutions/[0-9][0-9]-*; do
  [[ $(basename "$dir") =~ ^($kept)- ]] || rm -rf "$dir"
done
# grading.toml names the lessons it gives points of their own: only those kept.
awk -v kept="$kept" '/^\[lessons\./ { dropping = $0 !~ "^\\[lessons\\.(" kept ")-" } !dropping' \
  "$source_dir/grading.toml" > "$course/grading.toml"
git -C "$course" init -q
git -C "$course" add -A
git -C "$course" -c user.name=learner -c user.email=learner@localhost commit -qm "the course as handed out"

cmake -S "$course" -B "$course/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWARPDRILL_BACKEND=cpu -DWARPDRILL_PRECOMPILED_RUNTIME=ON \
  -DWARPDRILL_BUILD_TESTS=OFF "-DWARPDRILL_LIBRARIES_FROM=$libraries" > "$scratch/configure.log"
W=("$warpdrill" --root "$course" --build-dir "$course/build")
lessons=$(find "$course/lessons" -mindepth 1 -maxdepth 1 -name '[0-9][0-9]-*' -type d | wc -l)
lesson1="$course/lessons/01-interleaved-divergent"
out="$scratch/out.txt"

echo "-- a lesson as shipped fails, says why and what to edit, and no more"
if "${W[@]}" check 1 > "$out" 2>&1; then fail "lesson 1 passes as shipped"; fi
expect "lesson 1 (interleaved addressing with a divergent branch): failed" "$out"
expect "block_sums[0] = NaN, but the reference is" "$out"
expect "WARPDRILL_SEED=" "$out"
expect "Edit: lessons/01-interleaved-divergent/reduce.cuh" "$out"
expect "warpdrill hint 1" "$out"
for noise in "FAILED:" "Hint:" "explicitly with message" "due to unexpected exception" "backend: CPU" "======="; do
  if grep -qF -- "$noise" "$out"; then cat "$out"; fail "the learner sees '$noise'"; fi
done
[[ $(grep -c "hint 1" "$out") == 1 ]] || { cat "$out"; fail "the hint command is shown more than once"; }

echo "-- the solved lesson passes and the progress says so"
cp "$course"/solutions/01-interleaved-divergent/*.cuh "$lesson1/"
"${W[@]}" check 1 > "$out" 2>&1 || { cat "$out"; fail "the solved lesson 1 does not pass"; }
expect "passed" "$out"
expect "passed = true" "$course/.progress/progress.toml"
"${W[@]}" list > "$out"
expect "1/$lessons lessons done" "$out"
expect "CPU backend (./warpdrill --backend cpu|gpu switches)" "$out"
"${W[@]}" check > "$out" 2>&1 || true
expect "lesson 2 (" "$out"
# cudacc keeps cuda_runtime.h precompiled for the lessons (as the course's
# presets have it): made once, though every path of this course has a space.
made=$(stat -c '%n %y' "$course"/build/cudacc-pch/*/cuda_runtime.h.gch)
touch "$lesson1/reduce.cuh"
"${W[@]}" check 1 --timings > "$out" 2>&1 || { cat "$out"; fail "check --timings"; }
[[ $(stat -c '%n %y' "$course"/build/cudacc-pch/*/cuda_runtime.h.gch) == "$made" ]] ||
  fail "the precompiled cuda_runtime.h was made again for an unchanged header: $made"
expect "where the seconds went:" "$out"
expect "s  build (cmake --build, the lesson's target)" "$out"
expect "s  checks (the check program, start to exit)" "$out"
# A kernel file that names __CUDA_ARCH__ is read through a mirror that answers
# it; once built, the lesson is up to date (the depfile names no mirror file).
printf '%s\n' '#if __CUDA_ARCH__ >= 800' '#endif' >> "$lesson1/reduce.cuh"
"${W[@]}" check 1 > "$out" 2>&1 || { cat "$out"; fail "lesson 1 with a test of __CUDA_ARCH__"; }
cmake --build "$course/build" --target lesson-01 -- -n > "$out"
expect "ninja: no work to do." "$out"
cp "$course"/solutions/01-interleaved-divergent/reduce.cuh "$lesson1/"

echo "-- hints come one after another"
"${W[@]}" hint 2 > "$out"; expect "Hint 1 of" "$out"
"${W[@]}" hint 2 > "$out"; expect "Hint 2 of" "$out"

echo "-- profile: a passing lesson's counts; a failing one gets what check says; two lessons compared"
"${W[@]}" profile 1 > "$out" 2>&1 || { cat "$out"; fail "profile 1 of the solved lesson"; }
expect "global loads: 32-byte sectors" "$out"
expect "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum" "$out"
"${W[@]}" list > "$out"
expect "(modelled)" "$out"
if "${W[@]}" profile 2 > "$out" 2>&1; then fail "the profile of a failing lesson printed a table"; fi
expect "lesson 2 (" "$out"
expect "warpdrill profile measures a lesson once its checks pass" "$out"
"${W[@]}" profile 2 --solution --compare 3 > "$out" 2>&1 || { cat "$out"; fail "profile --compare"; }
expect "What moved most, lesson 2 -> 3: shared loads: bank conflicts" "$out"
"${W[@]}" profile 3 --solution --json --gpu a100 > "$out" 2>&1 || { cat "$out"; fail "profile --json"; }
python3 -c "import json, sys; assert json.load(open(sys.argv[1]))['gpu'] == 'a100'" "$out" || fail "profile --json"

echo "-- check says what moved when a lesson first passes, and only then"
lesson3="$course/lessons/03-sequential-addressing"
cp "$course"/solutions/03-sequential-addressing/*.cuh "$lesson3/"
"${W[@]}" check 3 > "$out" 2>&1 || { cat "$out"; fail "the solved lesson 3 does not pass"; }
expect "What moved, lesson 1 -> 3 (your kernels, 2^20 floats, modelled on an H100): " "$out"
"${W[@]}" check 3 > "$out" 2>&1 || { cat "$out"; fail "lesson 3 passes no more"; }
if grep -qF "What moved" "$out"; then cat "$out"; fail "check said what moved on a second pass"; fi
"${W[@]}" --yes reset 3 > "$out" 2>&1 || { cat "$out"; fail "reset 3"; }

echo "-- the loop in Chinese: a failing lesson, a barrier in a branch, a race, an out-of-bounds read, a hint, a first pass"
ZH=("${W[@]}" --lang zh)
chinese() {  # chinese FILE: what a Chinese check printed holds no English prose
  python3 "$source_dir/tests/messages/english_prose.py" "$1" || { cat "$1"; fail "English prose in a Chinese check"; }
}
if "${ZH[@]}" check 2 > "$out" 2>&1; then fail "lesson 2 passes as shipped"; fi
expect "第 2 课（" "$out"
expect "提示：warpdrill hint 2" "$out"
chinese "$out"
python3 "$source_dir/tests/book/mistakes.py" plant "$scratch/mistakes"
for mistake in 03-barrier-in-branch:__syncthreads 02-no-barrier-between-steps:__syncwarp 02-index-unchecked:partial; do
  id=${mistake%%:*} lesson_dir=$(echo "$course"/lessons/"${id:0:2}"-*)
  cp "$scratch/mistakes/$id"/*.cuh "$lesson_dir/"
  if "${ZH[@]}" check "${id:0:2}" > "$out" 2>&1; then cat "$out"; fail "the mistake $id passes"; fi
  expect "${mistake#*:}" "$out"
  chinese "$out"
  git -C "$course" checkout -q -- "lessons/$(basename "$lesson_dir")"
done
"${ZH[@]}" hint 3 > "$out"
expect "提示 1/" "$out"
chinese "$out"
cp "$course"/solutions/03-sequential-addressing/*.cuh "$lesson3/"
"${ZH[@]}" check 3 > "$out" 2>&1 || { cat "$out"; fail "the solved lesson 3 does not pass in Chinese"; }
expect "：通过" "$out"
expect "变化的数字，第 1 课 -> 第 3 课" "$out"
chinese "$out"
"${W[@]}" --yes reset 3 > "$out" 2>&1 || { cat "$out"; fail "reset 3"; }

echo "-- a damaged progress file is set aside and rebuilt from the checks"
echo "this is [[ not toml" > "$course/.progress/progress.toml"
"${W[@]}" list > "$out" 2>&1
expect "could not be read" "$out"
expect "1/$lessons lessons done" "$out"
[[ -f "$course/.progress/progress.toml.damaged" ]] || fail "the damaged file was not kept"

echo "-- a kernel that calls a host function is refused, in nvcc's words, with or without nvcc"
cp "$lesson1/reduce.cuh" "$scratch/solved.cuh"
printf '%s\n' 'inline int twice(int x) { return 2 * x; }' \
  '__global__ void calls_a_host_function(int* out) { out[0] = twice(1); }' >> "$lesson1/reduce.cuh"
if "${W[@]}" check 1 > "$out" 2>&1; then cat "$out"; fail "a kernel calling a host function passes"; fi
expect "compile error" "$out"
expect "reduce.cuh:$(( $(wc -l < "$scratch/solved.cuh") + 2 )):60: error" "$out"
expect 'calling a __host__ function("twice") from a __global__ function("calls_a_host_function") is not allowed' "$out"
cp "$scratch/solved.cuh" "$lesson1/reduce.cuh"

if [[ -n "$nvcc" ]]; then
  echo "-- where nvcc is installed, check compiles the kernels with it too: what only the CPU backend takes is named, the rest passes"
  cp "$lesson1/reduce.cuh" "$scratch/solved.cuh"
  # A library's host function called from a kernel: cudacc's own check
  # names only the program's own functions (above), nvcc this one too.
  printf '%s\n' '#include <string>' \
    '__global__ void uses_a_host_library(int* out) { out[0] = static_cast<int>(std::string("ab").size()); }' \
    >> "$lesson1/reduce.cuh"
  if WARPDRILL_NVCC_CHECK=1 "${W[@]}" check 1 > "$out" 2>&1; then cat "$out"; fail "a kernel calling std::string passes"; fi
  expect "nvcc, which builds your kernels for a GPU, rejects them" "$out"
  expect "lessons/01-interleaved-divergent/reduce.cuh" "$out"
  expect '__host__ function("size")' "$out"  # constexpr in C++20, which nvcc names as such
  expect 'from a __global__ function("uses_a_host_library") is not allowed' "$out"
  cp "$scratch/solved.cuh" "$lesson1/reduce.cuh"
  WARPDRILL_NVCC_CHECK=1 "${W[@]}" check 1 > "$out" 2>&1 || { cat "$out"; fail "nvcc rejects the solved lesson 1"; }
  expect "passed" "$out"
fi

echo "-- a compile error shows the compiler's message about the learner's file"
echo "this is not C++;" >> "$lesson1/reduce.cuh"
if "${W[@]}" check 1 > "$out" 2>&1; then fail "a broken file passes"; fi
expect "compile error" "$out"
expect "lessons/01-interleaved-divergent/reduce.cuh:" "$out"
if grep -q "$course" "$out"; then fail "compiler messages should use paths relative to the course"; fi

echo "-- reset restores the starting files and keeps the learner's"
"${W[@]}" reset 1 --yes > "$out"
expect "restored lessons/01-interleaved-divergent/reduce.cuh" "$out"
git -C "$course" diff --quiet -- lessons || fail "reset did not restore the files"
ls "$course/.progress/backup/lessons/01-interleaved-divergent/" | grep -q "reduce.cuh." || fail "no backup kept"

echo "-- a kernel that never ends is stopped with a clear message"
# The classic slip: `stride * 2` instead of `stride *= 2`.
sed -i 's|// TODO(2): thread 0 writes|for (unsigned stride = 1; stride < blockDim.x; stride * 2) __syncthreads();\n    // TODO(2): thread 0 writes|' "$lesson1/reduce.cuh"
start=$(date +%s)
if "${W[@]}" --time-limit 6 check 1 > "$out" 2>&1; then fail "an endless kernel passes"; fi
(( $(date +%s) - start < 60 )) || fail "the endless kernel was not stopped in time"
expect "timed out" "$out"
expect "has not finished after 3 s" "$out"
"${W[@]}" reset 1 --yes > /dev/null

echo "-- a kernel that ends the program before the checks finish does not pass"
sed -i 's|// TODO(2): thread 0 writes|if (threadIdx.x == 0) std::_Exit(0);\n    // TODO(2): thread 0 writes|' "$lesson1/reduce.cuh"
if "${W[@]}" check 1 > "$out" 2>&1; then fail "a kernel that calls _Exit(0) passes: $(cat "$out")"; fi
expect "stopped (exit code 0) before its checks finished" "$out"
"${W[@]}" reset 1 --yes > /dev/null

echo "-- solution shows the difference, after asking"
"${W[@]}" solution 1 --yes > "$out"
expect "+++ solutions/01-interleaved-divergent/reduce.cuh" "$out"
if "${W[@]}" solution 1 < /dev/null > "$out" 2>&1; then fail "solution without confirmation"; fi
expect "no terminal to ask" "$out"
[[ $(wc -l < "$out") == 1 ]] || { cat "$out"; fail "more than one line"; }

echo "-- watch without a terminal checks the lesson once"
"${W[@]}" watch 2 < /dev/null > "$out" 2>&1 || { cat "$out"; fail "watch without a terminal failed"; }
expect "lesson 2 (interleaved addressing with a strided index): failed" "$out"
expect "No terminal to watch from" "$out"

echo "-- watch, under a pseudo-terminal: a hint, a save, quit"
python3 "$source_dir/tests/runner/drive_watch.py" "$lesson1/reduce.cuh" "${W[@]}" watch 1

echo "-- grade writes JUnit XML, Gradescope's results.json and JSON, a test per kernel and per shuffle exercise"
cp "$course"/solutions/01-interleaved-divergent/*.cuh "$lesson1/"
if "${W[@]}" grade --out "$scratch/grade" > "$out"; then fail "grade passed with unsolved lessons"; fi
tests=$((lessons + $(grep -l '\[shuffle\]' "$course"/lessons/*/check/*.cpp | wc -l)))
expect "2 of $tests tests pass" "$out"
expect "<testsuite name=\"warpdrill\" tests=\"$tests\" failures=" "$scratch/grade/grade.xml"
for report in grade.json results.json; do
  python3 -m json.tool "$scratch/grade/$report" > /dev/null || fail "$report is not JSON"
done
[[ $(cat "$scratch/grade/passed.txt") == $'01-interleaved-divergent/kernel\n01-interleaved-divergent/shuffle' ]] ||
  fail "passed.txt: $(cat "$scratch/grade/passed.txt")"

echo "-- a passing lesson shows what its checks point out"
cp "$course"/solutions/10-one-launch/*.cuh "$course/lessons/10-one-launch/"
"${W[@]}" check 10 > "$out" 2>&1 || { cat "$out"; fail "the solved lesson 10 does not pass"; }
expect "The given atomicAdd(float*) version summed the same" "$out"

echo "-- a lesson this GPU cannot run passes without checking, and says why"
WARPDRILL_CPU_COMPUTE_CAPABILITY=80 "${W[@]}" check 12 > "$out" 2>&1 || { cat "$out"; fail "lesson 12 failed without clusters"; }
expect "lesson 12 (thread-block clusters (Hopper)): passed" "$out"
expect "SKIPPED on this GPU: lesson 12 needs thread-block clusters (compute capability 9.0 or later)" "$out"

echo "-- a handout: no solutions/, tests/ or points, a fresh git history, the classroom workflow; it builds and runs"
mkdir -p "$course/grades/alice"  # what grade-all wrote in the instructor's copy: git ignores it, so does the handout
echo '{"points": 8}' > "$course/grades/alice/grade.json"
"${W[@]}" handout "$scratch/handout" > /dev/null
for kept_back in solutions tests grading.toml runner/templates scripts/ncu-table.sh grades; do
  [[ ! -e "$scratch/handout/$kept_back" ]] || fail "the handout has $kept_back"
done
[[ $(git -C "$scratch/handout" rev-list --count HEAD) == 1 ]] || fail "the handout's history is not fresh"
expect "./warpdrill --backend cpu grade" "$scratch/handout/.github/workflows/classroom.yml"
expect "This is your copy of the course." "$scratch/handout/README.md"
if grep -q "For instructors\|not in the handout" "$scratch/handout/README.md"; then fail "the handout's README has the instructors' parts"; fi
cmake -S "$scratch/handout" -B "$scratch/handout/build" -G Ninja -DWARPDRILL_BACKEND=cpu > /dev/null
# A dry run: ninja stops at any source file the build needs and the copy lacks.
cmake --build "$scratch/handout/build" -- -n > "$out" || { cat "$out"; fail "the handout's build lacks a file"; }
H=("$warpdrill" --root "$scratch/handout" --build-dir "$scratch/handout/build")
"${H[@]}" list > "$out"
expect "0/$lessons lessons done" "$out"
"${H[@]}" solution 2 --yes > "$out" || true
expect "has no solutions/" "$out"

echo "-- new scaffolds a lesson that verify proves: it compiles, fails as shipped, passes with its solution"
"${W[@]}" new 99-block-sum-again > "$out"
expect "lessons/99-block-sum-again/check/check.cpp" "$out"
expect "lessons/99-block-sum-again" "$course/book/index.md"
python3 "$source_dir/tests/course/lesson_translations.py" "$course" > "$out" || { cat "$out"; fail "the scaffolded lesson's translations"; }
"${W[@]}" verify 99 > "$out" 2>&1 || { cat "$out"; fail "verify rejects the scaffolded lesson"; }
expect "1 of 1 lessons verified" "$out"
cp "$course"/solutions/99-block-sum-again/reduce.cuh "$course/lessons/99-block-sum-again/"
if "${W[@]}" verify 99 > "$out" 2>&1; then fail "verify accepts a lesson that passes as shipped"; fi
expect "pass as shipped" "$out"

echo "-- the new lesson is in the list and the profile (and the benchmark); without a workload in the manifest, profile says so in one line"
"${W[@]}" list > "$out"
expect "block sum again" "$out"
"${W[@]}" profile 99 --solution > "$out" 2>&1 || { cat "$out"; fail "profile 99 --solution"; }
expect "global loads: requests" "$out"
if [[ -n "$nvcc" ]]; then
  echo "-- and in the GPU benchmark: a GPU build of the course times it with bench-solution-99, which gpu_bench runs"
  cmake -S "$course" -B "$scratch/gpu" -G Ninja -DWARPDRILL_BACKEND=gpu -DCMAKE_CUDA_COMPILER="$nvcc" \
    -DCMAKE_CUDA_ARCHITECTURES=90 > "$out" 2>&1 || { cat "$out"; fail "a GPU build of the course does not configure"; }
  ninja -C "$scratch/gpu" -t targets all > "$out"
  expect "bench/bench-solution-99: " "$out"
  grep -Eq "kBenchLessons\[\] = \{.*, 99\};" "$scratch/gpu/bench/generated/bench_lessons.h" ||
    fail "gpu_bench's list of lessons lacks lesson 99: $(cat "$scratch/gpu/bench/generated/bench_lessons.h")"
fi
sed -i '/^folder = "99-block-sum-again"$/{n;/^workload = /d}' "$course/lessons/lessons.toml"
grep -q "sum_in_passes\"$" <(tail -1 "$course/lessons/lessons.toml") && fail "lesson 99's workload is still in the manifest"
if "${W[@]}" profile 99 --solution > "$out" 2>&1; then fail "profile 99 printed a table without a workload"; fi
expect "warpdrill profile has no workload for lesson 99" "$out"

echo "runner end-to-end: all passed"
