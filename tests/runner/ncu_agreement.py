#!/usr/bin/env python3
"""The CPU backend's counts of every lesson's solution against Nsight Compute's,
as scripts/ncu-table.sh measured them on a GPU (results/ncu-<gpu>.csv).

The counts that depend only on addresses and active lanes must be equal:
global load and store requests and sectors, shared load and store
instructions, shared store wavefronts and bank conflicts. Shared-load
wavefronts (and so bank conflicts) may exceed ours by ncu's own excess on
loads (DESIGN.md: a few percent on Hopper): at most twice what it counts on
the access pattern shared_conflict_free, whose loads cannot conflict
(results/ncu-patterns-<gpu>.csv), for the same L1 data traffic (shared-load
wavefronts and global-load sectors, which share the SM's L1 data banks: a
model, results/README.md). A count that differs names the source
line(s) that make it, so that a line where one compiler keeps a value in a
register that the other loads again is found.
Two things the CPU backend does not imitate are allowed for, and said:
  - a launch with this_grid().sync(): on a GPU each block polls a barrier
    word in global memory until the last block arrives, loads whose number
    depends on timing; ncu's global loads may exceed ours, never fall short;
  - a launch with clusters that ncu ran without them (launch__cluster_dim_x
    0: Nsight Compute 2025.3 does so with a cooperative launch, results/
    README.md) is not compared.
Builds every solution's profile driver; runs each with the GPU's
multiprocessor count and the blocks per SM its registers allow, so that
lessons 8 and 10 launch the same grid. A lesson the driver has no workload
for has nothing to compare. Exits 77 (skipped) while the tables do not
exist, and, after comparing the others, while the lessons' table has no rows
for a lesson the driver has a workload for (one added since the table was
measured): it names them, for `bash scripts/ncu-table.sh` to measure.
    ncu_agreement.py BUILD_DIR SOURCE_DIR [GPU]
"""
import csv
import json
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

# The profile's metrics (runner/profile/metrics.toml): each one's key, ncu's
# name for it, and how closely the backend's count agrees with ncu's.
METRICS = tomllib.loads((Path(__file__).resolve().parents[2] / "runner/profile/metrics.toml").read_text())["metric"]
NCU = {metric["key"]: metric["ncu"] for metric in METRICS if "ncu" in metric}


def agreeing(how):
    """{the driver's name for a count: ncu's metric for it}, for the counts that agree with ncu's `how`."""
    return {metric["key"]: metric["ncu"] for metric in METRICS if metric.get("agrees") == how}


EXACT = agreeing("exactly")
WITH_LOAD_EXCESS = agreeing("with_load_excess")
# Loads that grid.sync()'s polling adds on a GPU.
POLLED = ("global_load_requests", "global_load_sectors")
MULTIPROCESSORS = NCU["multiprocessors"]
REGISTER_LIMITED_BLOCKS = NCU["register_limited_blocks"]
CLUSTER_X = NCU["cluster_dim_x"]


def read_table(path, key):
    """The rows of a table of scripts/ncu-table.sh: [(key, launch, kernel, {metric: value})]"""
    rows = []
    for row in csv.DictReader(line for line in open(path) if not line.startswith("#")):
        metrics = {name: number(value) for name, value in row.items() if name not in (key, "launch", "kernel")}
        rows.append((row[key], int(row["launch"]), row["kernel"], {k: v for k, v in metrics.items() if v is not None}))
    return rows


def number(text):
    """The value of a cell, or None where ncu gave none ("", "n/a")."""
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def l1_traffic(shared_load_wavefronts, global_load_sectors):
    """What ncu's shared-load excess comes with: the data that passes the SM's L1 data banks."""
    return shared_load_wavefronts + global_load_sectors


def load_excess(patterns):
    """ncu's shared-load wavefronts past one per load on shared_conflict_free, as a fraction of its L1 traffic."""
    for name, _, _, metrics in patterns:
        if name == "shared_conflict_free":
            loads = metrics[NCU["shared_load_instructions"]]
            traffic = l1_traffic(loads, metrics[NCU["global_load_sectors"]])
            return (metrics[NCU["shared_load_wavefronts"]] - loads) / traffic
    raise SystemExit("the pattern table has no row for shared_conflict_free")


def solution_lessons(source):
    """The numbers of the lessons that have a solution, and whether the course's manifest
    (lessons/lessons.toml) gives each a profile workload."""
    with open(source / "lessons" / "lessons.toml", "rb") as manifest:
        with_workload = {lesson["folder"] for lesson in tomllib.load(manifest)["lesson"] if lesson.get("workload")}
    return sorted((int(path.name[:2]), path.name in with_workload)
                  for path in (source / "solutions").glob("[0-9][0-9]-*"))


def built_driver(build, lesson):
    """Lesson N's solution's profile driver, built."""
    target = f"profile-solution-{lesson:02d}"
    result = subprocess.run(["cmake", "--build", str(build), "--target", target], capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"the build of {target} failed:\n{result.stdout}{result.stderr}")
    return build / target


def cpu_counts(driver, multiprocessors, register_limited_blocks):
    """A profile driver's counts, from its record (common/include/warpdrill/profile_record.h):
    [(kernel, {name: value}, {place: {name: value}})]"""
    with tempfile.TemporaryDirectory() as scratch:
        record = Path(scratch) / "profile.json"
        subprocess.run([str(driver), "--multiprocessors", str(multiprocessors),
                        "--register-limited-blocks", str(register_limited_blocks), "--record", str(record)],
                       capture_output=True, text=True, check=True)
        document = json.loads(record.read_text())
    return [(launch["kernel"], launch["counts"], launch["sources"]) for launch in document["launches"]]


