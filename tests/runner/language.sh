#!/usr/bin/env bash
# `warpdrill --lang zh` and a Chinese LANG show the lessons' titles and hints,
# and say what they say, in Chinese; `--lang en` and other locales in
# English. On a scratch copy of the lessons, since asking for a hint is
# recorded in the progress file. WARPDRILL_LANG, which the runner hands the
# programs it starts, comes before the locale: it is taken away where the
# locale is tried.
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
expect "未尝试" "$warpdrill" --root "$scratch" --lang zh list
expect "not tried" "$warpdrill" --root "$scratch" --lang en list
expect "提示 1/" "$warpdrill" --root "$scratch" --lang zh hint 3
expect "interleaved addressing with a divergent branch" "$warpdrill" --root "$scratch" --lang en list
expect "循环是" "$warpdrill" --root "$scratch" --lang zh hint 1
expect "线程处理的下标" env -u WARPDRILL_LANG LANG=zh_CN.UTF-8 LC_ALL= LC_MESSAGES= "$warpdrill" --root "$scratch" hint 2
expect "Start with" env -u WARPDRILL_LANG LANG=zh_CN.UTF-8 LC_ALL= "$warpdrill" --root "$scratch" --lang en hint 5
expect "The loop over strides" env -u WARPDRILL_LANG LANG=de_DE.UTF-8 LC_ALL= "$warpdrill" --root "$scratch" hint 6
expect "leaves the warp" env WARPDRILL_LANG=en LANG=zh_CN.UTF-8 LC_ALL= "$warpdrill" --root "$scratch" hint 7
echo "the runner shows the lessons in Chinese when --lang zh or LANG asks for it"
