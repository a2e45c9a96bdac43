#!/usr/bin/env bash
# The grading sandbox against a class of hostile submissions: each learner's
# lesson 1 reduce.cuh is one of the attack programs beside this script (or a
# link to the reference's solution), graded by grade-all against this course.
# Each attack must fail, or be stopped by a limit its verdict names; the
# honest learner passes. Then three of them graded with --no-sandbox show
# that the checks would see them succeed. Skipped (exit 77) where bubblewrap
# cannot make a sandbox.
#   tests/runner/hostile/hostile.sh SOURCE_DIR BUILD_DIR WARPDRILL
set -euo pipefail
source_dir=$(cd "$1" && pwd)
build_dir=$(cd "$2" && pwd)
here="$source_dir/tests/runner/hostile"
scratch=$(mktemp -d)
chmod 755 "$scratch"  # run by root, the sandbox runs as nobody, who must be able to enter it
listener=""
trap '[[ -z $listener ]] || kill "$listener"; [[ -n ${KEEP_SCRATCH:-} ]] || rm -rf "$scratch"' EXIT
W=("$3" --root "$source_dir" --build-dir "$build_dir")
source "$source_dir/tests/grading/class.sh"

why=$(sandbox_missing)
if [[ -n $why ]]; then
  echo "skipped: grade-all cannot make its sandbox here: $why"
  exit 77
fi

lesson1=lessons/01-interleaved-divergent
solution="$source_dir/solutions/${lesson1#lessons/}/reduce.cuh"
out="$scratch/grades"
home="$scratch/home"
lingerer="wdlinger$$"                # a process name nothing else has (at most 15 characters)
token="token-$RANDOM$RANDOM$RANDOM"  # an instructor's secret, in grade-all's environment
file_size_limit=64  # MiB: the file-size attack writes twice as much
disk_limit=128      # MiB: the disk attack writes twice as much; lesson 1's build takes about 25
limits=(--cpu-limit 15 --memory-limit 1024 --process-limit 40 --open-file-limit 64 --file-size-limit $file_size_limit
  --disk-limit $disk_limit)

echo "-- a listener on 127.0.0.1 that writes down every connection"
python3 - "$scratch/port" "$scratch/connections" << 'EOF' &
import os, socket, sys
server = socket.create_server(("127.0.0.1", 0))
with open(sys.argv[1] + ".tmp", "w") as port:
    port.write(str(server.getsockname()[1]))
os.rename(sys.argv[1] + ".tmp", sys.argv[1])
while True:
    connection, _ = server.accept()
    with open(sys.argv[2], "a") as log:
        log.write("a connection\n")
    connection.close()
EOF
listener=$!
for _ in $(seq 50); do [[ -s "$scratch/port" ]] && break; sleep 0.1; done
[[ -s "$scratch/port" ]] || fail "the listener did not start"
port=$(cat "$scratch/port")

# add_attackers NAME...: a learner each, whose lesson 1 reduce.cuh is the attack of that name
add_attackers() {
  local learner
  add_learners "$@"
  for learner in "$@"; do
    sed -e "s|@SOLUTION@|$solution|" -e "s|@OTHER_CHECKOUT@|$subs/honest|" -e "s|@REPORTS@|$out|" \
      -e "s|@HOME@|$home|" -e "s|@NAME@|$lingerer|" -e "s|@MIB@|$((2 * file_size_limit))|" \
      -e "s|@DISK_MIB@|$((2 * disk_limit))|" -e "s|@PORT@|$port|" \
      "$here/$learner.cuh" > "$subs/$learner/$lesson1/reduce.cuh"
  done
}
# grade_class OUT [OPTION...]: grade-all on lesson 1, the instructor's secret and home in its environment
grade_class() {
  local dest=$1
  shift
  HOME="$home" INSTRUCTOR_API_TOKEN="$token" "${W[@]}" --time-limit 60 grade-all "$subs" --reference "$source_dir" \
    --reference-build "$build_dir" --lesson 1 --seed 42 --jobs 2 --out "$dest" "$@" > "$dest.log" 2>&1 ||
    { cat "$dest.log"; fail "grade-all failed"; }
}
cell() { grep "^$1," "$2/roster.csv" | cut -d, -f2; }  # cell LEARNER OUT: the learner's lesson 1 verdict
verdict() {  # verdict LEARNER VERDICT [TEXT]: the learner's lesson 1 verdict, and TEXT in the roster's notes
  [[ $(cell "$1" "$out") == "$2" ]] || { cat "$out/roster.csv"; fail "$1's lesson 1 is not '$2'"; }
  [[ -z ${3-} ]] || expect "$3" <(grep "^$1," "$out/roster.csv")
}
leaks() {  # leaks TEXT OUT: the text is in a report under OUT
  grep -rqF --exclude-dir=.work -- "$1" "$2"
}
recorded() {  # recorded REPORTS SANDBOX: grade.json, results.json and grade.xml say what the code ran in
  python3 - "$1" "$2" << 'EOF'
import json, sys
reports, sandbox = sys.argv[1], sys.argv[2]
assert json.load(open(f"{reports}/grade.json"))["sandbox"].startswith(sandbox)
assert json.load(open(f"{reports}/results.json"))["extra_data"]["sandbox"].startswith(sandbox)
EOF
  expect "<property name=\"sandbox\" value=\"$2" "$1/grade.xml"
}

