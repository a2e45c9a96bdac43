#!/usr/bin/env bash
# On a machine with an NVIDIA GPU and Nsight Compute: measures with ncu what
# `warpdrill profile` counts on the CPU backend, and writes to results/, each
# file headed by the device, the date and the command:
#   results/ncu-<gpu>.csv           every solution's profile driver (common/src/
#                                   course/profile_lesson.cpp, 2^20 floats), per launch;
#                                   a lesson the manifest gives no workload
#                                   gets no rows, and a note here
#   results/ncu-patterns-<gpu>.csv  the access-pattern kernels of
#                                   cpu-cuda/tests/access_patterns.cuh, per launch
#   results/ncu-<gpu>.md            the first as a table to read (every column the
#                                   book shows, and the counts they are made of),
#                                   and ncu's shared-load excess where no conflict
#                                   is possible
# Rows are `lesson,launch,kernel` (`pattern,...` in the second), then a column
# per ncu metric of runner/profile/metrics.toml, in its order. The tests
# compare the CPU backend's counts with both (tests/runner/ncu_agreement.py,
# cpu-cuda/tests/profile_patterns.cu); the book quotes the first; `warpdrill
# profile N --solution` prints it beside its own.
# Builds what it needs with CMake (the `gpu` preset, build/gpu); Catch2 must
# be findable, through CMAKE_PREFIX_PATH where it is not installed system-wide.
# Logs go to $OUT (or ./ncu-results).
#   bash scripts/ncu-table.sh [gpu]    (gpu: the model's key, default h100)
# The table to read, again from the CSVs alone (no GPU needed), after a change
# to what it shows:
#   bash scripts/ncu-table.sh --markdown-from results/ncu-h100.csv
#       (reads results/ncu-patterns-h100.csv beside it, writes results/ncu-h100.md)
set -euo pipefail
cd "$(dirname "$0")/.."
# Every metric measured here, each with ncu's name for it and the key every reader knows it by.
metric_table=runner/profile/metrics.toml

# The table to read: markdown TABLE PATTERNS, on stdout. Every column the book
# shows (NCU_COLUMNS in book/bookext.py; tests/book/ncu_table.sh checks that
# each of its metrics is here), and the counts they are made of.
markdown() {
  python3 - "$1" "$2" "$metric_table" <<'PYTHON'
import csv, sys, tomllib
def read(path):
    lines = open(path).read().splitlines()
    head = [line[2:] for line in lines if line.startswith("# ")]
    return head, list(csv.DictReader(line for line in lines if not line.startswith("#")))
head, rows = read(sys.argv[1])
_, patterns = read(sys.argv[2])
ncu = {m["key"]: m["ncu"] for m in tomllib.load(open(sys.argv[3], "rb"))["metric"] if "ncu" in m}
def count(value):
    return f"{value:,.0f}"
def places(n):
    return lambda value: f"{value:.{n}f}"
# (heading, the keys of the metrics, the cell made of their values)
columns = [("grid × block", ("grid_size", "block_size"), lambda g, b: f"{g:,.0f} × {b:,.0f}"),
           ("time, µs", ("kernel_duration",), lambda ns: f"{ns / 1000:.1f}"),  # ncu's base unit: ns
           ("DRAM % of peak", ("dram_throughput",), places(1)),
           ("occupancy %", ("occupancy",), places(1)),
           ("threads per warp instruction", ("threads_per_instruction",), places(2)),
           ("divergent branches", ("divergent_branch_targets",), count),
           ("warp instructions", ("instructions",), count),
           ("global ld requests", ("global_load_requests",), count),
           ("global ld sectors", ("global_load_sectors",), count),
           ("sectors per ld request", ("global_load_sectors", "global_load_requests"),
            lambda sectors, requests: f"{sectors / requests:.1f}"),
           ("global st requests", ("global_store_requests",), count),
           ("global st sectors", ("global_store_sectors",), count),
           ("shared ld", ("shared_load_instructions",), count),
           ("shared ld wavefronts", ("shared_load_wavefronts",), count),
           ("shared ld conflicts", ("shared_load_bank_conflicts",), count),
           ("shared st", ("shared_store_instructions",), count),
           ("shared st wavefronts", ("shared_store_wavefronts",), count),
           ("shared st conflicts", ("shared_store_bank_conflicts",), count),
           ("blocks an SM holds by registers", ("register_limited_blocks",), count)]
# The same with the metrics' ncu names, which head the CSV's columns.
shown = [(heading, tuple(ncu[key] for key in keys), show) for heading, keys, show in columns]
def cell(row, metrics, show):
    try:
        return show(*(float(row[metric]) for metric in metrics))
    except (KeyError, ValueError, ZeroDivisionError):
        return ""  # a metric this ncu did not measure
print("# Nsight Compute: every solution's profile driver at 2^20 floats\n")
for line in head:
    print(f"- {line}")
print("\nAll metrics: `" + sys.argv[1] + "`; the access patterns: `" + sys.argv[2] + "`.\n")
print("| lesson | launch | kernel | " + " | ".join(heading for heading, _, _ in shown) + " |")
print("| --- " * (3 + len(shown)) + "|")
for row in rows:
    print(f"| {row['lesson']} | {row['launch']} | `{row['kernel']}` | " +
          " | ".join(cell(row, metrics, show) for _, metrics, show in shown) + " |")
free = next((row for row in patterns if row["pattern"] == "shared_conflict_free"), None)
metric = ncu["shared_load_wavefronts"]
if free and free.get(metric):
    loads = float(free[ncu["shared_load_instructions"]])
    wavefronts = float(free[metric])
    print(f"\nShared-load excess: `shared_conflict_free` makes {loads:,.0f} loads of one wavefront each "
          f"(no two lanes share a bank); ncu counts {wavefronts:,.0f} wavefronts, "
          f"{100 * (wavefronts - loads) / loads:.2f}% more.")
PYTHON
}

