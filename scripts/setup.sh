# The set-up ./warpdrill does before anything else, as bash functions (source
# this file; it runs nothing by itself): install what packages/debian.txt
# lists and this machine lacks, asking first, then configure build/course and
# build the warpdrill program, saying in one line what went wrong when
# something does. The decisions are functions of their inputs (install_action,
# lists_stale, build_dir_mismatch, the *_failure_cause) so that
# tests/runner/setup_decisions.sh can try every case without a package manager.
# What it says is in messages/setup.toml, in the language chosen_language
# picks.
#
# The caller sets course_root (the checkout) and assume_yes (yes or no), and
# may set language (en or zh) once it has read a --lang option.

package_list="$course_root/packages/debian.txt"
setup_catalog="$course_root/messages/setup.toml"
course_build="$course_root/build/course"
setup_logs="$course_root/build"
# Bump when build/course must be made afresh by this version of the set-up.
setup_layout=2

# chosen_language LANG_OPTION: zh or en, by the rule of choose_language in
# messages/src/messages.cpp: --lang's value, else the first of WARPDRILL_LANG,
# LC_ALL, LC_MESSAGES and LANG that is set and not empty; Chinese when it
# starts with "zh".
chosen_language() {
  local value
  for value in "$1" "${WARPDRILL_LANG-}" "${LC_ALL-}" "${LC_MESSAGES-}" "${LANG-}"; do
    [[ -n $value ]] || continue
    if [[ $value == zh* ]]; then echo zh; else echo en; fi
    return
  done
  echo en
}
language=$(chosen_language "")

