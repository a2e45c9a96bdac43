#!/usr/bin/env bash
# The chapters quote results/ncu-h100.csv once it exists, and a chapter whose
# lesson has no row in it must fail the book's build. Until the lead commits
# the table measured on an H100, try both on a scratch copy with a made-up
# table (these numbers are test data, not measurements, and never leave it).
set -euo pipefail
source_dir=$(cd "$1" && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/repo"
cp -r "$source_dir/book" "$source_dir/solutions" "$source_dir/results" "$scratch/repo/"
rm -rf "$scratch/repo/book/_build" "$scratch/repo/book/_generated"
table="$scratch/repo/results/ncu-h100.csv"

write_table() {  # the lessons to give a row
  {
    echo "# device: TEST DEVICE"
    echo "# date: 2000-01-01"
    echo "# command: tests/book/ncu_table.sh"
    echo "lesson,kernel,shared bank conflicts"
    for lesson in "$@"; do echo "lesson $lesson,kernel_$lesson,${lesson}0${lesson}"; done
  } > "$table"
}

write_table 1 2 3 4 5 6 7 8 9 10
sphinx-build -W -q -b html "$scratch/repo/book" "$scratch/full" > "$scratch/log" 2>&1 || { cat "$scratch/log"; exit 1; }
grep -q "kernel_3" "$scratch/full/lessons/03-sequential-addressing.html" || { echo "FAILED: lesson 3's row is not in chapter 3"; exit 1; }
grep -q "kernel_2" "$scratch/full/lessons/03-sequential-addressing.html" || { echo "FAILED: chapter 3 does not compare with lesson 2"; exit 1; }
grep -q "TEST DEVICE" "$scratch/full/lessons/03-sequential-addressing.html" || { echo "FAILED: no device in the caption"; exit 1; }

write_table 1 2 4 5 6 7 8 9 10
if sphinx-build -W -q -E -b html "$scratch/repo/book" "$scratch/gap" > "$scratch/log" 2>&1; then
  echo "FAILED: the book built although results/ncu-h100.csv has no row for lesson 3"
  exit 1
fi
grep -q "has no row for lesson 3" "$scratch/log" || { cat "$scratch/log"; exit 1; }
echo "the chapters quote the ncu table's rows, and a lesson missing from it fails the build"
