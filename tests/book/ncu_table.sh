#!/usr/bin/env bash
# The chapters quote results/ncu-h100.csv, which scripts/ncu-table.sh writes on
# a GPU. Whatever the checkout's table holds, try the book on a scratch copy
# with made-up tables in that script's format (these numbers are test data, not
# measurements, and never leave the scratch copy):
#   - no table: each chapter says that it is not measured yet;
#   - a row per launch for every lesson: chapter 3 shows lesson 3's rows beside
#     lesson 2's, in the book's columns, with the device, in both languages;
#   - no row for lesson 3: the build fails and says why.
# Every metric the book quotes must be one of the profile's metric table
# (runner/profile/metrics.toml), which scripts/ncu-table.sh measures, and, where
# that script is in the checkout, one its readable table (results/ncu-<gpu>.md) shows.
set -euo pipefail
fail() { echo "FAILED: $*"; exit 1; }
source "$(dirname "$0")/scratch_book.sh" "$1"
rm -f "$scratch/repo/results/ncu-h100.csv"
table="$scratch/repo/results/ncu-h100.csv"
chapter3=lessons/03-sequential-addressing.html

build() {  # build OUT [sphinx options]: the scratch book, or its log and a failure
  local out=$1
  shift
  sphinx-build -W -q -E -b html "$@" "$scratch/repo/book" "$scratch/$out" > "$scratch/log" 2>&1
}

# The metrics of the table that the text on stdin names by their keys
# ("kernel_duration"), as `key metric` lines, metric being ncu's name.
named_metrics() {
  python3 -c '
import re, sys, tomllib
ncu = {m["key"]: m["ncu"] for m in tomllib.load(open(sys.argv[1], "rb"))["metric"] if "ncu" in m}
for key in sorted(set(re.findall(r"\"([a-z0-9_]+)\"", sys.stdin.read())) & ncu.keys()):
    print(key, ncu[key])' "$source_dir/runner/profile/metrics.toml"
}
book=$(named_metrics < "$source_dir/book/bookext.py")  # the metrics of its NCU_COLUMNS
[[ -n "$book" ]] || fail "book/bookext.py names none of runner/profile/metrics.toml's metrics"
quoted=$(cut -d' ' -f2 <<< "$book" | tr '\n' ' ')
if [[ -f "$source_dir/scripts/ncu-table.sh" ]]; then
  readable=$(sed -n '/^markdown() {/,/^}/p' "$source_dir/scripts/ncu-table.sh" | named_metrics)
  while read -r key metric; do
    grep -qx -- "$key $metric" <<< "$readable" ||
      fail "the book quotes $metric ($key), which scripts/ncu-table.sh leaves out of results/ncu-<gpu>.md"
  done <<< "$book"
else
  echo "scripts/ncu-table.sh is not in this checkout: the book's metrics are not compared with its table"
fi

# A table as scripts/ncu-table.sh writes it: two launches per lesson; one metric
# that "this ncu does not know" is left out, as the script leaves it out.
write_table() {  # the lessons to give rows
  python3 - "$quoted" "$@" > "$table" <<'PYTHON'
import csv, sys
unknown = "smsp__sass_branch_targets_threads_divergent.sum"
metrics = [m for m in sys.argv[1].split() if m != unknown]
values = {"gpu__time_duration.sum": 12345,  # ns: 12.3 µs
          "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum": 1600,
          "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum": 100}
print("# device: TEST DEVICE, driver 1, CUDA 1, Nsight Compute 1")
print("# date: 2000-01-01")
print("# command: tests/book/ncu_table.sh (test data)")
print(f"# metrics this ncu does not know: {unknown}")
out = csv.writer(sys.stdout, lineterminator="\n")
out.writerow(["lesson", "launch", "kernel"] + metrics)
for lesson in sys.argv[2:]:
    conflicts = int(lesson) * 1000 + 1  # 3,001 for lesson 3
    for launch in (1, 2):
        out.writerow([lesson, launch, f"kernel_{lesson}"] +
                     [values.get(m, conflicts if "bank_conflicts" in m else 1) for m in metrics])
PYTHON
}

build none || { cat "$scratch/log"; exit 1; }
grep -q "has not been run yet" "$scratch/none/$chapter3" || fail "without a table, chapter 3 does not say it is not measured"

# Every chapter's lesson: 1 2 3 ... from book/lessons/NN-name.md.
all_lessons=$(ls "$scratch/repo/book/lessons" | sed -n 's/^0*\([0-9][0-9]*\)-.*\.md$/\1/p')
write_table $all_lessons
build full || { cat "$scratch/log"; exit 1; }
page="$scratch/full/$chapter3"
grep -q "kernel_3" "$page" || fail "lesson 3's rows are not in chapter 3"
grep -q "kernel_2" "$page" || fail "chapter 3 does not compare with lesson 2"
grep -q "TEST DEVICE" "$page" || fail "no device in the caption"
grep -q ">12.3<" "$page" || fail "the time is not shown in µs"
grep -q ">16.0<" "$page" || fail "sectors per load request are not sectors ÷ requests"
grep -q ">3,001 / 3,001<" "$page" || fail "lesson 3's bank conflicts, loads / stores, are not shown"
grep -q "does not know" "$page" || fail "the caption does not name the metric this ncu does not know"
grep -q "smsp__inst_executed.sum" "$scratch/full/intro.html" || fail "the introduction does not list the columns"
build full-zh -D language=zh_CN || { cat "$scratch/log"; exit 1; }
grep -q "每个加载请求的 sector 数" "$scratch/full-zh/$chapter3" || fail "the Chinese chapter 3 has no Chinese headings"

write_table $(grep -vx 3 <<< "$all_lessons")
if build gap; then
  fail "the book built although results/ncu-h100.csv has no row for lesson 3"
fi
grep -q "has no row for lesson 3" "$scratch/log" || { cat "$scratch/log"; exit 1; }
echo "the chapters quote the ncu table's rows in the book's columns, say when it is not measured yet, and a lesson missing from it fails the build"
