#!/usr/bin/env python3
"""Joins scripts/mistake-classes.sh's two sides into a markdown table: for each
program of cpu-cuda/tests/mistakes/, its class, what the CPU backend says, and
what each compute-sanitizer tool said on the GPU (its first report line).

    scripts/mistake-table.py CPU_DIR GPU_DIR > results/mistake-classes-h100.md
"""
import pathlib
import re
import sys

TOOLS = ("memcheck", "initcheck", "racecheck", "synccheck")
ROOT = pathlib.Path(__file__).resolve().parent.parent


def first_report(path):
    """The first line compute-sanitizer wrote about a finding, or ''."""
    if not path.exists():
        return "(no run)"
    for line in path.read_text(errors="replace").splitlines():
        text = line.removeprefix("=========").strip()
        if line.startswith("=========") and text and not re.match(r"(COMPUTE-SANITIZER|ERROR SUMMARY|LEAK SUMMARY: 0|RACECHECK SUMMARY: 0)", text):
            return text
    return ""


def cpu_words(path):
    """What the CPU backend said: its fault, or its warning, without the header line."""
    lines = [l for l in path.read_text(errors="replace").splitlines()
             if l.strip() and not l.startswith("warpdrill's CPU backend stopped")]
    said = [l for l in lines if l.startswith(("in block", "warpdrill: warning:", "warpdrill: note:"))]
    text = said[0] if said else (lines[0] if lines else "")
    return text.replace("warpdrill: ", "")


def cell(text, limit=230):
    text = text.replace("|", "\\|")
    return text if len(text) <= limit else text[:limit] + "…"


def main(cpu_dir, gpu_dir):
    cpu_dir, gpu_dir = pathlib.Path(cpu_dir), pathlib.Path(gpu_dir)
    device = (gpu_dir / "device.txt").read_text().strip().splitlines()
    print("# Each class of mistake: the CPU backend beside compute-sanitizer\n")
    print(f"GPU: {device[0]}; compute-sanitizer {device[1]}; {device[2]}. Programs: `cpu-cuda/tests/mistakes/` "
          "(one mistake each). Commands: `scripts/mistake-classes.sh gpu DIR` on the GPU (memcheck with "
          "`--leak-check full`, initcheck, racecheck, synccheck, `--print-limit 4`), "
          "`scripts/mistake-classes.sh cpu DIR` here, `scripts/mistake-table.py CPU_DIR GPU_DIR`.\n")
    print("| program (class) | CPU backend (`warpdrill run`) | compute-sanitizer on the GPU (first report of each tool that found something) |")
    print("|---|---|---|")
    named_cpu = named_gpu = 0
    programs = sorted((ROOT / "cpu-cuda/tests/mistakes").glob("*.cu"))
    for program in programs:
        name = program.stem
        klass = program.read_text().splitlines()[0].removeprefix("// class: ")
        cpu = cpu_words(cpu_dir / f"{name}.cpu.txt")
        gpu = [f"{tool}: {first_report(gpu_dir / f'{name}.{tool}.txt')}" for tool in TOOLS]
        gpu = [g for g in gpu if not g.endswith(": ")]
        named_cpu += bool(cpu)
        named_gpu += bool(gpu)
        print(f"| `{name}` ({cell(klass, 120)}) | {cell(cpu)} | {cell('; '.join(gpu)) if gpu else 'nothing'} |")
    print(f"\nNamed: CPU backend {named_cpu} of {len(programs)}, compute-sanitizer {named_gpu} of {len(programs)}.")


if __name__ == "__main__":
    main(*sys.argv[1:3])
