#!/usr/bin/env bash
# On a machine with an NVIDIA GPU: builds the GPU backend, runs every test
# (the solutions' checks, each lesson failing as shipped, the shuffle table),
# measures the shuffle table again and compares it with the committed one,
# runs the benchmark when asked (--bench), and records what compute-sanitizer
# says of broken kernels (--sanitizer: cpu-cuda/tests/gpu/sanitizer_probe.cu, the
# reports the runner's parser is tested against). Writes logs to $OUT (or
# ./gpu-results) and prints a short summary last.
#   scripts/gpu-check.sh [--bench] [--sanitizer]
# Catch2, nlohmann-json and toml++ (the message catalog's reader) must be
# findable by CMake; set CMAKE_PREFIX_PATH if they are not installed
# system-wide (a machine without a package manager can use the unpacked
# Debian packages catch2, nlohmann-json3-dev and libtomlplusplus-dev).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-gpu-results}
mkdir -p "$out"
export PATH=/usr/local/cuda/bin:$PATH
summary=()

nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/device.txt"
nvcc --version | tail -2 >> "$out/device.txt"

if cmake --preset gpu > "$out/configure.log" 2>&1 && cmake --build --preset gpu > "$out/build.log" 2>&1; then
  summary+=("build: ok ($(grep -c 'Building' "$out/build.log") compile steps)")
  ctest --preset gpu > "$out/ctest.log" 2>&1
  summary+=("ctest: $(grep -E 'tests passed|tests failed' "$out/ctest.log")")
  grep -E "Test +#" "$out/ctest.log"
else
  summary+=("build: FAILED (see $out/build.log)")
  tail -40 "$out/configure.log" "$out/build.log"
fi

nvcc -std=c++17 -arch=native -o "$out/shuffle_truth" cpu-cuda/tests/gpu/shuffle_truth.cu
"$out/shuffle_truth" > "$out/shuffle_truth.txt"
if diff <(grep -v '^#' cpu-cuda/tests/data/shuffle_truth.txt) <(grep -v '^#' "$out/shuffle_truth.txt") > "$out/shuffle_truth.diff"; then
  summary+=("shuffle table: identical to cpu-cuda/tests/data/shuffle_truth.txt ($(grep -vc '^#' "$out/shuffle_truth.txt") lines)")
else
  summary+=("shuffle table: DIFFERS from the committed one (see $out/shuffle_truth.diff)")
fi
rm -f "$out/shuffle_truth"

if [[ " $* " == *" --sanitizer "* ]]; then
  nvcc -lineinfo -arch=native -Icommon/include -o "$out/sanitizer_probe" cpu-cuda/tests/gpu/sanitizer_probe.cu
  mkdir -p "$out/compute-sanitizer"
  for probe in memcheck:global-past-end memcheck:shared-past-end racecheck:tree-without-barrier \
               racecheck:volatile-last-warp synccheck:barrier-in-branch memcheck:barrier-in-branch; do
    tool=${probe%%:*} mode=${probe#*:}
    compute-sanitizer --tool "$tool" --print-limit 4 "$out/sanitizer_probe" "$mode" \
      > "$out/compute-sanitizer/$tool-$mode.txt" 2>&1
  done
  for mode in grid-zero block-zero; do "$out/sanitizer_probe" "$mode"; done | tee "$out/launch-errors.txt"
  rm -f "$out/sanitizer_probe"
  summary+=("compute-sanitizer: $(ls "$out/compute-sanitizer" | wc -l) reports in $out/compute-sanitizer/")
fi

if [[ " $* " == *" --bench "* && -x build/gpu/bench/gpu_bench ]]; then
  build/gpu/bench/gpu_bench --csv "$out/bench.csv" --svg "$out/bench.svg" | tee "$out/bench.txt"
  summary+=("benchmark: $out/bench.txt, bench.csv, bench.svg")
fi

echo
echo "== summary ($(head -1 "$out/device.txt"), $(date -u +%Y-%m-%d)) =="
printf '%s\n' "${summary[@]}"
