#!/usr/bin/env bash
# The set-up's decisions (scripts/setup.sh, ./warpdrill) without the real
# package manager: first the functions that decide, with their inputs given;
# then ./warpdrill itself on a scratch copy, with stand-ins for dpkg-query,
# apt-get, apt-config, sudo, id and cmake on its PATH that record what they
# were asked to do. In English, and some of it in Chinese (WARPDRILL_LANG=zh,
# --lang zh), which holds no English sentence (tests/messages/english_prose.py).
#   tests/runner/setup_decisions.sh SOURCE_DIR
set -euo pipefail
source_dir=$(cd "$1" && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAILED: $*" >&2; exit 1; }
expect() {  # expect TEXT FILE: the file contains the text
  grep -qF -- "$1" "$2" || { cat "$2"; fail "expected '$1'"; }
}
expect_not() {  # expect_not TEXT FILE
  if grep -qF -- "$1" "$2"; then cat "$2"; fail "did not expect '$1'"; fi
}
same() {  # same ACTUAL EXPECTED WHAT
  [[ $1 == "$2" ]] || fail "$3: got '$1', expected '$2'"
}

course_root=$source_dir
assume_yes=no
source "$source_dir/scripts/setup.sh"
language=en  # whatever this machine's locale

echo "-- the language: --lang, then WARPDRILL_LANG, LC_ALL, LC_MESSAGES, LANG (the first set and not empty)"
# (-: empty; 2> /dev/null: bash warns of an LC_ALL whose locale is not installed)
#  --lang WARPDRILL_LANG LC_ALL      LC_MESSAGES LANG        -> language
while read -r option variable all messages lang expected; do
  same "$(env WARPDRILL_LANG="${variable#-}" LC_ALL="${all#-}" LC_MESSAGES="${messages#-}" LANG="${lang#-}" \
    bash -c 'source "$1"; chosen_language "$2"' _ "$source_dir/scripts/setup.sh" "${option#-}" 2> /dev/null)" \
    "$expected" "chosen_language: $option $variable $all $messages $lang"
done << 'EOF'
-  -  -           -           -           en
zh en en_US.UTF-8 -           -           zh
en zh zh_CN.UTF-8 -           -           en
-  zh en_US.UTF-8 -           -           zh
-  -  zh_CN.UTF-8 en_US.UTF-8 en_US.UTF-8 zh
-  -  -           zh_TW.UTF-8 en_US.UTF-8 zh
-  -  -           -           zh_CN.UTF-8 zh
-  -  -           -           de_DE.UTF-8 en
-  en -           -           zh_CN.UTF-8 en
EOF

echo "-- who installs, and whether to ask: root or not, terminal or not, --yes, sudo"
#             uid  terminal yes sudo   -> verb      as
while read -r uid terminal yes sudo expected; do
  same "$(install_action "$uid" "$terminal" "$yes" "$sudo")" "${expected/_/ }" \
    "install_action uid=$uid terminal=$terminal yes=$yes sudo=$sudo"
done << 'EOF'
0    no  no  no   tell_root
0    no  no  yes  tell_root
0    yes no  no   ask_root
0    no  yes no   install_root
0    yes yes yes  install_root
1000 yes no  yes  ask_sudo
1000 no  no  yes  tell_sudo
1000 no  yes yes  install_sudo
1000 yes yes yes  install_sudo
1000 yes yes no   tell-root_root
1000 no  no  no   tell-root_root
EOF
same "$(install_command root no catch2 cmake)" "apt-get install -y --no-install-recommends catch2 cmake" "root"
same "$(install_command sudo yes catch2)" \
  "sudo apt-get update && sudo apt-get install -y --no-install-recommends catch2" "sudo, stale lists"

echo "-- the package list: groups and purposes"
same "$(packages_in course | head -1)" "cmake" "the first course package"
packages_in course > "$scratch/course.txt"
expect catch2 "$scratch/course.txt"
expect_not python3-sphinx "$scratch/course.txt"
packages_in course test > "$scratch/test.txt"
expect python3-sphinx "$scratch/test.txt"
same "$(purpose_of catch2)" "the lessons' checks (Catch2 2 on Debian 12, 3 on Debian 13)" "catch2's purpose"
same "$(language=zh purpose_of g++)" "编译检查程序和 CPU 后端" "g++'s purpose in Chinese"

echo "-- apt-get update when the lists are missing or more than a day old"
mkdir -p "$scratch/lists"
lists_stale "$scratch/lists" || fail "empty lists are not stale"
touch -d '3 days ago' "$scratch/lists/deb.debian.org_debian_dists_trixie_InRelease"
lists_stale "$scratch/lists" || fail "3-day-old lists are not stale"
touch "$scratch/lists/deb.debian.org_debian_dists_trixie_InRelease"
if lists_stale "$scratch/lists"; then fail "fresh lists are stale"; fi

echo "-- apt-get failing: one line that names the cause"
cause() { printf '%s\n' "$1" > "$scratch/apt.log"; apt_failure_cause "$scratch/apt.log"; }
cause "E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 4242 (apt-get)" > "$scratch/out"
expect "holds apt's lock" "$scratch/out"
cause $'W: Failed to fetch http://deb.debian.org/debian/dists/trixie/InRelease  Temporary failure resolving \'deb.debian.org\'\nE: Unable to locate package catch2' > "$scratch/out"
expect "cannot be reached (no network?)" "$scratch/out"
cause "E: Unable to locate package libtomlplusplus-dev" > "$scratch/out"
expect "package lists have no libtomlplusplus-dev" "$scratch/out"
cause "sudo: a terminal is required to read the password" > "$scratch/out"
expect "sudo did not run apt-get" "$scratch/out"
same "$(cause "E: Sub-process /usr/bin/dpkg returned an error code (1)")" \
  "Sub-process /usr/bin/dpkg returned an error code (1)" "another apt error"
same "$(language=zh cause "E: Unable to locate package libtomlplusplus-dev")" \
  "这个系统的软件包列表里没有 libtomlplusplus-dev（Debian 12 及更新版本、Ubuntu 24.04 及更新版本有课程需要的全部软件包）" \
  "a package the lists lack, in Chinese"

echo "-- CMake failing: the missing package, not a trace (real CMake output)"
mkdir -p "$scratch/half-installed"
cat > "$scratch/half-installed/CMakeLists.txt" << 'EOF'
cmake_minimum_required(VERSION 3.25)
project(half_installed LANGUAGES NONE)
find_package(Catch2 REQUIRED)
EOF
# A machine with cmake but no Catch2: CMake searches an empty root.
if cmake -G Ninja -S "$scratch/half-installed" -B "$scratch/half-installed/build" -DCMAKE_FIND_ROOT_PATH="$scratch/empty" \
  -DCMAKE_FIND_ROOT_PATH_MODE_PACKAGE=ONLY > "$scratch/configure.log" 2>&1; then
  fail "Catch2 was found in an empty root"
fi
same "$(configure_failure_cause "$scratch/configure.log")" \
  "CMake did not find Catch2: the package catch2 is missing (the lessons' checks (Catch2 2 on Debian 12, 3 on Debian 13))" \
  "cmake without Catch2"
same "$(language=zh configure_failure_cause "$scratch/configure.log")" \
  "CMake 没有找到 Catch2：缺少软件包 catch2（各课的检查（Debian 12 上是 Catch2 2，Debian 13 上是 Catch2 3））" \
  "cmake without Catch2, in Chinese"
printf 'CMake Error at cmake/Backend.cmake:63 (message):\n  the GPU backend needs nvcc\n\n\n-- Configuring incomplete\n' > "$scratch/configure.log"
same "$(configure_failure_cause "$scratch/configure.log")" "the GPU backend needs nvcc " "a message of our own"

echo "-- a build directory from another checkout, backend, version"
stamp=$(setup_stamp auto)
mkdir -p "$scratch/build"
same "$(build_dir_mismatch "$scratch/build" "$stamp")" "" "no build directory yet"
touch "$scratch/build/CMakeCache.txt"
same "$(build_dir_mismatch "$scratch/build" "$stamp")" "it was made by an older warpdrill" "no stamp"
echo "$stamp" > "$scratch/build/warpdrill-setup.txt"
same "$(build_dir_mismatch "$scratch/build" "$stamp")" "" "the same stamp"
same "$(build_dir_mismatch "$scratch/build" "$(setup_stamp gpu)")" "it was made for the backend 'auto'" "another backend"
sed -i 's|^source .*|source /elsewhere/course|' "$scratch/build/warpdrill-setup.txt"
same "$(build_dir_mismatch "$scratch/build" "$stamp")" "it was made for the course in /elsewhere/course" "a moved checkout"
same "$(language=zh build_dir_mismatch "$scratch/build" "$stamp")" "它是为 /elsewhere/course 中的课程生成的" \
  "a moved checkout, in Chinese"

echo "-- why this backend: the case CMake recorded, with the GPU and the nvcc it found"
course_build="$scratch/reasons"  # backend_reason reads build/course's cache: a scratch one
mkdir -p "$course_build"
# case|its reason in English: cmake/Backend.cmake's words from before it recorded cases
while IFS='|' read -r backend_case expected; do
  printf 'WARPDRILL_BACKEND_CASE:INTERNAL=%s\nWARPDRILL_GPU_NAME:INTERNAL=%s\nWARPDRILL_NVCC_VERSION:INTERNAL=%s\n' \
    "$backend_case" "NVIDIA H100 80GB HBM3" "nvcc 13.0" > "$course_build/CMakeCache.txt"
  same "$(backend_reason)" "$expected" "the reason for $backend_case"
done << 'EOF'
auto_gpu|nvcc 13.0 and an NVIDIA H100 80GB HBM3: GPU backend
auto_gpu_without_nvcc|an NVIDIA H100 80GB HBM3 but no nvcc: CPU backend
auto_nvcc_without_gpu|nvcc 13.0 but no GPU visible: CPU backend
auto_no_nvcc|no nvcc: CPU backend
chosen_cpu|chosen: CPU backend
chosen_gpu|nvcc 13.0 and an NVIDIA H100 80GB HBM3, chosen: GPU backend
chosen_gpu_without_gpu|nvcc 13.0 but no GPU visible, chosen: GPU backend (compile only)
EOF
same "$(language=zh backend_reason)" "有 nvcc 13.0 但看不到 GPU，按你的选择使用 GPU 后端（只编译，不运行）" \
  "the reason for chosen_gpu_without_gpu, in Chinese"

# ---------------------------------------------------------------------------
echo "-- ./warpdrill itself, with stand-ins for the package manager and cmake"
course="$scratch/a course with spaces"
mkdir -p "$course/scripts" "$course/packages" "$course/messages"
cp "$source_dir/warpdrill" "$course/"
cp "$source_dir/scripts/setup.sh" "$course/scripts/"
cp "$source_dir/packages/debian.txt" "$course/packages/"
cp "$source_dir/messages/setup.toml" "$course/messages/"

# The stand-ins log each call to $calls. FAKE_INSTALLED: the packages dpkg
# has; FAKE_UID: what id -u says; FAKE_APT_ERROR: apt-get fails with it.
fake="$scratch/fake-bin"
mkdir -p "$fake" "$scratch/apt-lists"
calls="$scratch/calls.log"
cat > "$fake/dpkg-query" << 'EOF'
#!/bin/bash
# dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' NAME...: a line for each one installed.
status=0
for name in "${@:3}"; do
  if [[ " $FAKE_INSTALLED " == *" $name "* ]]; then echo "ii  $name"; else status=1; fi
done
exit $status
EOF
cat > "$fake/apt-get" << 'EOF'
#!/bin/bash
echo "apt-get $*" >> "$FAKE_CALLS"
[[ -z ${FAKE_APT_ERROR:-} ]] || { echo "$FAKE_APT_ERROR"; exit 100; }
EOF
cat > "$fake/sudo" << 'EOF'
#!/bin/bash
echo "sudo $*" >> "$FAKE_CALLS"
exec "$@"
EOF
cat > "$fake/id" << 'EOF'
#!/bin/bash
echo "$FAKE_UID"
EOF
cat > "$fake/apt-config" << 'EOF'
#!/bin/bash
echo "lists='$FAKE_LISTS/'"
EOF
# cmake: --preset writes a cache (no nvcc; with FAKE_NVCC, that nvcc and no
# GPU), --build a warpdrill program that prints its arguments.
cat > "$fake/cmake" << 'EOF'
#!/bin/bash
case $1 in
  --version) echo "cmake version 3.25.1" ;;
  --preset)
    echo "cmake $* (in $PWD)" >> "$FAKE_CALLS"
    mkdir -p build/course
    backend_case=auto_no_nvcc
    [[ -n ${FAKE_NVCC-} ]] && backend_case=auto_nvcc_without_gpu
    printf 'WARPDRILL_BACKEND_CASE:INTERNAL=%s\nWARPDRILL_GPU_NAME:INTERNAL=\nWARPDRILL_NVCC_VERSION:INTERNAL=%s\n' \
      "$backend_case" "${FAKE_NVCC-}" > build/course/CMakeCache.txt ;;
  --build)
    echo "cmake $*" >> "$FAKE_CALLS"
    mkdir -p "$2/runner"
    printf '#!/bin/bash\necho "warpdrill program: $*"\n' > "$2/runner/warpdrill"
    chmod +x "$2/runner/warpdrill" ;;
