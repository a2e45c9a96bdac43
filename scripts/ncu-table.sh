#!/usr/bin/env bash
# On a machine with an NVIDIA GPU and Nsight Compute: measures what
# `warpdrill profile` counts on the CPU backend, with ncu, and writes two
# tables to results/, each headed by the device, the date and the command:
#   results/ncu-<gpu>.csv           every lesson's solution as its profile
#                                   driver runs it (common/src/course/
#                                   profile_lesson.cu, 2^20 floats), per launch
#   results/ncu-patterns-<gpu>.csv  the access-pattern kernels of
#                                   tests/backend/access_patterns.cuh
# One row per launch: `lesson,launch,kernel`, then a column per ncu metric
# (the pattern's name in place of the lesson in the second table). The test suite compares the CPU backend's counts
# with the first (tests/runner/ncu_agreement.py); `warpdrill profile N
# --solution` quotes it. Needs nvcc, ncu and python3; no CMake or Catch2.
#   scripts/ncu-table.sh [gpu]    (gpu: the model's key, default h100)
set -euo pipefail
cd "$(dirname "$0")/.."
gpu=${1:-h100}
export PATH=/usr/local/cuda/bin:$PATH
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The metrics `warpdrill profile` prints beside its own counts, and some it cannot count.
wanted=(
  l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
  l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
  l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
  l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
  smsp__sass_inst_executed_op_global_ld.sum
  smsp__sass_inst_executed_op_global_st.sum
  smsp__sass_inst_executed_op_shared_ld.sum
  smsp__sass_inst_executed_op_shared_st.sum
  l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
  l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
  l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
  l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
  smsp__thread_inst_executed_per_inst_executed.ratio
  smsp__inst_executed.sum
  smsp__sass_branch_targets_threads_divergent.sum
  sm__warps_active.avg.pct_of_peak_sustained_active
  dram__throughput.avg.pct_of_peak_sustained_elapsed
  dram__bytes_read.sum
  dram__bytes_write.sum
  gpu__time_duration.sum
)

# Metric names change between Nsight Compute versions: keep those this one knows.
ncu --query-metrics > "$work/known.txt"
metrics=()
missing=()
for metric in "${wanted[@]}"; do
  if grep -q "^${metric%%.*}\b" "$work/known.txt"; then metrics+=("$metric"); else missing+=("$metric"); fi
done
metric_list=$(IFS=,; echo "${metrics[*]}")

# The same host and kernel code as the CMake build, without CMake or Catch2.
build() {  # build OUTPUT SOURCES... (extra flags before the sources)
  local output=$1
  shift
  nvcc -std=c++20 -O2 -arch=native -lineinfo -DWARPDRILL_BACKEND_GPU=1 -Icommon/include \
    "$@" common/src/host/check.cpp common/src/host/data.cpp -o "$output"
}

# ncu's CSV (a row per launch and metric) as one row per launch:
# `key,launch,kernel,<a column per metric>`, the header first when $3 is "header".
# $2 names the launches: a file of one name per line, or a fixed key for all.
convert() {
  python3 - "$1" "$2" "${3:-}" "$metric_list" <<'PYTHON'
import csv, os, sys
source, naming, header, metrics = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4].split(",")
rows = [row for row in csv.reader(open(source)) if row]
start = next(i for i, row in enumerate(rows) if "Metric Name" in row)
columns = rows[start]
names = open(naming).read().splitlines() if os.path.isfile(naming) else None
launches = {}
for row in rows[start + 1:]:
    field = dict(zip(columns, row))
    launch = launches.setdefault(int(field["ID"]) + 1, {"kernel": field["Kernel Name"]})
    launch[field["Metric Name"]] = field["Metric Value"].replace(",", "")
out = csv.writer(sys.stdout, lineterminator="\n")
if header:
    out.writerow([header, "launch", "kernel"] + metrics)
for number, launch in sorted(launches.items()):
    key = names[number - 1] if names else naming
    kernel = launch["kernel"].split("(")[0].split(" ")[-1]
    out.writerow([key, number, kernel] + [launch.get(metric, "") for metric in metrics])
PYTHON
}

profile() {  # profile PROGRAM CSV
  ncu --csv --print-units base --clock-control none --print-kernel-base function \
    --metrics "$metric_list" --log-file "$2" "$1" > "$work/stdout.txt"
}

device=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1 | sed 's/, /, driver /')
versions="$(nvcc --version | grep -o 'release [0-9.]*' | sed 's/release/CUDA/'), Nsight Compute $(ncu --version | grep -o 'Version [0-9.]*' | cut -d' ' -f2)"
header() {  # header WHAT
  echo "# device: $device, $versions"
  echo "# date: $(date -u +%Y-%m-%d)"
  echo "# command: scripts/ncu-table.sh $gpu ($1; ncu --clock-control none --metrics as below)"
  if ((${#missing[@]})); then echo "# metrics this ncu does not know: ${missing[*]}"; fi
}

table=results/ncu-$gpu.csv
header "each solution's profile driver at 2^20 floats" > "$work/table.csv"
first=header
for solution in solutions/[0-9][0-9]-*; do
  name=$(basename "$solution")
  number=$((10#${name:0:2}))
  echo "lesson $number: building and measuring"
  # A lesson the driver has no workload for stops at its #error: say so, go on.
  if ! build "$work/profile-$name" -DWARPDRILL_LESSON="$number" -I"$solution" common/src/course/profile_lesson.cu \
      "lessons/$name/check/launch.cu" > "$work/build.txt" 2>&1; then
    echo "lesson $number: not measured, its profile driver does not build:"
    grep -m3 error "$work/build.txt" || tail -5 "$work/build.txt"
    continue
  fi
  profile "$work/profile-$name" "$work/ncu-$name.csv"
  convert "$work/ncu-$name.csv" "$number" ${first:+lesson} >> "$work/table.csv"
  first=
done
mv "$work/table.csv" "$table"

patterns=results/ncu-patterns-$gpu.csv
echo "access patterns: building and measuring"
build "$work/patterns" tests/gpu/access_patterns.cu
"$work/patterns" > "$work/pattern-names.txt"
profile "$work/patterns" "$work/ncu-patterns.csv"
{
  header "tests/gpu/access_patterns.cu"
  convert "$work/ncu-patterns.csv" "$work/pattern-names.txt" pattern
} > "$patterns"

echo "wrote $table ($(grep -vc '^#' "$table") lines) and $patterns ($(grep -vc '^#' "$patterns") lines)"
if ((${#missing[@]})); then echo "not measured (unknown to this ncu): ${missing[*]}"; fi
