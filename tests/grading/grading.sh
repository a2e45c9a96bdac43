#!/usr/bin/env bash
# Grading at class scale, on lessons 1 and 2 of a handful of fake learners'
# checkouts, graded against this course (the reference) with its own build
# (the grading kit): the roster's verdicts and reasons, a tampered check and
# common file that never change a grade, the reports against their schemas,
# a failure replayed from its base seed, and the handout's classroom
# workflow run step by step.
#   tests/grading/grading.sh SOURCE_DIR BUILD_DIR WARPDRILL
set -euo pipefail
source_dir=$(cd "$1" && pwd)
build_dir=$(cd "$2" && pwd)
here="$source_dir/tests/grading"
scratch=$(mktemp -d)
chmod 755 "$scratch"  # run by root, grading's sandbox runs as nobody, who must be able to enter it
trap '[[ -n ${KEEP_SCRATCH:-} ]] || rm -rf "$scratch"' EXIT
W=("$3" --root "$source_dir" --build-dir "$build_dir")
source "$here/class.sh"
# Grading runs the submissions' code in a sandbox; where bubblewrap cannot
# make one here, this test grades without (tests/runner/hostile/, which tests
# the sandbox, is skipped there).
sandbox=()
why=$(sandbox_missing)
if [[ -n $why ]]; then
  echo "note: grading with --no-sandbox: $why"
  sandbox=(--no-sandbox)
fi
lesson1=lessons/01-interleaved-divergent
lesson2=lessons/02-interleaved-strided

echo "-- fake submissions: copies of the handout, solved, half solved, broken, tampered with, not a course"
new_class
# None has a build directory of its own (grading never uses one); stale has
# one from another machine, which grading neither uses nor lists.
add_learners solved half broken tampered deleted stale
mkdir "$subs/empty"  # not a checkout of the course at all
mkdir -p "$subs/stale/build/cpu"
printf 'CMAKE_HOME_DIRECTORY:INTERNAL=/home/someone/warpdrill\n' > "$subs/stale/build/cpu/CMakeCache.txt"
echo "not a program" > "$subs/stale/build/cpu/lesson-01"
for file in reduce.cuh shuffle.cuh; do solve solved $lesson1 $file; solve solved $lesson2 $file; done
solve half $lesson1 reduce.cuh
solve half $lesson1 shuffle.cuh
solve half $lesson2 shuffle.cuh
echo "this is not C++;" >> "$subs/broken/$lesson1/reduce.cuh"
# The classic slip: `stride * 2` instead of `stride *= 2`, a loop that never ends.
sed -i 's|// TODO(1)|for (unsigned s = 1; s < blockDim.x; s * 2) __syncthreads();\n    // TODO(1)|' "$subs/broken/$lesson2/reduce.cuh"
mkdir -p "$subs/broken/.progress"
echo "this is [[ not toml" > "$subs/broken/.progress/progress.toml"
rm -r "$subs/deleted/$lesson2"
# Checks that pass whatever the kernel does, and a shared check made toothless.
cat > "$subs/tampered/$lesson1/check/check.cpp" << 'EOF'
#include "warpdrill/catch.h"
TEST_CASE("lesson 1: reduce_interleaved_divergent sums every block", "[lesson01][reduce]") { CHECK(true); }
TEST_CASE("lesson 1: shuffle_broadcast", "[lesson01][shuffle]") { CHECK(true); }
EOF
echo "// every check passes" >> "$subs/tampered/common/src/course/checks.cpp"

echo "-- grade-all: a row each, with its reasons, whatever the submission"
out="$scratch/grades"
"${W[@]}" --time-limit 60 grade-all "$subs" --reference "$source_dir" --reference-build "$build_dir" \
  --lesson 1 --lesson 2 --seed 42 --jobs 2 --keep-builds --out "$out" "${sandbox[@]}" > "$scratch/grade-all.log" 2>&1 ||
  { cat "$scratch/grade-all.log"; fail "grade-all failed"; }
