#!/usr/bin/env python3
"""Each lesson's branches, at the source and in the SASS, side by side.

Runs `./warpdrill profile N --solution --json` for every lesson that has a
profile workload and prints a Markdown table, launch by launch: the CPU
backend's source-level counts (the warp evaluations of the kernel files'
if, while and for conditions, and the divergent ones; cudacc --branches) and
Nsight Compute's divergent branch targets in the same launch, from
results/ncu-<gpu>.csv. Then each source branch that diverged, by line, for
the launches where ncu counts a divergent branch target.
    scripts/branch-table.py [--gpu h100]
"""
import argparse
import json
import subprocess
import sys
from pathlib import Path

COURSE = Path(__file__).resolve().parent.parent
NCU_DIVERGENT = "smsp__sass_branch_targets_threads_divergent.sum"


def profile(lesson, gpu):
    """The profile's JSON for a lesson's solution, or None when it has no workload."""
    run = subprocess.run([str(COURSE / "warpdrill"), "profile", str(lesson), "--solution", "--json", "--gpu", gpu],
                         cwd=COURSE, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    if run.returncode != 0:
        return None
    return json.loads(run.stdout)


def number(value):
    return "" if value is None else f"{value:,.0f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gpu", default="h100")
    args = parser.parse_args()
    rows, lines = [], []
    for lesson in range(1, 100):
        if not any(COURSE.glob(f"lessons/{lesson:02d}-*")):
            break
        document = profile(lesson, args.gpu)
        if document is None:
            continue
        for index, launch in enumerate(document["lessons"][0]["launches"], start=1):
            branches = launch.get("branches", [])
            sass = launch.get("ncu", {}).get(NCU_DIVERGENT)
            rows.append(f"| {lesson} | {index} | `{launch['kernel']}` | "
                        f"{number(sum(b['evaluations'] for b in branches))} | "
                        f"{number(sum(b['divergent'] for b in branches))} | {number(sass)} |")
            if sass:
                lines += [f"| {lesson} | {index} | `{b['place']}` ({b['statement']}) | {number(b['evaluations'])} | "
                          f"{number(b['divergent'])} |" for b in branches if b["divergent"]]
    if not rows:
        sys.exit("no lesson could be profiled")
    print("| lesson | launch | kernel | warp evaluations (source) | divergent (source) | "
          "divergent branch targets (ncu, SASS) |")
    print("| --- | --- | --- | --- | --- | --- |")
    print("\n".join(rows))
    print("\nThe source branches that diverged, in the launches where ncu counts a divergent branch target:\n")
    print("| lesson | launch | branch | warp evaluations | divergent |")
    print("| --- | --- | --- | --- | --- |")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
