# What the grading tests share (grading.sh, ../runner/hostile/hostile.sh):
# failing with the reason, a class of fake learners' checkouts, each a copy
# of the handout, and whether grade-all can make its sandbox. Source it after
# setting source_dir, build_dir, scratch and W (the warpdrill command line).
fail() { echo "FAILED: $*" >&2; exit 1; }
expect() {  # expect TEXT FILE: the file contains the text
  grep -qF -- "$1" "$2" || { cat "$2"; fail "expected '$1' in $2"; }
}
new_class() {  # the handout in $scratch/handout; $subs, the submissions' folder, empty
  "${W[@]}" handout "$scratch/handout" > /dev/null
  subs="$scratch/submissions"
  mkdir -p "$subs"
}
add_learners() {  # add_learners NAME...: a copy of the handout each
  local learner
  for learner in "$@"; do cp -r "$scratch/handout" "$subs/$learner"; done
}
solve() {  # solve LEARNER LESSON_DIR FILE: the solution's file in the learner's lesson
  cp "$source_dir/solutions/${2#lessons/}/$3" "$subs/$1/$2/$3"
}
sandbox_missing() {  # why grade-all cannot make its sandbox here, in its words; nothing when it can
  local said
  mkdir -p "$scratch/no-submissions"
  said=$("${W[@]}" grade-all "$scratch/no-submissions" --reference "$source_dir" --reference-build "$build_dir" \
    --out "$scratch/sandbox-probe" 2>&1) || true
  [[ $said == *"sandbox: bubblewrap"* ]] && return
  grep -m1 -e bubblewrap -e bwrap <<< "$said" || fail "grade-all on no submissions failed: $said"
}
