#!/usr/bin/env bash
# Makes a copy of the course to hand to learners: everything but solutions/
# (and the build and progress directories). The copy builds and runs as it is;
# its checks are the same, and `warpdrill solution` says it has none.
# It also gets a classroom workflow (.github/workflows/grade.yml): on every
# push, `./warpdrill grade` installs what packages/debian.txt lists, checks
# every lesson, and keeps grade.xml and grade.json as the run's artifact.
#   scripts/handout.sh DESTINATION
set -euo pipefail
[[ $# -eq 1 ]] || { echo "usage: $0 DESTINATION" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
dest=$1
[[ -e "$dest" ]] && { echo "$dest exists; choose a new directory" >&2; exit 1; }
mkdir -p "$dest"
tar -C "$root" --exclude=./solutions --exclude=./build --exclude=./.progress --exclude=./.git --exclude=./.deps \
  --exclude=./book/_build -cf - . | tar -C "$dest" -xf -

mkdir -p "$dest/.github/workflows"
cat > "$dest/.github/workflows/grade.yml" << 'EOF'
# Grades every push: ./warpdrill installs the packages that packages/debian.txt
# lists (CI=true: without asking), builds the course, and `grade` checks every
# lesson. grade/grade.xml (JUnit) and grade/grade.json are the run's artifact;
# the run fails while a lesson does not pass.
name: grade
on: [push, workflow_dispatch]
jobs:
  grade:
    runs-on: ubuntu-24.04
    steps:
      - uses: actions/checkout@v4
      - run: ./warpdrill grade
      - if: always()
        uses: actions/upload-artifact@v4
        with:
          name: grade
          path: grade/
EOF
echo "course copied to $dest without solutions/, with a classroom workflow (.github/workflows/grade.yml)"
