#!/usr/bin/env python3
"""What seeing every memory access costs the CPU backend's passing checks.

Builds the solutions' checks three ways and times them, one worker
(WARPDRILL_CPU_WORKERS=1), the builds taking turns run by run so that a
machine that slows down slows all three alike:
  before     BASE (default a4c901b: the backend before it checked accesses)
  off        this tree, configured with -DWARPDRILL_CHECK_ACCESSES=OFF
  checked    this tree as the course builds it
A lesson the BASE lacks has no "before". Times are CPU seconds (user +
system, which other work on the machine changes much less than the wall
clock), the median of --runs runs. Prints a Markdown table, and the same for
bench/cpu_backend_speed.
    scripts/checking-cost.py [--runs R] [--base REF [--base-tree DIR]] [--work DIR]
"""
import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
from pathlib import Path

COURSE = Path(__file__).resolve().parent.parent


def configure_and_build(source, build, extra):
    """Builds the solutions' checks and the speed bench of the course at `source`."""
    subprocess.run(["cmake", "--preset", "cpu", "-S", source, "-B", build, "-DWARPDRILL_BUILD_TESTS=OFF", *extra],
                   check=True, stdout=subprocess.DEVNULL)
    targets = [f"solution-{path.name[:2]}" for path in sorted(Path(source, "solutions").glob("[0-9][0-9]-*"))]
    subprocess.run(["cmake", "--build", build, "--target", *targets, "cpu_backend_speed"], check=True,
                   stdout=subprocess.DEVNULL)


def cpu_seconds(program):
    """Runs program; returns its user + system seconds and what it printed (None, "" when it fails)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    env = dict(os.environ, WARPDRILL_CPU_WORKERS="1")
    result = subprocess.run([program], env=env, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 0:
        return None, ""
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), result.stdout


def programs(build):
    """name -> path of each solution's checks, and of the backend's speed bench."""
    found = {p.name: p for p in sorted(Path(build).glob("solution-[0-9][0-9]")) if p.is_file()}
    speed = Path(build) / "bench" / "cpu_backend_speed"
    if speed.is_file():
        found["cpu_backend_speed"] = speed
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--base", default="a4c901b")
    parser.add_argument("--base-tree", help="the course at BASE, already checked out (where there is no git history)")
    parser.add_argument("--work", default=str(COURSE / "build" / "checking-cost"))
    args = parser.parse_args()
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)

    base_tree = Path(args.base_tree) if args.base_tree else work / "base-tree"
    if not base_tree.exists():
        subprocess.run(["git", "-C", COURSE, "worktree", "add", "--detach", "-f", base_tree, args.base], check=True)
    builds = {"before": (base_tree, []), "off": (COURSE, ["-DWARPDRILL_CHECK_ACCESSES=OFF"]), "checked": (COURSE, [])}
    found = {}
    for name, (source, extra) in builds.items():
        print(f"building {name} ...", file=sys.stderr)
        configure_and_build(source, work / name, extra)
        found[name] = programs(work / name)

    names = sorted(set().union(*found.values()))
    times = {(build, name): [] for build in builds for name in names}
    threads_per_second = {build: [] for build in builds}  # what cpu_backend_speed prints
    for run in range(args.runs):
        print(f"run {run + 1} of {args.runs} ...", file=sys.stderr)
        for name in names:
            for build in builds:
                if name in found[build]:
                    seconds, printed = cpu_seconds(found[build][name])
                    times[build, name].append(seconds)
                    rate = re.search(r"([0-9.e+]+) CUDA threads a second", printed)
                    if rate:
                        threads_per_second[build].append(float(rate.group(1)))

    def cell(build, name):
        runs = times[build, name]
        if not runs:
            return "-"
        if None in runs:
            return "fails"
        return f"{statistics.median(runs):.2f}"

    def change(build, name):
        base, new = cell(build, name), cell("checked", name)
        try:
            return f"{(float(new) / float(base) - 1) * 100:+.0f}%"
        except ValueError:
            return "-"

    print(f"| program | before ({args.base}) | off | checked | checked vs before | checked vs off |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name in names:
        print(f"| {name} | {cell('before', name)} | {cell('off', name)} | {cell('checked', name)} "
              f"| {change('before', name)} | {change('off', name)} |")
    print()
    print("cpu_backend_speed, CUDA threads a second (median of its runs): " + ", ".join(
        f"{build} {statistics.median(rates) / 1e6:.2f} million" for build, rates in threads_per_second.items() if rates))


if __name__ == "__main__":
    main()