if [[ ${1:-} == --markdown-from ]]; then
  table=${2:?"--markdown-from needs the table: results/ncu-<gpu>.csv"}
  name=$(basename "$table" .csv)  # ncu-<gpu>
  patterns=$(dirname "$table")/ncu-patterns-${name#ncu-}.csv
  markdown "$table" "$patterns" > "${table%.csv}.md"
  echo "wrote ${table%.csv}.md from $table and $patterns"
  exit 0
fi

gpu=${1:-h100}
export PATH=/usr/local/cuda/bin:$PATH
out=${OUT:-ncu-results}
mkdir -p "$out" results
build=build/gpu
started=$SECONDS
for tool in nvidia-smi ncu cmake python3; do
  command -v "$tool" > /dev/null || { echo "ncu-table.sh needs $tool on the PATH"; exit 1; }
done

# The metrics of the table: those `warpdrill profile` prints beside its own
# counts, and those the tests and the book need.
mapfile -t wanted < <(python3 - "$metric_table" <<'PYTHON'
import sys, tomllib
print("\n".join(m["ncu"] for m in tomllib.load(open(sys.argv[1], "rb"))["metric"] if "ncu" in m))
PYTHON
)
((${#wanted[@]})) || { echo "ncu-table.sh: no metrics read from $metric_table (python3 3.11 or later reads it)"; exit 1; }

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

echo "building the solutions' profile drivers and the access patterns in $build ($out/build*.log)"
if ! { cmake --preset gpu && cmake --build "$build" --target access_patterns; } > "$out/build.log" 2>&1; then
  tail -30 "$out/build.log"
  echo "ncu-table.sh: the build failed (all of it in $out/build.log)"
  exit 1
fi
# One driver a lesson, for each lesson that the course's manifest gives a
# workload; one without gets no rows, and the others go on. (Lesson 13's
# workload is its add kernel alone on one GPU: ncu measures no copies between GPUs.)
profiled=()
# The lessons the course's manifest gives a profile workload, one folder a line.
with_workload=$(python3 -c 'import sys, tomllib
for lesson in tomllib.load(open(sys.argv[1], "rb"))["lesson"]:
    if lesson.get("workload"): print(lesson["folder"])' lessons/lessons.toml)
for solution in solutions/[0-9][0-9]-*; do
  name=$(basename "$solution")
  log="$out/build-$name.log"
  if ! grep -qx "$name" <<< "$with_workload"; then
    echo "lesson $((10#${name:0:2})): lessons/lessons.toml gives it no profile workload; no rows"
  elif cmake --build "$build" --target "profile-solution-${name:0:2}" > "$log" 2>&1; then
    profiled+=("$solution")
  else
    tail -30 "$log"
    echo "ncu-table.sh: the build of lesson $((10#${name:0:2}))'s profile driver failed (all of it in $log)"
    exit 1
  fi
done

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
for solution in "${profiled[@]}"; do
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
"$build/cpu-cuda/tests/access_patterns" --list > "$out/pattern-names.txt"
profile "$out/ncu-patterns.csv" "$build/cpu-cuda/tests/access_patterns"
{
  header "cpu-cuda/tests/gpu/access_patterns.cu"
  convert "$out/ncu-patterns.csv" "$out/pattern-names.txt" pattern
} > "$patterns"

# The same table to read, with ncu's excess on shared loads where none can conflict.
markdown "$table" "$patterns" > "results/ncu-$gpu.md"

echo "wrote $table ($(grep -vc '^#' "$table") lines), $patterns ($(grep -vc '^#' "$patterns") lines) and results/ncu-$gpu.md in $((SECONDS - started)) s"
if ((${#missing[@]})); then echo "not measured (unknown to this ncu): ${missing[*]}"; fi
