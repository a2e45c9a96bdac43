#!/usr/bin/env bash
# The course on a fresh machine, as a new learner has one: a minimal root of
# Debian SUITE (bookworm is Debian 12, trixie Debian 13) made from Debian's
# package mirror, with the base system and git and nothing more; a clean clone
# of this repository (its HEAD: uncommitted changes are not in it); and, as
# root in that system, the README's two commands:
#   ./warpdrill        installs the packages, builds, and shows the first lesson
#   ./warpdrill test   the whole test suite
# Prints how long each step took. Needs root, and mmdebstrap or debootstrap
# (packages/debian.txt, group ci: asked for and installed as ./warpdrill does).
#   scripts/fresh-machine.sh SUITE [--keep]     (--keep: leave the root in place)
#   DEBIAN_MIRROR=http://... picks the mirror (default: deb.debian.org).
set -euo pipefail
usage="usage: $0 SUITE [--keep]   (SUITE: bookworm, trixie, ...)"
[[ $# -ge 1 && $1 != -* ]] || { echo "$usage" >&2; exit 2; }
suite=$1
keep=no
[[ ${2-} == --keep ]] && keep=yes
course_root=$(dirname "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")")
assume_yes=no
[[ ${CI:-} == true ]] && assume_yes=yes
source "$course_root/scripts/setup.sh"
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

[[ $(id -u) == 0 ]] || { complain "fresh-machine.sh makes a Debian root and enters it: run it as root"; exit 2; }
if ! command -v mmdebstrap > /dev/null && ! command -v debootstrap > /dev/null; then
  ensure_packages ci || exit
fi

work=$(mktemp -d "${TMPDIR:-/var/tmp}/warpdrill-$suite.XXXXXX")
fresh="$work/root"
if [[ $keep == no ]]; then trap 'rm -rf "$work"' EXIT; fi
step_start=$SECONDS
report=()
step_done() {  # step_done WHAT [SECONDS]: says and records how long the step took
  report+=("$(printf '%-52s %4d s' "$1" "${2:-$((SECONDS - step_start))}")")
  echo "== ${report[-1]}"
  step_start=$SECONDS
}

echo "== a minimal Debian $suite from $mirror (base system and git)"
if command -v mmdebstrap > /dev/null; then
  mmdebstrap --quiet --variant=minbase --include=git "$suite" "$fresh" "$mirror"
else
  debootstrap --variant=minbase --include=git "$suite" "$fresh" "$mirror" > "$work/debootstrap.log"
fi
cp /etc/resolv.conf "$fresh/etc/resolv.conf"  # apt-get inside needs the host's DNS
step_done "making the Debian $suite root"

git clone --quiet "$course_root" "$fresh/root/warpdrill"
echo "== the course at $(git -C "$fresh/root/warpdrill" log -1 --format='%h %s')"

# in_fresh COMMAND: runs COMMAND in the fresh system as root, in the clone,
# without a terminal and with CI=true (so ./warpdrill installs without
# asking); /proc, /sys and /dev (pseudo-terminals for the runner's test) are
# mounted in a mount namespace of its own, gone when it ends.
in_fresh() {
  unshare --mount --fork -- bash -c '
    set -e
    mount -t proc proc "$1/proc"
    mount --rbind /sys "$1/sys"
    mount --rbind /dev "$1/dev"
    chroot "$1" /usr/bin/env -i HOME=/root TERM=dumb CI=true LANG=C.UTF-8 \
      PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
      bash -c "cd /root/warpdrill && $2"' in_fresh "$fresh" "$1" < /dev/null
}

# run_step WHAT COMMAND: runs COMMAND in the fresh system and says how long it
# took, and how much of that was apt-get's; stops at a failure.
run_step() {
  echo "== $2"
  if ! in_fresh "$2" 2>&1 | tee "$work/step.log"; then
    step_done "$1: FAILED"
    printf '%s\n' "${report[@]}"
    exit 1
  fi
  step_done "$1"
  local installed
  installed=$(sed -n 's/^warpdrill: installed in \([0-9]*\) s$/\1/p' "$work/step.log")
  step_done "  of which installing packages (apt-get)" "${installed:-0}"
}

run_step "./warpdrill: fresh clone to the first lesson shown" ./warpdrill
echo "== versions: $(chroot "$fresh" dpkg-query -W -f='${Package} ${Version}, ' cmake g++ catch2 libfmt-dev libcli11-dev)"
run_step "./warpdrill test: the whole test suite" "./warpdrill test"

echo "== Debian $suite, fresh: every step passed ($(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg))"
printf '%s\n' "${report[@]}"
[[ $keep == no ]] || echo "the root is kept in $fresh"
