#!/usr/bin/env python3
"""The constants of `warpdrill profile`'s time model (runner/profile/gpu_model.cpp),
derived from kernels that each do one thing, timed on the GPU alone
(results/model-patterns-h100.csv, made by bench/model_patterns.cu), never from
the lessons:
  launch     an empty kernel's time against its blocks: the first launch of a
             call (the line's intercept) and each block's dispatch (its slope);
  next       what a second launch in the same call adds;
  bandwidth  the largest reads, less their launch;
  latency    the smallest reads, less their launch and their bytes at that bandwidth;
  cycles per observed instruction
             blocks meeting at __syncthreads() in a loop, whose every step is
             one instruction a warp that the CPU backend observes (the sync),
             with the arithmetic and the waiting around it: at one block an
             SM, a warp's cycles from one step to the next (a block's
             latency); at eight blocks an SM, the SM's cycles over the sync
             instructions it ran (its throughput);
  finish     lesson 10's finish alone (a fence, an atomic ticket, the last
             block adding the partials), less the empty launch, by grid;
  one load   a chain of loads, each waiting for the one before: what 48 more
             links add, over 48, where L2 serves the chain (a kernel has
             just stored it) and where DRAM does (a kernel has written twice
             L2's size elsewhere since).
    python3 scripts/model-fit.py            prints the constants, as gpu_model.cpp writes them
    python3 scripts/model-fit.py --check    exits 1 unless gpu_model.cpp holds these values
"""
import csv
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PATTERNS = ROOT / "results" / "model-patterns-h100.csv"
MODEL = ROOT / "runner" / "profile" / "gpu_model.cpp"
# The H100's boost clock, from gpu_model.cpp's table of GPUs.
CLOCK_GHZ = float(re.search(r'\{"h100", "[^"]*", \d+, ([0-9.]+),', MODEL.read_text()).group(1))
WARPS_PER_BLOCK = 256 // 32  # the patterns' blocks are of 256 threads


def rows():
    with open(PATTERNS) as table:
        return [dict(row, param=int(row["param"]), blocks=int(row["blocks"]), bytes=float(row["bytes"]),
                     gpu_us=float(row["gpu_us"])) for row in csv.DictReader(table)]


def line_fit(points):
    """Least squares: (intercept, slope)."""
    n = len(points)
    mean_x = sum(x for x, _ in points) / n
    mean_y = sum(y for _, y in points) / n
    slope = sum((x - mean_x) * (y - mean_y) for x, y in points) / sum((x - mean_x) ** 2 for x, _ in points)
    return mean_y - slope * mean_x, slope


def fit():
    table = rows()

    def pick(pattern, **where):
        return [r for r in table if r["pattern"] == pattern and all(r[k] == v for k, v in where.items())]

    first_us, block_us = line_fit([(r["blocks"], r["gpu_us"]) for r in pick("launch")])
    def launch(blocks):
        return first_us + block_us * blocks
    pair = pick("two launches")[0]
    next_us = pair["gpu_us"] - pick("launch", blocks=pair["blocks"])[0]["gpu_us"]
    reads = sorted(pick("read"), key=lambda r: r["bytes"])
    largest = [r for r in reads if r["bytes"] >= 256 << 20]
    bytes_per_us = sum(r["bytes"] for r in largest) / sum(r["gpu_us"] - launch(r["blocks"]) for r in largest)
    smallest = reads[:2]
    latency_us = sum(r["gpu_us"] - launch(r["blocks"]) - r["bytes"] / bytes_per_us for r in smallest) / len(smallest)

    def barrier_step_us(blocks):
        """The time one more barrier adds at that grid, from the runs of 0 and 256 barriers."""
        none, most = pick("barriers", blocks=blocks, param=0)[0], pick("barriers", blocks=blocks, param=256)[0]
        return (most["gpu_us"] - none["gpu_us"]) / 256

    sms = min(r["blocks"] for r in pick("barriers"))  # one block an SM
    warp_cycles = barrier_step_us(sms) * CLOCK_GHZ * 1e3
    crowded = max(r["blocks"] for r in pick("barriers"))
    sync_instructions_per_sm = (crowded / sms) * WARPS_PER_BLOCK
    sm_cycles = barrier_step_us(crowded) * CLOCK_GHZ * 1e3 / sync_instructions_per_sm
    finish = [(r["blocks"], r["gpu_us"] - launch(r["blocks"])) for r in sorted(pick("finish"), key=lambda r: r["blocks"])]
    def link_us(pattern):
        short, long = sorted(pick(pattern), key=lambda r: r["param"])
        return (long["gpu_us"] - short["gpu_us"]) / (long["param"] - short["param"])

    l2_load_us = link_us("L2 load chain")
    dram_load_us = link_us("DRAM load chain")
    return {
        "kFirstLaunchUs": first_us,
        "kBlockDispatchUs": block_us,
        "kNextLaunchUs": next_us,
        "kDramBytesPerUs": bytes_per_us,
        "kDramLatencyUs": latency_us,
        "kWarpCyclesPerObservedInstruction": warp_cycles,
        "kSmCyclesPerObservedInstruction": sm_cycles,
        "kL2LoadUs": l2_load_us,
        "kDramLoadUs": dram_load_us,
    }, finish


def held(source, name):
    found = re.search(rf"\b{name}\s*=\s*([0-9.e+]+)", source)
    return float(found.group(1)) if found else None


def main():
    constants, finish = fit()
    for name, value in constants.items():
        print(f"{name} = {value:.4g}")
    print("kFinishUs = {" + ", ".join(f"{{{blocks}, {us:.3g}}}" for blocks, us in finish) + "}")
    if "--check" not in sys.argv:
        return 0
    source = MODEL.read_text()
    wrong = []
    for name, value in constants.items():
        written = held(source, name)
        if written is None or abs(written - value) > 0.01 * abs(value):
            wrong.append(f"{name}: gpu_model.cpp has {written}, the patterns give {value:.4g}")
    for blocks, us in finish:
        if not re.search(rf"\{{{blocks}, {us:.3g}\}}", source):
            wrong.append(f"kFinishUs at {blocks} blocks: the patterns give {us:.3g}")
    for line in wrong:
        print(line, file=sys.stderr)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
