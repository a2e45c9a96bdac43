#!/usr/bin/env bash
# On a machine with an NVIDIA GPU and Nsight Compute: measures with ncu what
# `warpdrill profile` counts on the CPU backend, and writes to results/, each
# file headed by the device, the date and the command:
#   results/ncu-<gpu>.csv           every solution's profile driver (common/src/
#                                   course/profile_lesson.cu, 2^20 floats), per launch
#   results/ncu-patterns-<gpu>.csv  the access-pattern kernels of
#                                   tests/backend/access_patterns.cuh, per launch
#   results/ncu-<gpu>.md            the first as a table to read, and ncu's
#                                   shared-load excess where no conflict is possible
# Rows are `lesson,launch,kernel` (`pattern,...` in the second), then a column
# per ncu metric. The tests compare the CPU backend's counts with both
# (tests/runner/ncu_agreement.py, tests/backend/profile_patterns.cu); the book
# quotes the first; `warpdrill profile N --solution` prints it beside its own.
# Builds what it needs with CMake (the `gpu` preset, build/gpu); Catch2 must
# be findable, through CMAKE_PREFIX_PATH where it is not installed system-wide.
# Logs go to $OUT (or ./ncu-results).
#   bash scripts/ncu-table.sh [gpu]    (gpu: the model's key, default h100)
set -euo pipefail
cd "$(dirname "$0")/.."
gpu=${1:-h100}
export PATH=/usr/local/cuda/bin:$PATH
out=${OUT:-ncu-results}
mkdir -p "$out" results
build=build/gpu
started=$SECONDS
for tool in nvidia-smi ncu cmake python3; do
  command -v "$tool" > /dev/null || { echo "ncu-table.sh needs $tool on the PATH"; exit 1; }
done

# The metrics `warpdrill profile` prints beside its own counts, and some it cannot count.
wanted=(
  l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
  l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
  l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
  l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
  smsp__sass_inst_executed_op_shared_ld.sum
  smsp__sass_inst_executed_op_shared_st.sum
  l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
  l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
  l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
  l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
  smsp__sass_inst_executed_op_global_ld.sum
  smsp__sass_inst_executed_op_global_st.sum
  smsp__thread_inst_executed_per_inst_executed.ratio
  smsp__inst_executed.sum
  smsp__sass_branch_targets_threads_divergent.sum
  sm__warps_active.avg.pct_of_peak_sustained_active
  dram__throughput.avg.pct_of_peak_sustained_elapsed
  dram__bytes_read.sum
  dram__bytes_write.sum
  gpu__time_duration.sum
  launch__grid_size
  launch__block_size
  launch__occupancy_limit_registers
  launch__cluster_dim_x
  device__attribute_multiprocessor_count
)

# Metric names change between Nsight Compute versions: keep those this one
# knows (device and launch attributes are not listed, and always known).
ncu --query-metrics > "$out/known-metrics.txt"
metrics=()
missing=()
for metric in "${wanted[@]}"; do
  if [[ $metric == device__attribute_* || $metric == launch__* ]] || grep -q "^${metric%%.*}\b" "$out/known-metrics.txt"; then
    metrics+=("$metric")
  else
    missing+=("$metric")
  fi
done
metric_list=$(IFS=,; echo "${metrics[*]}")

echo "building the solutions' profile drivers and the access patterns in $build ($out/build.log)"
targets=(access_patterns)
for solution in solutions/[0-9][0-9]-*; do
  targets+=("profile-solution-$(basename "$solution" | cut -c1-2)")
done
if ! { cmake --preset gpu && cmake --build "$build" --target "${targets[@]}"; } > "$out/build.log" 2>&1; then
  tail -30 "$out/build.log"
  echo "ncu-table.sh: the build failed (all of it in $out/build.log)"
  exit 1
fi

# ncu's CSV (a row per launch and metric) as one row per launch:
# `key,launch,kernel,<a column per metric>`, the header first when $3 names the key's column.
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
    if len(row) != len(columns):
        continue  # ncu's own "==PROF==" lines
    field = dict(zip(columns, row))
    launch = launches.setdefault(int(field["ID"]) + 1, {"kernel": field["Kernel Name"]})
    launch[field["Metric Name"]] = field["Metric Value"].replace(",", "")
if names is not None and len(names) != len(launches):
    sys.exit(f"ncu measured {len(launches)} launches in {source}; the program names {len(names)}")
out = csv.writer(sys.stdout, lineterminator="\n")
if header:
    out.writerow([header, "launch", "kernel"] + metrics)
for number, launch in sorted(launches.items()):
    key = names[number - 1] if names else naming
    kernel = launch["kernel"].split("(")[0].split(" ")[-1]
    out.writerow([key, number, kernel] + [launch.get(metric, "") for metric in metrics])
PYTHON
}

