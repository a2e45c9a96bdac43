#!/usr/bin/env bash
# Makes a copy of the course to hand to learners: everything but solutions/
# (and the build and progress directories). The copy builds and runs as it is;
# its checks are the same, and `warpdrill solution` says it has none.
#   scripts/handout.sh DESTINATION
set -euo pipefail
[[ $# -eq 1 ]] || { echo "usage: $0 DESTINATION" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
dest=$1
[[ -e "$dest" ]] && { echo "$dest exists; choose a new directory" >&2; exit 1; }
mkdir -p "$dest"
tar -C "$root" --exclude=./solutions --exclude=./build --exclude=./.progress --exclude=./.git --exclude=./.deps \
  --exclude=./book/_build -cf - . | tar -C "$dest" -xf -
echo "course copied to $dest without solutions/"
