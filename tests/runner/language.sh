#!/usr/bin/env bash
# `warpdrill --lang zh` and a Chinese LANG show the lessons' titles and hints
# in Chinese; `--lang en` and other locales in English. On a scratch copy of
# the lessons, since asking for a hint is recorded in the progress file.
set -euo pipefail
warpdrill="$1"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cp -r "$2/lessons" "$scratch/"

expect() {  # expect TEXT COMMAND...: the command's output contains TEXT
  local text="$1" output
  shift
  output=$("$@")
  grep -qF -- "$text" <<< "$output" || { echo "FAILED: '$text' not in the output of: $*"; echo "$output"; exit 1; }
}
expect "交错寻址与发散的分支" "$warpdrill" --root "$scratch" --lang zh list
expect "interleaved addressing with a divergent branch" "$warpdrill" --root "$scratch" --lang en list
expect "循环是" "$warpdrill" --root "$scratch" --lang zh hint 1
expect "线程处理的下标" env LANG=zh_CN.UTF-8 LC_ALL= LC_MESSAGES= "$warpdrill" --root "$scratch" hint 2
expect "Start with" env LANG=zh_CN.UTF-8 LC_ALL= "$warpdrill" --root "$scratch" --lang en hint 5
expect "The loop over strides" env LANG=de_DE.UTF-8 LC_ALL= "$warpdrill" --root "$scratch" hint 6
echo "the runner shows the lessons in Chinese when --lang zh or LANG asks for it"