def lines_behind(name, difference, sources):
    """The source lines that make the count `name`: first those whose count divides the difference."""
    lines = sorted((counts[name], place) for place, counts in sources.items() if counts.get(name))
    if not lines:
        return "no line of ours makes any"
    matching = [(count, place) for count, place in lines if difference % count == 0]
    if matching:
        return "; or ".join(f"{place} makes {count:,.0f}, {difference / count:.0f} times that"
                            for count, place in matching)
    return "made at " + "; ".join(f"{place} ({count:,.0f})" for count, place in lines)


def compare(where, counts, sources, measured, most_excess):
    """What differs in one launch, one text per count."""
    failures = []
    polls = counts.get("grid_syncs", 0) > 0
    for name, metric in EXACT.items():
        if metric not in measured or counts.get(name, 0) == measured[metric]:
            continue
        ours, theirs = counts.get(name, 0), measured[metric]
        if polls and name in POLLED and theirs > ours:
            print(f"{where}: ncu's {name} exceed ours by {theirs - ours:,.0f}: grid.sync()'s polling")
            continue
        failures.append(f"{where}: {name} {ours:,.0f}, ncu {metric} {theirs:,.0f} ({theirs - ours:+,.0f}: "
                        f"{lines_behind(name, abs(theirs - ours), sources)})")
    for name, metric in WITH_LOAD_EXCESS.items():
        if metric not in measured:
            continue
        ours, theirs = counts.get(name, 0), measured[metric]
        traffic = l1_traffic(counts.get("shared_load_wavefronts", 0), counts.get("global_load_sectors", 0))
        allowed = most_excess * traffic + 1
        if not 0 <= theirs - ours <= allowed:
            failures.append(f"{where}: {name} {ours:,.0f}, ncu {metric} {theirs:,.0f} ({theirs - ours:+,.0f}, "
                            f"ncu's own excess allows 0 to {allowed:,.0f}: "
                            f"{lines_behind(name, abs(theirs - ours), sources)})")
    return failures


def main():
    build, source = Path(sys.argv[1]), Path(sys.argv[2])
    gpu = sys.argv[3] if len(sys.argv) > 3 else "h100"
    lessons_path = source / "results" / f"ncu-{gpu}.csv"
    patterns_path = source / "results" / f"ncu-patterns-{gpu}.csv"
    for path in (lessons_path, patterns_path):
        if not path.exists():
            print(f"skipped: {path.relative_to(source)} does not exist yet; `bash scripts/ncu-table.sh` "
                  "measures it on a GPU with Nsight Compute")
            return 77
    table = read_table(lessons_path, "lesson")
    excess = load_excess(read_table(patterns_path, "pattern"))
    print(f"ncu's shared-load excess on shared_conflict_free: {100 * excess:.2f}% of its L1 data traffic; "
          f"allowed here: up to {200 * excess:.2f}% of ours (shared-load wavefronts and global-load sectors), plus one")
    measured = {(int(lesson), launch): (kernel, metrics) for lesson, launch, kernel, metrics in table}
    failures, not_measured = [], []
    for lesson, has_workload in solution_lessons(source):
        if not has_workload:
            print(f"lesson {lesson}: lessons/lessons.toml gives it no profile workload; nothing to compare")
            continue
        if (lesson, 1) not in measured:
            print(f"lesson {lesson}: not compared: {lessons_path.name} has no rows for it")
            not_measured.append(lesson)
            continue
        driver = built_driver(build, lesson)
        first_launch = measured[(lesson, 1)][1]
        multiprocessors = int(first_launch.get(MULTIPROCESSORS, 132))
        ours = cpu_counts(driver, multiprocessors, int(first_launch.get(REGISTER_LIMITED_BLOCKS, 0)))
        launches = sorted(launch for number, launch in measured if number == lesson)
        if len(ours) != len(launches):
            failures.append(f"lesson {lesson}: {len(ours)} launches on the CPU backend, {len(launches)} in ncu's table")
        for launch, (kernel, counts, sources) in enumerate(ours, start=1):
            measured_kernel, metrics = measured.get((lesson, launch), ("(none)", {}))
            where = f"lesson {lesson}, launch {launch} ({kernel})"
            if not measured_kernel.startswith(kernel.split("<")[0]):
                failures.append(f"{where}: ncu measured {measured_kernel} as this launch")
                continue
            if counts.get("cluster_syncs", 0) > 0 and metrics.get(CLUSTER_X, 1) == 0:
                print(f"{where}: not compared: ncu ran it without its clusters ({CLUSTER_X} 0)")
                continue
            failures += compare(where, counts, sources, metrics, 2 * excess)
            print(f"{where}: compared with {lessons_path.name}")
    for failure in failures:
        print("DIFFERS:", failure)
    if failures:
        return 1
    if not_measured:
        lessons = ("lesson " if len(not_measured) == 1 else "lessons ") + ", ".join(map(str, not_measured))
        print(f"skipped: {lessons} not compared, {lessons_path.relative_to(source)} has no rows for it "
              "(`bash scripts/ncu-table.sh` measures every solution on a GPU with Nsight Compute); "
              "the lessons compared agree")
        return 77
    return 0


if __name__ == "__main__":
    sys.exit(main())
