#!/usr/bin/env bash
# Runs each program of cpu-cuda/tests/mistakes/ (one class of mistake each)
# and keeps what names the mistake, for results/mistake-classes-h100.md
# (scripts/mistake-table.py joins the two sides):
#   scripts/mistake-classes.sh cpu DIR   `warpdrill run` on the CPU backend: DIR/NAME.cpu.txt
#   scripts/mistake-classes.sh gpu DIR   on a GPU: builds the programs (the gpu preset), runs each
#                                        plainly and under compute-sanitizer's four tools
#                                        (memcheck with --leak-check full): DIR/NAME.TOOL.txt
# On a machine without a package manager, make Catch2 and the course's other
# packages findable first (CMAKE_PREFIX_PATH; scripts/gpu-check.sh says how).
set -uo pipefail
cd "$(dirname "$0")/.."
side=${1:?cpu or gpu}
out=${2:?an output folder}
mkdir -p "$out"
programs=(cpu-cuda/tests/mistakes/*.cu)

if [[ $side == cpu ]]; then
  for program in "${programs[@]}"; do
    name=$(basename "$program" .cu)
    ./warpdrill run "$program" > "$out/$name.cpu.txt" 2>&1
  done
  exit 0
fi

export PATH=/usr/local/cuda/bin:$PATH
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; compute-sanitizer --version | tail -1; date -u; } \
  > "$out/device.txt"
cmake --preset gpu > "$out/configure.log" 2>&1 || { tail -20 "$out/configure.log"; exit 1; }
targets=()
for program in "${programs[@]}"; do targets+=("mistake-$(basename "$program" .cu)"); done
cmake --build --preset gpu --target "${targets[@]}" > "$out/build.log" 2>&1 || { tail -20 "$out/build.log"; exit 1; }
run_all() {  # run_all NAME: the program plainly, then under each tool
  local name=$1 binary=build/gpu/cpu-cuda/tests/mistake-$1
  timeout 60 "$binary" > "$out/$name.plain.txt" 2>&1
  for tool in memcheck racecheck synccheck initcheck; do
    local extra=()
    [[ $tool == memcheck ]] && extra=(--leak-check full)
    timeout 120 compute-sanitizer --tool "$tool" "${extra[@]}" --print-limit 4 "$binary" > "$out/$name.$tool.txt" 2>&1
  done
}
for program in "${programs[@]}"; do run_all "$(basename "$program" .cu)" & done
wait
grep -l "ERROR SUMMARY: [1-9]\|LEAK SUMMARY: [1-9]" "$out"/*.txt | sed 's|.*/||' | tr '\n' ' '
echo
