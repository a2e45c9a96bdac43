#!/usr/bin/env bash
# Chapter 13 shows results/allreduce-h200x2.csv once the lead has measured it:
# the ring and NCCL at each size, the device, date and command, and the ring's
# share of NCCL's bus bandwidth from 2^26 floats on. Until then the chapter
# says it is not measured yet (the book's own build covers that). Try it on a
# scratch copy with a made-up table (test data, not measurements; it never
# leaves the scratch directory).
set -euo pipefail
source "$(dirname "$0")/scratch_book.sh" "$1"
cat > "$scratch/repo/results/allreduce-h200x2.csv" <<'TABLE'
# device: TEST DEVICE x2
# date: 2000-01-01
# command: allreduce_bench --csv TEST
kernel,idea,gpus,floats,time_us,algbw_gbps,gbps,correct
lesson 13,"ring all-reduce, 1 slices",2,65536,20,13.1,13.1,yes
ncclAllReduce,"NCCL 0.0.0",2,65536,10,26.2,26.2,yes
lesson 13,"ring all-reduce, 8 slices",2,67108864,800,335,335,yes
ncclAllReduce,"NCCL 0.0.0",2,67108864,700,383,383,yes
lesson 13,"ring all-reduce, 8 slices",2,134217728,1560,344,344,yes
ncclAllReduce,"NCCL 0.0.0",2,134217728,1400,383,383,yes
TABLE
sphinx-build -W -q -b html "$scratch/repo/book" "$scratch/html" > "$scratch/log" 2>&1 || { cat "$scratch/log"; exit 1; }
page="$scratch/html/lessons/13-ring-allreduce.html"
for text in "TEST DEVICE x2" "2000-01-01" "800.0" "87% to 90%"; do
  grep -qF "$text" "$page" || { echo "FAILED: '$text' is not in chapter 13"; exit 1; }
done
if grep -qF "Not measured yet" "$page"; then echo "FAILED: chapter 13 says it is not measured"; exit 1; fi
echo "chapter 13 shows the all-reduce table, its device and command, and the ring's share of NCCL's busbw"