# message ID [FIELD=VALUE...]: message ID of messages/setup.toml in $language,
# each {FIELD} replaced by its VALUE. A FIELD the wording does not name is
# ignored: the backend reasons name only some of theirs. The file keeps to
# the form awk reads here (its header says which): a header line,
# [setup.package."g++"], is the id setup.package.g++; then `en = "..."`.
message() {
  local id=$1 field wording
  shift
  wording=$(awk -v id="$id" -v key="$language" '
    /^\[/ { gsub(/[]["]/, ""); table = $0; next }
    table == id && $1 == key { sub(/^[a-z]+ = "/, ""); sub(/"$/, ""); gsub(/\\"/, "\""); print; exit }
  ' "$setup_catalog")
  for field; do wording=${wording//"{${field%%=*}}"/"${field#*=}"}; done
  printf '%s\n' "$wording"
}

say() { echo "warpdrill: $*"; }
complain() { echo "warpdrill: $*" >&2; }

# packages_in GROUP...: the packages of those groups, in the list's order.
packages_in() {
  awk -v groups=" $* " '!/^#/ && NF >= 2 && index(groups, " " $2 " ") { print $1 }' "$package_list"
}

# purpose_of PACKAGE: what the package is for.
purpose_of() { message "setup.package.$1"; }

# The command a package's tool is run by ("" for a library).
command_of() {
  case $1 in
    cmake | g++ | git | python3 | mmdebstrap) echo "$1" ;;
    ninja-build) echo ninja ;;
  esac
}

# missing_packages PACKAGE...: those that dpkg does not have installed. A
# tool installed otherwise (a cmake from Kitware, say) counts when its
# command is on PATH. One dpkg-query asks for all: every warpdrill command,
# each check after a save included, comes through here.
missing_packages() {
  local installed name tool
  installed=" $(dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' "$@" 2> /dev/null |
    awk '$1 == "ii" { printf "%s ", $2 }' || true) "
  for name; do
    [[ $installed == *" $name "* ]] && continue
    tool=$(command_of "$name")
    [[ -n $tool ]] && command -v "$tool" > /dev/null && continue
    echo "$name"
  done
}

# install_action UID TERMINAL ASSUME_YES SUDO -> "VERB AS"
#   UID: the user's id. TERMINAL: yes when there is a terminal to ask on.
#   ASSUME_YES: yes for --yes or CI=true. SUDO: yes when sudo is installed.
#   VERB: install (go ahead), ask (on the terminal first), tell (print the
#   command and stop) or tell-root (only root can install; print the command).
#   AS: root (apt-get) or sudo (sudo apt-get).
install_action() {
  local uid=$1 terminal=$2 assume_yes=$3 sudo=$4 as=root
  if [[ $uid != 0 ]]; then
    [[ $sudo == yes ]] || { echo "tell-root root"; return; }
    as=sudo
  fi
  if [[ $assume_yes == yes ]]; then
    echo "install $as"
  elif [[ $terminal == yes ]]; then
    echo "ask $as"
  else
    echo "tell $as"
  fi
}

# apt_lists_dir: where apt keeps its package lists.
apt_lists_dir() {
  local lists=/var/lib/apt/lists/
  command -v apt-config > /dev/null && eval "$(apt-config shell lists Dir::State::lists/d)"
  echo "$lists"
}

# lists_stale DIR: true when apt's package lists there are missing (as in a
# fresh container) or were fetched more than a day ago.
lists_stale() {
  [[ -z $(find "$1" -maxdepth 1 -name '*Release' -newermt '-1 day' -print -quit 2> /dev/null) ]]
}

# install_command AS UPDATE PACKAGE...: the command line, as the user would type it.
install_command() {
  local as=$1 update=$2 prefix=""
  shift 2
  [[ $as == sudo ]] && prefix="sudo "
  [[ $update == yes ]] && echo -n "${prefix}apt-get update && "
  echo "${prefix}apt-get install -y --no-install-recommends $*"
}

# apt_failure_cause LOG: why apt-get failed, in one line.
apt_failure_cause() {
  local log=$1
  if grep -q 'Could not get lock\|Unable to acquire the dpkg frontend lock\|Unable to lock' "$log"; then
    message setup.apt.lock
  elif grep -q 'Temporary failure resolving\|Could not resolve\|Could not connect\|Unable to connect\|Network is unreachable\|Connection timed out\|Failed to fetch' "$log"; then
    message setup.apt.unreachable
  elif grep -q 'a password is required\|a terminal is required\|incorrect password' "$log"; then
    message setup.apt.sudo
  elif grep -q 'Unable to locate package\|has no installation candidate' "$log"; then
    message setup.apt.unknown_package package="$(grep -o 'Unable to locate package [^ ]*\|Package [^ ]* has no' "$log" |
      head -1 | awk '{print ($1 == "Package") ? $2 : $NF}')"
  elif grep -q '^E: ' "$log"; then
    grep '^E: ' "$log" | head -1 | cut -c4-
  else
    message setup.apt.failed
  fi
}

# ensure_packages GROUP...: installs the packages of those groups that this
# machine lacks, after asking on a terminal. Returns 2 when it may not or
# cannot install them (the command to run is printed), 1 when apt-get failed.
ensure_packages() {
  if ! command -v dpkg-query > /dev/null; then
    local names
    names=$(packages_in "$@")
    say "$(message setup.not_debian packages="${names//$'\n'/ }")"
    return 0
  fi
  local missing name
  mapfile -t missing < <(missing_packages $(packages_in "$@"))
  ((${#missing[@]})) || return 0
  say "$(message setup.missing)"
  for name in "${missing[@]}"; do printf '  %-22s %s\n' "$name" "$(purpose_of "$name")"; done

  local terminal=no sudo=no update=no verb as command
  [[ -t 0 ]] && terminal=yes
  command -v sudo > /dev/null && sudo=yes
  lists_stale "$(apt_lists_dir)" && update=yes
  read -r verb as <<< "$(install_action "$(id -u)" "$terminal" "$assume_yes" "$sudo")"
  command=$(install_command "$as" "$update" "${missing[@]}")
  case $verb in
    tell-root)
      complain "$(message setup.install.root_only)"
      echo "  $command" >&2
      return 2
      ;;
    tell)
      complain "$(message setup.install.no_terminal)"
      echo "  $command" >&2
      return 2
      ;;
    ask)
      local answer
      read -r -p "$(message setup.install.ask command="$command")" answer
      if [[ ! $answer =~ ^([yY]|[yY]es|)$ ]]; then
        complain "$(message setup.install.declined command="$command")"
        return 2
      fi
      ;;
  esac
  install_packages "$as" "$update" "${missing[@]}"
}

# install_packages AS UPDATE PACKAGE...: apt-get, as root or through sudo,
# with its output in build/setup-apt.log.
install_packages() {
  local as=$1 update=$2
  shift 2
  local apt=(env DEBIAN_FRONTEND=noninteractive apt-get) log="$setup_logs/setup-apt.log" start=$SECONDS
  [[ $as == sudo ]] && apt=(sudo "${apt[@]}")
  mkdir -p "$setup_logs"
  if (($# == 1)); then say "$(message setup.install.one)"; else say "$(message setup.install.many count=$#)"; fi
  if ! { { [[ $update == no ]] || "${apt[@]}" update; } &&
    "${apt[@]}" install -y --no-install-recommends "$@"; } > "$log" 2>&1 < /dev/null; then
    complain "$(message setup.install.failed cause="$(apt_failure_cause "$log")")"
    return 1
  fi
  say "$(message setup.install.done seconds=$((SECONDS - start)))"
  packages_installed=yes
}

# setup_stamp CHOICE: what build/course must have been made for: this version
# of the set-up, this checkout, the backend chosen (auto, cpu or gpu), this CMake.
setup_stamp() {
  printf 'layout %s\nsource %s\nbackend %s\ncmake %s\n' "$setup_layout" "$course_root" "$1" \
    "$(cmake --version | head -1 | awk '{print $NF}')"
}

# stamp_value KEY STAMP: one value of a stamp.
stamp_value() { sed -n "s/^$1 //p" <<< "$2"; }

# build_dir_mismatch DIR EXPECTED_STAMP: why the build directory DIR cannot
# be used as it is; nothing when it can (or when there is none yet).
build_dir_mismatch() {
  local dir=$1 expected=$2 found key
  [[ -f $dir/CMakeCache.txt ]] || return 0
  if [[ ! -f $dir/warpdrill-setup.txt ]]; then
    message setup.build_dir.older
    return 0
  fi
  found=$(< "$dir/warpdrill-setup.txt")
  [[ $found == "$expected" ]] && return 0  # the usual case, without a look at each key
  for key in layout source backend cmake; do
    [[ $(stamp_value $key "$found") == $(stamp_value $key "$expected") ]] && continue
    case $key in
      layout) message setup.build_dir.layout ;;
      source) message setup.build_dir.source dir="$(stamp_value source "$found")" ;;
      backend) message setup.build_dir.backend backend="$(stamp_value backend "$found")" ;;
      cmake) message setup.build_dir.cmake version="$(stamp_value cmake "$found")" ;;
    esac
    return 0
  done
}

# The Debian package that holds what CMake calls NAME.
package_for_cmake_name() {
  case $1 in
    Catch2) echo catch2 ;;
    Boost | boost_*) echo libboost-context-dev ;;
    CLI11) echo libcli11-dev ;;
    fmt) echo libfmt-dev ;;
    tomlplusplus) echo libtomlplusplus-dev ;;
    Ninja) echo ninja-build ;;
    CXX) echo g++ ;;
  esac
}