esac
EOF
chmod +x "$fake"/*
# The rest of PATH: only the basic tools, so that a real sudo or apt-get is never reached.
tools="$scratch/tools"
mkdir -p "$tools"
for tool in bash env dirname readlink awk sed grep head tail cut tr find mkdir rm cat printf touch chmod; do
  ln -s "$(command -v "$tool")" "$tools/$tool"
done
all_installed=$(packages_in course test ci | tr '\n' ' ')
without() { sed "s/ $1 / /" <<< " $all_installed "; }

# launch [ENV=VALUE...] -- ARGS...: ./warpdrill, stdin from /dev/null (no terminal).
launch() {
  local settings=()
  while [[ $1 != -- ]]; do settings+=("$1"); shift; done
  shift
  : > "$calls"
  env -i PATH="$fake:$tools" HOME="$scratch" FAKE_CALLS="$calls" FAKE_LISTS="$scratch/apt-lists" \
    FAKE_UID=0 FAKE_INSTALLED="$all_installed" "${settings[@]}" \
    "$course/warpdrill" "$@" > "$scratch/out" 2>&1 < /dev/null
}

echo "   root, CI=true, empty lists, Catch2 and fmt missing: update, install, then configure"
launch CI=true FAKE_INSTALLED="$(without catch2 | sed 's/ libfmt-dev / /')" -- list || fail "launcher failed: $(cat "$scratch/out")"
expect "catch2                 the lessons' checks" "$scratch/out"
expect "libfmt-dev             the warpdrill command's output" "$scratch/out"
same "$(sed -n 1p "$calls")" "apt-get update" "the first call"
same "$(sed -n 2p "$calls")" "apt-get install -y --no-install-recommends catch2 libfmt-dev" "the second call"
expect "cmake --preset course -DWARPDRILL_BACKEND=auto (in $course)" "$calls"
expect "warpdrill: no nvcc: CPU backend. ./warpdrill --backend cpu|gpu switches." "$scratch/out"
expect "warpdrill program: list" "$scratch/out"

echo "   a cmake that dpkg does not know (Kitware's, say) counts: it is on PATH"
launch FAKE_INSTALLED="$(without cmake)" -- list || fail "launcher failed: $(cat "$scratch/out")"
expect_not "apt-get" "$calls"

echo "   set up already: no apt-get, no configure, the arguments passed on (--backend not)"
launch -- check 3 --yes || fail "launcher failed: $(cat "$scratch/out")"
expect_not "apt-get" "$calls"
expect_not "--preset" "$calls"
same "$(cat "$scratch/out")" "warpdrill program: check 3 --yes" "what the warpdrill program got"

echo "   not root, sudo, --yes, fresh lists: sudo apt-get install, no update"
touch "$scratch/apt-lists/deb.debian.org_debian_dists_trixie_InRelease"
launch FAKE_UID=1000 FAKE_INSTALLED="$(without ninja-build)" -- --yes list || fail "launcher failed: $(cat "$scratch/out")"
same "$(sed -n 1p "$calls")" "sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ninja-build" "through sudo"
expect_not "update" "$calls"

echo "   no terminal and no --yes: the exact command, exit 2, nothing installed"
set +e
launch FAKE_INSTALLED="$(without catch2)" -- list
status=$?
set -e
same "$status" 2 "exit status without a terminal"
expect "  apt-get install -y --no-install-recommends catch2" "$scratch/out"
expect "./warpdrill --yes (or CI=true) installs them" "$scratch/out"
[[ ! -s $calls ]] || fail "something ran: $(cat "$calls")"

echo "   not root and no sudo: the command for root, exit 2"
rm "$fake/sudo"
set +e
launch FAKE_UID=1000 CI=true FAKE_INSTALLED="$(without catch2)" -- list
status=$?
set -e
same "$status" 2 "exit status without sudo"
expect "only root can install them, and there is no sudo here" "$scratch/out"
[[ ! -s $calls ]] || fail "something ran: $(cat "$calls")"

echo "   apt-get fails on a held lock: one line"
set +e
launch CI=true FAKE_INSTALLED="$(without catch2)" \
  FAKE_APT_ERROR="E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 4242 (apt-get)" -- list
status=$?
set -e
same "$status" 1 "exit status when apt-get fails"
expect "warpdrill: installing packages failed: another program is installing packages and holds apt's lock" "$scratch/out"
expect_not "warpdrill program" "$scratch/out"

echo "   ./warpdrill test also installs what the tests need"
launch CI=true FAKE_INSTALLED="$(without python3-sphinx)" -- test || fail "launcher failed: $(cat "$scratch/out")"
expect "apt-get install -y --no-install-recommends python3-sphinx" "$calls"
launch CI=true FAKE_INSTALLED="$(without python3-sphinx)" -- list || fail "launcher failed: $(cat "$scratch/out")"
expect_not "apt-get" "$calls"

echo "   --backend: a fresh build directory for the other backend; a bad one is one line"
launch -- --backend cpu list || fail "launcher failed: $(cat "$scratch/out")"
expect "making build/course afresh: it was made for the backend 'auto'" "$scratch/out"
expect "cmake --preset course -DWARPDRILL_BACKEND=cpu" "$calls"
launch -- list || fail "launcher failed: $(cat "$scratch/out")"
expect_not "--preset" "$calls"  # the choice stays
set +e
launch -- --backend=tpu list
status=$?
set -e
same "$status-$(cat "$scratch/out")" "2-warpdrill: --backend takes cpu, gpu or auto (got 'tpu')" "a bad backend"
set +e
launch -- --backend
status=$?
set -e
same "$status-$(cat "$scratch/out")" "2-warpdrill: --backend takes cpu, gpu or auto (got '')" "no backend"

echo "   a build directory from an older warpdrill is made afresh"
rm "$course/build/course/warpdrill-setup.txt"
launch -- list || fail "launcher failed: $(cat "$scratch/out")"
expect "making build/course afresh: it was made by an older warpdrill" "$scratch/out"

# chinese_only: what ./warpdrill said (the stand-in program's line aside) holds no English prose.
chinese_only() {
  grep -v '^warpdrill program: ' "$scratch/out" | python3 "$source_dir/tests/messages/english_prose.py" - ||
    fail "English in the Chinese set-up: $(cat "$scratch/out")"
}

echo "   WARPDRILL_LANG=zh: the set-up in Chinese, with the reason CMake recorded"
rm -rf "$course/build"
launch WARPDRILL_LANG=zh CI=true FAKE_NVCC="nvcc 13.0" FAKE_INSTALLED="$(without catch2)" -- list ||
  fail "launcher failed: $(cat "$scratch/out")"
expect "warpdrill: 缺少这些软件包：" "$scratch/out"
expect "  catch2                 各课的检查（Debian 12 上是 Catch2 2，Debian 13 上是 Catch2 3）" "$scratch/out"
expect "warpdrill: 正在用 apt-get 安装 1 个软件包（日志：build/setup-apt.log）……" "$scratch/out"
expect "warpdrill: 有 nvcc 13.0 但看不到 GPU，使用 CPU 后端。用 ./warpdrill --backend cpu|gpu 切换。" "$scratch/out"
expect "warpdrill program: list" "$scratch/out"
chinese_only

echo "   --lang zh and --lang=zh: Chinese too, passed on to the warpdrill program unchanged"
status=0
launch FAKE_INSTALLED="$(without catch2)" -- --lang zh list || status=$?
same "$status" 2 "exit status without a terminal, in Chinese"
expect "warpdrill: 没有可以提问的终端：./warpdrill --yes（或 CI=true）会安装它们；也可以运行：" "$scratch/out"
expect "  apt-get install -y --no-install-recommends catch2" "$scratch/out"
chinese_only
status=0
launch -- --lang=zh --backend=tpu list || status=$?
same "$status-$(cat "$scratch/out")" "2-warpdrill: --backend 的取值是 cpu、gpu 或 auto（收到的是 'tpu'）" "a bad backend, in Chinese"
launch -- --lang zh check 3 || fail "launcher failed: $(cat "$scratch/out")"
same "$(cat "$scratch/out")" "warpdrill program: --lang zh check 3" "what the warpdrill program got after --lang zh"
launch CI=true FAKE_INSTALLED="$(without python3-sphinx)" -- --lang zh test || fail "launcher failed: $(cat "$scratch/out")"
expect "apt-get install -y --no-install-recommends python3-sphinx" "$calls"  # the command is test, not zh

echo "   English: --lang en or WARPDRILL_LANG=en over a Chinese locale; a --lang among run's arguments is the program's"
in_english() {  # in_english [ENV=VALUE...] -- ARGS...: without catch2 and a terminal, it says so in English
  status=0
  launch FAKE_INSTALLED="$(without catch2)" "$@" || status=$?
  same "$status" 2 "exit status without a terminal ($*)"
  expect "warpdrill: no terminal to ask on: ./warpdrill --yes (or CI=true) installs them; or run:" "$scratch/out"
}
in_english LANG=zh_CN.UTF-8 -- --lang en list
in_english WARPDRILL_LANG=en LC_ALL=zh_CN.UTF-8 -- list
in_english -- run x.cu --lang zh

echo "   from another directory, through a symbolic link"
ln -s "$course/warpdrill" "$scratch/linked-warpdrill"
mkdir -p "$scratch/elsewhere"
(cd "$scratch/elsewhere" && env -i PATH="$fake:$tools" FAKE_CALLS="$calls" FAKE_UID=0 FAKE_INSTALLED="$all_installed" \
  FAKE_LISTS="$scratch/apt-lists" "$scratch/linked-warpdrill" list > "$scratch/out" 2>&1) ||
  fail "launcher through a link failed: $(cat "$scratch/out")"
expect "warpdrill program: list" "$scratch/out"

echo "   on a terminal it asks: no installs nothing, yes installs"
answer() {  # answer REPLY [ENV=VALUE...]: runs ./warpdrill list on a pseudo-terminal and answers the question
  local reply=$1
  shift
  : > "$calls"
  env -i PATH="$fake:$tools" FAKE_CALLS="$calls" FAKE_UID=0 FAKE_INSTALLED="$(without catch2)" \
    FAKE_LISTS="$scratch/apt-lists" "$@" python3 - "$course/warpdrill" "$reply" > "$scratch/out" 2>&1 << 'EOF'
import os, pty, sys, time
pid, fd = pty.fork()
if pid == 0:
    os.execv(sys.argv[1], [sys.argv[1], "list"])
seen = b""
while b"[Y/n]" not in seen:
    seen += os.read(fd, 1024)
os.write(fd, sys.argv[2].encode() + b"\n")
try:
    while chunk := os.read(fd, 1024):
        seen += chunk
except OSError:
    pass
print(seen.decode())
sys.exit(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))
EOF
}
ln -s "$(python3 -c "import sys; print(sys.executable)")" "$tools/python3"  # not a wrapper script
set +e
answer n
status=$?
set -e
same "$status" 2 "exit status after no"
expect "nothing installed" "$scratch/out"
[[ ! -s $calls ]] || fail "something ran after no: $(cat "$calls")"
answer y || fail "launcher failed after yes: $(cat "$scratch/out")"
expect "apt-get install -y --no-install-recommends catch2" "$calls"
status=0
answer n WARPDRILL_LANG=zh || status=$?
same "$status" 2 "exit status after no, in Chinese"
expect "现在安装它们吗（apt-get install -y --no-install-recommends catch2）？[Y/n]" "$scratch/out"
expect "warpdrill: 没有安装任何软件包；课程需要它们：apt-get install -y --no-install-recommends catch2" "$scratch/out"

echo "setup decisions: all passed"
