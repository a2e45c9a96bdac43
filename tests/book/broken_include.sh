#!/usr/bin/env bash
# A chapter whose include marker no longer exists in solutions/ must fail the
# book's build: copy the book, break one marker, expect sphinx-build -W to fail.
set -euo pipefail
source "$(dirname "$0")/scratch_book.sh" "$1"
sed -i 's/:start-after: begin:tree/:start-after: begin:no-such-marker/' "$scratch/repo/book/lessons/03-sequential-addressing.md"
if sphinx-build -W -q -b html "$scratch/repo/book" "$scratch/out" > "$scratch/log" 2>&1; then
  echo "FAILED: the book built with a broken include"
  exit 1
fi
grep -q "no-such-marker\|pattern not found" "$scratch/log" || { cat "$scratch/log"; exit 1; }
echo "a broken include fails the book's build, as it should"