profile() {  # profile CSV PROGRAM...
  local log=$1
  shift
  ncu --csv --print-units base --clock-control none --print-kernel-base function \
    --metrics "$metric_list" --log-file "$log" "$@" > "$log.stdout" 2>&1 || {
    tail -20 "$log.stdout" "$log"
    if grep -q ERR_NVGPUCTRPERM "$log.stdout" "$log"; then
      echo "ncu-table.sh: ncu may not read the GPU's counters (ERR_NVGPUCTRPERM): run it as root"
    fi
    echo "ncu-table.sh: ncu failed on $*"
    exit 1
  }
}

device=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1 | sed 's/, /, driver /')
versions="$(nvcc --version | grep -o 'release [0-9.]*' | sed 's/release/CUDA/'), Nsight Compute $(ncu --version | grep -o 'Version [0-9.]*' | cut -d' ' -f2)"
command_line="bash scripts/ncu-table.sh${1:+ $1}"
header() {  # header WHAT
  echo "# device: $device, $versions"
  echo "# date: $(date -u +%Y-%m-%d)"
  echo "# command: $command_line ($1; ncu --clock-control none --metrics as the columns)"
  if ((${#missing[@]})); then echo "# metrics this ncu does not know: ${missing[*]}"; fi
}

table=results/ncu-$gpu.csv
header "each solution's profile driver at 2^20 floats" > "$out/table.csv"
first=lesson
for solution in solutions/[0-9][0-9]-*; do
  name=$(basename "$solution")
  number=$((10#${name:0:2}))
  echo "lesson $number: measuring"
  profile "$out/ncu-$name.csv" "$build/profile-solution-${name:0:2}"
  convert "$out/ncu-$name.csv" "$number" "$first" >> "$out/table.csv"
  first=
done
mv "$out/table.csv" "$table"

patterns=results/ncu-patterns-$gpu.csv
echo "access patterns: measuring"
"$build/tests/access_patterns" --list > "$out/pattern-names.txt"
profile "$out/ncu-patterns.csv" "$build/tests/access_patterns"
{
  header "tests/gpu/access_patterns.cu"
  convert "$out/ncu-patterns.csv" "$out/pattern-names.txt" pattern
} > "$patterns"

# The same table to read, with ncu's excess on shared loads where none can conflict.
python3 - "$table" "$patterns" > "results/ncu-$gpu.md" <<'PYTHON'
import csv, sys
def read(path):
    lines = open(path).read().splitlines()
    head = [line[2:] for line in lines if line.startswith("# ")]
    return head, list(csv.DictReader(line for line in lines if not line.startswith("#")))
head, rows = read(sys.argv[1])
_, patterns = read(sys.argv[2])
shown = [("global ld requests", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"),
         ("global ld sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
         ("global st requests", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"),
         ("global st sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"),
         ("shared ld", "smsp__sass_inst_executed_op_shared_ld.sum"),
         ("shared ld wavefronts", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"),
         ("shared ld conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"),
         ("shared st", "smsp__sass_inst_executed_op_shared_st.sum"),
         ("shared st wavefronts", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"),
         ("shared st conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"),
         ("time, us", "gpu__time_duration.sum")]
print("# Nsight Compute: every solution's profile driver at 2^20 floats\n")
for line in head:
    print(f"- {line}")
print("\nAll metrics: `" + sys.argv[1] + "`; the access patterns: `" + sys.argv[2] + "`.\n")
print("| lesson | launch | kernel | " + " | ".join(words for words, _ in shown) + " |")
print("| --- " * (3 + len(shown)) + "|")
def cell(row, metric):
    value = row.get(metric, "")
    if not value:
        return ""
    number = float(value)
    return f"{number / 1000:.1f}" if metric == "gpu__time_duration.sum" else f"{number:,.0f}"
for row in rows:
    print(f"| {row['lesson']} | {row['launch']} | `{row['kernel']}` | " +
          " | ".join(cell(row, metric) for _, metric in shown) + " |")
free = next((row for row in patterns if row["pattern"] == "shared_conflict_free"), None)
metric = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"
if free and free.get(metric):
    loads = float(free["smsp__sass_inst_executed_op_shared_ld.sum"])
    wavefronts = float(free[metric])
    print(f"\nShared-load excess: `shared_conflict_free` makes {loads:,.0f} loads of one wavefront each "
          f"(no two lanes share a bank); ncu counts {wavefronts:,.0f} wavefronts, "
          f"{100 * (wavefronts - loads) / loads:.2f}% more.")
PYTHON

echo "wrote $table ($(grep -vc '^#' "$table") lines), $patterns ($(grep -vc '^#' "$patterns") lines) and results/ncu-$gpu.md in $((SECONDS - started)) s"
if ((${#missing[@]})); then echo "not measured (unknown to this ncu): ${missing[*]}"; fi
