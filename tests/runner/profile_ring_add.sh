#!/usr/bin/env bash
# `warpdrill profile` on lesson 13's workload, its add kernel alone (ring_add),
# which no other lesson computes: the add's counts, the model's DRAM bytes
# (two floats read and one written for each element), its GB/s of all it
# moves, and beside lesson 12 the two set side by side without a "what moved".
# On the suite's own build: it builds solutions' profile drivers there, as
# profile.ncu-agreement does (the two never run at once). The course's root
# is a scratch copy of the lessons and solutions, since warpdrill keeps its
# progress there.
#   tests/runner/profile_ring_add.sh WARPDRILL SOURCE_DIR BUILD_DIR
set -euo pipefail
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cp -r "$2/lessons" "$2/solutions" "$scratch/"
W=("$1" --root "$scratch" --build-dir "$3")
out="$scratch/out.txt"
fail() { cat "$out"; echo "FAILED: $*"; exit 1; }
expect() {  # expect REGEX: a line of the last output matches it
  grep -qE -- "$1" "$out" || fail "no line matches '$1'"
}

"${W[@]}" profile 13 --solution > "$out" 2>&1 || fail "profile 13 --solution"
expect "^launch 1 of 1: add_into<<<1024, 256>>>$"
expect "global loads: requests +16,384 "
expect "global loads: 32-byte sectors +262,144 "
expect "global stores: requests +8,192 "
expect "global stores: 32-byte sectors +131,072 "
expect "shared loads: instructions +0 "
expect "DRAM bytes read +8,388,608 model"
expect "DRAM bytes written +4,194,304 model"
expect "GB/s moved \(dst and src read, dst written\)$"

"${W[@]}" profile 12 --solution --compare 13 > "$out" 2>&1 || fail "profile 12 --solution --compare 13"
expect "^Lessons 12 and 13 compute different things \(sum, ring_add\): set side by side, not compared\.$"
if grep -qF "What moved" "$out"; then fail "lessons 12 and 13 were compared"; fi
echo "warpdrill profile counts lesson 13's add as a workload of its own"