# configure_failure_cause LOG: why CMake could not configure, in one line.
configure_failure_cause() {
  local log=$1 name package
  name=$(grep -o 'provided by "[A-Za-z0-9_]*"\|Could NOT find [A-Za-z0-9_]*\|build program corresponding to "Ninja"\|No CMAKE_CXX_COMPILER' "$log" |
    head -1 | grep -o '[A-Za-z0-9_]*"*$' | tr -d '"') || true
  [[ $name == CMAKE_CXX_COMPILER ]] && name=CXX
  package=$(package_for_cmake_name "$name")
  if [[ -n $package ]]; then
    message setup.cmake.not_found name="$name" package="$package" purpose="$(purpose_of "$package")"
  elif grep -q 'CMake 3.[0-9]* or higher is required\|Unrecognized "version" field' "$log"; then
    message setup.cmake.too_old
  elif grep -q '^CMake Error' "$log"; then
    # The first error's own words: the indented lines after "CMake Error ...:".
    awk '/^CMake Error/ { inside = 1; next } inside && /^  / { sub(/^ +/, ""); printf "%s ", $0; next } inside { exit }' "$log"
    echo
  else
    message setup.cmake.failed
  fi
}

# configure_failed LOG: says why CMake could not configure.
configure_failed() {
  complain "$(message setup.configure_failed cause="$(configure_failure_cause "$1")")"
}