roster="$out/roster.csv"
row() {  # row LEARNER VERDICT1 VERDICT2: the learner's verdicts for lessons 1 and 2
  [[ $(grep "^$1," "$roster" | cut -d, -f2,3) == "$2,$3" ]] || { cat "$roster"; fail "$1's row is not $2,$3"; }
}
row solved pass pass
row half pass fail
row broken "build error" time-out
row tampered fail fail
row deleted fail missing
row empty missing missing
row stale fail fail
[[ $(grep -c . "$roster") == 8 ]] || { cat "$roster"; fail "the roster does not have a row per learner"; }
grep -q "^solved,pass,pass,20,20," "$roster" || { cat "$roster"; fail "solved does not score 20 of 20"; }
# Only the lessons graded (--lesson) have columns, and lines in the summary.
[[ $(head -1 "$roster") == "learner,${lesson1#lessons/},${lesson2#lessons/},points,max_points,notes" ]] ||
  { head -1 "$roster"; fail "the roster has columns for lessons that were not graded"; }
grep -q "03-sequential-addressing" "$out/summary.txt" && { cat "$out/summary.txt"; fail "the summary lists a lesson not graded"; }
grep "^broken," "$roster" > "$scratch/broken.txt"
expect "01 build error: lessons/01-interleaved-divergent/reduce.cuh:" "$scratch/broken.txt"
expect "02 time-out:" "$scratch/broken.txt"
# The headline every stuck learner shares, without the threads that were still running.
grep -q "still running" "$scratch/broken.txt" && { cat "$scratch/broken.txt"; fail "a time-out's headline names the threads"; }
expect "progress file .progress/progress.toml is damaged" "$scratch/broken.txt"
grep "^deleted," "$roster" > "$scratch/deleted.txt"
expect "02 missing: lessons/02-interleaved-strided/ is not in the submission" "$scratch/deleted.txt"
expect "not a checkout of the course" <(grep "^empty," "$roster")

echo "-- a lesson as handed out runs the reference's build of it; the others are built, each in its submission's build"
[[ -x "$out/.work/solved/build/lesson-01" ]] || fail "solved's lesson 1 was not built for it"
if git -C "$source_dir" diff --quiet HEAD -- "$lesson1" 2> /dev/null; then
  [[ ! -e "$out/.work/tampered/build/lesson-01" ]] || fail "tampered's kernels are as handed out, yet were built again"
else  # this checkout's lesson 1 is not git's: its build is not the lesson as handed out
  [[ -x "$out/.work/tampered/build/lesson-01" ]] || fail "tampered's lesson 1 ran a reference build of other files"
fi
python3 -c "import json,sys; sys.exit(json.load(open(sys.argv[1]))['changed_files'] != [])" "$out/stale/grade.json" ||
  fail "stale's build directory is listed as a change: $(cat "$out/stale/grade.json")"

echo "-- tampering: the edited checks and common file were listed, not used"
expect '"changed: common/src/course/checks.cpp"' "$out/tampered/grade.json"
expect '"changed: lessons/01-interleaved-divergent/check/check.cpp"' "$out/tampered/grade.json"
expect "block_sums[0] = NaN" "$out/tampered/grade.xml"

echo "-- the failures most learners share, counted"
expect "The failures most learners share" "$out/summary.txt"
grep -qE "^ +3  lesson 1 kernel, fail: reduce_interleaved_divergent: block_sums\[#\] = NaN" "$out/summary.txt" ||
  { cat "$out/summary.txt"; fail "the unsolved lesson 1 kernel is not counted for its three learners"; }

echo "-- a lesson this machine cannot run is skipped, for no points either way"
WARPDRILL_CPU_COMPUTE_CAPABILITY=80 "$3" --build-dir "$build_dir" grade --root "$subs/half" --reference "$source_dir" \
  --lesson 12 --out "$out/skipped" "${sandbox[@]}" > "$scratch/skipped.txt" 2>&1 || { cat "$scratch/skipped.txt"; fail "grading a skipped lesson failed"; }
expect '<skipped message="SKIPPED on this GPU: lesson 12 needs thread-block clusters' "$out/skipped/grade.xml"
python3 - "$out/skipped" << 'EOF'
import json, sys
[test] = [t for t in json.load(open(f"{sys.argv[1]}/results.json"))["tests"]]
assert test["score"] == 0 and test["max_score"] == 0 and "status" not in test, test
[test] = json.load(open(f"{sys.argv[1]}/grade.json"))["tests"]
assert test["status"] == "skipped" and test["max_points"] == 0, test
EOF

echo "-- a git ref that is not one of the course's: a clear error"
if "$3" --build-dir "$build_dir" grade --root "$subs/half" --reference no-such-ref-anywhere "${sandbox[@]}" > "$scratch/ref.txt" 2>&1; then
  fail "grading against a ref that does not exist passed"