echo "-- the class: an honest learner, a kernel file linked to the solution, and one attack each"
new_class
attacks=(read-solution include-solution read-environment write-elsewhere linger memory file-size disk
  open-files fork spin network escapes)
add_learners honest symlink-solution
solve honest $lesson1 reduce.cuh
solve honest $lesson1 shuffle.cuh
ln -sf "$solution" "$subs/symlink-solution/$lesson1/reduce.cuh"
add_attackers "${attacks[@]}"
mkdir -p "$out" "$home"
for dir in "$subs/honest" "$out" "$home"; do
  echo canary > "$dir/CANARY"
  echo canary > "$dir/CANARY-DELETE"
done

echo "-- grade-all in the sandbox"
grade_class "$out" "${limits[@]}"
expect "sandbox: bubblewrap" "$out.log"

echo "-- the honest learner passes; its checkout is as it was"
verdict honest pass
cmp -s "$solution" "$subs/honest/$lesson1/reduce.cuh" || fail "the honest learner's kernel file changed"

echo "-- the reference's solution: not read, not included, not followed through a link; the secret not seen"
# The solution's lines that the lesson as handed out does not have (those a
# report would show as they are): none may be in a report.
grep -vxFf "$scratch/handout/$lesson1/reduce.cuh" "$solution" | sed 's/^ *//' | grep -E '[a-z].{15}' |
  grep -v '[<>&"\\]' > "$scratch/solution-lines"
[[ -s "$scratch/solution-lines" ]] || fail "no line of the solution to look for"
while read -r line; do
  if leaks "$line" "$out"; then fail "a report holds the solution's line '$line'"; fi
done < "$scratch/solution-lines"
verdict read-solution crash
expect "reduce.cuh: No such file or directory" "$out/read-solution/grade.json"
verdict include-solution "build error"
verdict symlink-solution missing "is a link to a file outside the submission"
verdict read-environment crash
if leaks "$token" "$out"; then fail "a report holds the instructor's secret"; fi

echo "-- the files of others (another learner, the reports, the grader's home) are as they were"
for dir in "$subs/honest" "$out" "$home"; do
  [[ $(cat "$dir/CANARY") == canary && -e "$dir/CANARY-DELETE" ]] || fail "a submission changed $dir"
done

echo "-- no process outlives the grading"
if grep -qx "$lingerer" /proc/[0-9]*/comm 2> /dev/null; then fail "the process $lingerer outlived the grading"; fi
for exe in /proc/[0-9]*/exe; do
  [[ $(readlink "$exe" 2> /dev/null) != "$scratch"/* ]] || fail "$(dirname "$exe") outlived the grading"
done

echo "-- each limit stops its attack, and the verdict names it"
verdict memory crash "memory limit"
verdict file-size crash "wrote past the file-size limit"
verdict disk crash "wrote past the disk limit ($disk_limit MiB"
verdict open-files crash "open-file limit"
verdict fork crash "process limit"
verdict spin time-out "time limit"

echo "-- no network"
verdict network crash
expect "connect: " "$out/network/grade.json"
[[ ! -e "$scratch/connections" ]] || fail "a submission connected to the listener"

echo "-- what a submission printed reaches the reports cut short, without terminal escape sequences"
verdict escapes crash
expect "in red" "$out/escapes/grade.json"
expect "[... cut: more than 16384 bytes]" "$out/escapes/grade.json"
if grep -rqi 'u001b\|'$'\x1b' "$out/escapes" "$out/roster.csv"; then fail "an escape sequence reached a report"; fi

echo "-- the reports say what the code ran in"
recorded "$out/honest" "bubblewrap "

echo "-- without the sandbox (--no-sandbox), the same checks see three attacks succeed"
rm -rf "$subs"
mkdir "$subs"
add_attackers read-solution read-environment network
unconfined="$scratch/unconfined"
grade_class "$unconfined" --no-sandbox
leaks "$(tail -1 "$scratch/solution-lines")" "$unconfined" || fail "unsandboxed, the solution is not in the report"
leaks "$token" "$unconfined" || fail "unsandboxed, the secret is not in the report"
[[ -s "$scratch/connections" ]] || fail "unsandboxed, nothing connected to the listener"
recorded "$unconfined/read-solution" "none (--no-sandbox)"

echo "hostile submissions: all stopped"