# cached NAME: what build/course's CMake cache holds for NAME.
cached() { sed -n "s/^$1:INTERNAL=//p" "$course_build/CMakeCache.txt"; }

# backend_reason: why build/course has its backend: the case that
# cmake/Backend.cmake recorded, with the GPU and the nvcc it found.
backend_reason() {
  message "setup.backend_reason.$(cached WARPDRILL_BACKEND_CASE)" \
    gpu="$(cached WARPDRILL_GPU_NAME)" nvcc="$(cached WARPDRILL_NVCC_VERSION)"
}

# configure_course CHOICE: a fresh build/course for the backend chosen; says
# which backend it is and why.
configure_course() {
  local choice=$1 log="$setup_logs/setup-configure.log"
  mkdir -p "$setup_logs"
  say "$(message setup.configuring)"
  if ! (cd "$course_root" && cmake --preset course -DWARPDRILL_BACKEND="$choice") > "$log" 2>&1; then
    configure_failed "$log"
    rm -rf "$course_build"  # half made: the next run starts afresh
    return 1
  fi
  setup_stamp "$choice" > "$course_build/warpdrill-setup.txt"
  say "$(message setup.configured reason="$(backend_reason)")"
}

# ensure_course CHOICE: build/course configured for the backend chosen (empty:
# the one it has, else auto) and the warpdrill program built.
ensure_course() {
  if ! command -v cmake > /dev/null; then
    complain "$(message setup.no_cmake)"
    return 1
  fi
  local choice=$1 found=""
  [[ -f $course_build/warpdrill-setup.txt ]] && found=$(stamp_value backend "$(< "$course_build/warpdrill-setup.txt")")
  choice=${choice:-${found:-auto}}
  local reason
  reason=$(build_dir_mismatch "$course_build" "$(setup_stamp "$choice")")
  if [[ -n $reason ]]; then
    say "$(message setup.build_dir.afresh reason="$reason")"
    rm -rf "$course_build"
  fi
  if [[ ! -f $course_build/CMakeCache.txt ]]; then
    configure_course "$choice" || return
    say "$(message setup.building)"
  elif [[ ${packages_installed:-no} == yes ]]; then
    # CMake looks again for what it did not find before (Sphinx, Python:
    # the tests that need them) only when it configures again.
    say "$(message setup.configuring_again)"
    if ! cmake "$course_build" > "$setup_logs/setup-configure.log" 2>&1; then
      configure_failed "$setup_logs/setup-configure.log"
      return 1
    fi
  fi
  local log="$setup_logs/setup-build.log"
  if ! cmake --build "$course_build" --target warpdrill > "$log" 2>&1; then
    if grep -q "warpdrill runner not built" "$setup_logs/setup-configure.log" 2> /dev/null; then
      complain "$(message setup.runner_left_out)"
    else
      complain "$(message setup.build_failed error="$(grep -m1 'error' "$log" || tail -1 "$log")")"
    fi
    return 1
  fi
}