fi
expect "'no-such-ref-anywhere' is neither a directory nor a git commit, tag or branch of" "$scratch/ref.txt"

echo "-- the reports against their schemas (and the schemas reject a broken report)"
for learner in solved half broken tampered deleted empty stale skipped; do
  xmllint --noout --schema "$here/junit.xsd" "$out/$learner/grade.xml" 2> "$scratch/xmllint.txt" ||
    { cat "$scratch/xmllint.txt"; fail "$learner's grade.xml"; }
done
python3 - "$here" "$out" << 'EOF'
import copy, json, sys
import jsonschema
here, out = sys.argv[1], sys.argv[2]
gradescope = json.load(open(f"{here}/gradescope-results.schema.json"))
ours = json.load(open(f"{here}/grade.schema.json"))
for learner in ["solved", "half", "broken", "tampered", "deleted", "empty", "stale", "skipped"]:
    results = json.load(open(f"{out}/{learner}/results.json"))
    jsonschema.validate(results, gradescope)
    jsonschema.validate(json.load(open(f"{out}/{learner}/grade.json")), ours)
    for test in results["tests"]:
        assert {"score", "max_score", "output"} <= test.keys(), f"{learner}: a test without score, max_score or output"
    for broken in ({"status": "ok"}, {"score": "8"}):
        wrong = copy.deepcopy(results)
        wrong["tests"][0].update(broken)
        try:
            jsonschema.validate(wrong, gradescope)
        except jsonschema.ValidationError:
            continue
        sys.exit(f"the Gradescope schema accepts a test with {broken}")
print("results.json and grade.json follow their schemas")
EOF
sed 's/tests="[0-9]*"/tests="many"/' "$out/half/grade.xml" > "$scratch/bad.xml"
if xmllint --noout --schema "$here/junit.xsd" "$scratch/bad.xml" 2> /dev/null; then fail "the JUnit schema accepts tests=\"many\""; fi

echo "-- a failure replays from the base seed the report records: the same inputs, the same message"
failure() {  # failure GRADE_JSON FIELD: a field (replay, message) of its first failing test
  python3 -c "import json,sys; print([t for t in json.load(open(sys.argv[1]))['tests'] if t['status']=='fail'][0][sys.argv[2]])" "$1" "$2"
}
replay=$(failure "$out/half/grade.json" replay)
[[ $replay == "warpdrill grade --root $subs/half --reference $source_dir --seed 42 --lesson 2" ]] || fail "replay: $replay"
read -r -a words <<< "${replay#warpdrill }"
"$3" --build-dir "$build_dir" "${words[@]}" --out "$scratch/replay" "${sandbox[@]}" > "$scratch/replay.txt" 2>&1 || true
expect "WARPDRILL_SEED=" "$out/half/grade.json"  # the message names its check's own seed: it depends on the base seed
[[ $(failure "$scratch/replay/grade.json" message) == "$(failure "$out/half/grade.json" message)" ]] ||
  { cat "$scratch/replay.txt"; fail "the replay's failure differs from the graded one"; }

echo "-- the handout's classroom workflow, step by step: packages from the list, grade, report, a score a test"
mkdir -p "$scratch/bin"
printf '#!/bin/sh\nexec "$@"\n' > "$scratch/bin/sudo"
printf '#!/bin/sh\necho "$@" >> "%s"\n' "$scratch/apt-get.txt" > "$scratch/bin/apt-get"
chmod +x "$scratch/bin/sudo" "$scratch/bin/apt-get"
PATH="$scratch/bin:$PATH" python3 "$here/run_workflow.py" "$scratch/handout/.github/workflows/classroom.yml" \
  "$subs/solved" --replace "Grade every lesson on the CPU backend=cp -r '$out/solved' grade" > "$scratch/workflow.txt" ||
  { cat "$scratch/workflow.txt"; fail "the classroom workflow failed"; }
expect "install -y --no-install-recommends cmake ninja-build g++ catch2" "$scratch/apt-get.txt"
expect "score lesson-01-kernel 8 8" "$scratch/workflow.txt"
expect "score lesson-02-shuffle 2 2" "$scratch/workflow.txt"
expect "score lesson-03-kernel 0 8" "$scratch/workflow.txt"
grep -q "^total 20 " "$scratch/workflow.txt" || { cat "$scratch/workflow.txt"; fail "the workflow's total"; }

echo "grading: all passed"
