#!/usr/bin/env bash
# Lesson 13 on a machine with several NVIDIA GPUs: builds the lesson's checks,
# its solution, the NCCL program and the all-reduce benchmark for the GPU
# backend, runs the checks on the GPUs, runs the NCCL program, and measures
# the solution's ring beside ncclAllReduce at 2^16 to 2^28 floats a GPU.
# Writes results/allreduce-<name>.{csv,md,svg} (device, date and command in
# each) and logs to $OUT (default gpu-results/allreduce); prints a summary last.
#   scripts/allreduce-bench.sh [NAME [GPUS]]   NAME defaults to h200x2; GPUS,
#   the first GPUS of the machine (default all of them)
# Needs nvcc (PATH or /usr/local/cuda/bin), cmake, ninja, and NCCL: a system
# package, NCCL_ROOT, or the nvidia-nccl-cu12/cu13 wheel for the python3 on PATH.
# Without a package manager, put the Debian packages of catch2, libcli11-dev,
# libfmt-dev (with libfmt9) and libtomlplusplus-dev (with libtomlplusplus3) as
# .deb files in .deps/: they are unpacked there (dpkg -x, or ar and tar) and
# found through CMAKE_PREFIX_PATH. Nothing is downloaded.
set -uo pipefail
cd "$(dirname "$0")/.."
name=${1:-h200x2}
gpus_args=(${2:+--gpus "$2"})
out=${OUT:-gpu-results/allreduce}
mkdir -p "$out" results
export PATH=/usr/local/cuda/bin:$PATH
# NVLink SHARP (the reduction inside an NVSwitch) stays off: the comparison is between rings over links.
export NCCL_NVLS_ENABLE=0
summary=()
started=$(date +%s)

# Unpacks .deps/*.deb into .deps/root, once.
unpack_debs() {
  local root=.deps/root
  for deb in .deps/*.deb; do
    [[ -e $deb ]] || return 0
    [[ -e "$root/.unpacked-$(basename "$deb")" ]] && continue
    mkdir -p "$root"
    if command -v dpkg > /dev/null; then
      dpkg -x "$deb" "$root"
    else
      local scratch deb_path root_path
      scratch=$(mktemp -d) deb_path=$(realpath "$deb") root_path=$(realpath "$root")
      (cd "$scratch" && ar x "$deb_path" && tar -xf data.tar.* -C "$root_path")
      rm -rf "$scratch"
    fi
    touch "$root/.unpacked-$(basename "$deb")"
  done
}
unpack_debs
prefix_args=()
if [[ -d .deps/root/usr ]]; then
  prefix_args=(-DCMAKE_PREFIX_PATH="$PWD/.deps/root/usr")
  export LD_LIBRARY_PATH=$PWD/.deps/root/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi

{
  nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader
  nvcc --version | tail -2
  nvidia-smi topo -m
} > "$out/device.txt" 2>&1
cat "$out/device.txt"

targets=(solution-13 lesson-13 allreduce_bench nccl_allreduce)
if cmake --preset gpu "${prefix_args[@]}" > "$out/configure.log" 2>&1 &&
   cmake --build build/gpu --target "${targets[@]}" > "$out/build.log" 2>&1; then
  summary+=("build: ok ($(grep -m1 "NCCL program and benchmark" "$out/configure.log" | sed 's/^-- //'))")
else
  summary+=("build: FAILED (see $out/configure.log and $out/build.log)")
  tail -30 "$out/configure.log" "$out/build.log"
fi

if [[ -x build/gpu/solution-13 ]]; then
  timeout 300 ctest --test-dir build/gpu -R '^(solution\.13|lesson\.13\.)' --output-on-failure > "$out/ctest.log" 2>&1
  summary+=("lesson 13's checks on the GPUs: $(grep -E 'tests passed|tests failed' "$out/ctest.log")")
  timeout 120 build/gpu/solution-13 > "$out/solution-13.log" 2>&1
  summary+=("solution-13: $(tail -1 "$out/solution-13.log")")
fi

if [[ -x build/gpu/bench/nccl_allreduce ]]; then
  timeout 120 build/gpu/bench/nccl_allreduce > "$out/nccl_allreduce.log" 2>&1
  summary+=("nccl_allreduce: $(tail -1 "$out/nccl_allreduce.log")")
fi

if [[ -x build/gpu/bench/allreduce_bench ]]; then
  timeout 420 build/gpu/bench/allreduce_bench "${gpus_args[@]}" --csv "results/allreduce-$name.csv" --md "results/allreduce-$name.md" \
    --svg "results/allreduce-$name.svg" | tee "$out/bench.txt"
  summary+=("benchmark: exit ${PIPESTATUS[0]}; results/allreduce-$name.csv, .md, .svg")
  if [[ -f results/allreduce-$name.md ]]; then
    { echo; echo "GPU links, \`nvidia-smi topo -m\`:"; echo; echo '```'; nvidia-smi topo -m; echo '```'; } \
      >> "results/allreduce-$name.md" 2>&1
  fi
  summary+=("ring / NCCL busbw, 2^26 floats and up: $(awk -F'|' '/^\| 2\^2[678] /{printf "%s%s", sep, $(NF-1); sep=","}' "results/allreduce-$name.md" | tr -d ' ')")
fi

echo
echo "== summary ($(head -1 "$out/device.txt"), $(date -u +%Y-%m-%d), $(($(date +%s) - started)) s) =="
printf '%s\n' "${summary[@]}"
