#!/usr/bin/env python3
"""The CPU backend's counts of every lesson's solution against Nsight Compute's,
as scripts/ncu-table.sh measured them on a GPU (results/ncu-<gpu>.csv).

The counts that depend only on addresses and active lanes must be equal:
global requests and sectors, shared load and store instructions, shared store
wavefronts and bank conflicts. Shared-load wavefronts and bank conflicts may
exceed ours by ncu's own excess on loads (DESIGN.md: a few percent on Hopper).
Builds the solutions' profile drivers it needs. Exits 77 (skipped) when the
table does not exist yet.
    ncu_agreement.py BUILD_DIR SOURCE_DIR [GPU]
"""
import csv
import subprocess
import sys
from pathlib import Path

EXACT = {
    "global_load_requests": "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "global_load_sectors": "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "global_store_requests": "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    "global_store_sectors": "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "shared_load_instructions": "smsp__sass_inst_executed_op_shared_ld.sum",
    "shared_store_instructions": "smsp__sass_inst_executed_op_shared_st.sum",
    "shared_store_wavefronts": "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "shared_store_bank_conflicts": "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
}
# ncu's excess on shared loads: at most this fraction of the wavefronts above ours.
LOAD_EXCESS = {
    "shared_load_wavefronts": "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "shared_load_bank_conflicts": "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
}
MAX_LOAD_EXCESS = 0.10


def read_table(path):
    """{(lesson, launch): (kernel, {metric: value})}"""
    table = {}
    for row in csv.DictReader(line for line in open(path) if not line.startswith("#")):
        metrics = {name: float(value) for name, value in row.items() if name not in ("lesson", "launch", "kernel") and value}
        table[(int(row["lesson"]), int(row["launch"]))] = (row["kernel"], metrics)
    return table


def cpu_counts(build, lesson):
    """Lesson N's solution as its profile driver counts it: [(kernel, {name: value})]"""
    target = f"profile-solution-{lesson:02d}"
    subprocess.run(["cmake", "--build", str(build), "--target", target], capture_output=True, check=True)
    launches = []
    output = subprocess.run([str(build / target)], capture_output=True, text=True, check=True).stdout
    for line in output.splitlines():
        name, *values = line.split()
        if name == "launch":
            launches.append((values[0], {}))
        elif launches and len(values) == 1:
            launches[-1][1][name] = float(values[0])
    return launches


def main():
    build, source = Path(sys.argv[1]), Path(sys.argv[2])
    gpu = sys.argv[3] if len(sys.argv) > 3 else "h100"
    path = source / "results" / f"ncu-{gpu}.csv"
    if not path.exists():
        print(f"{path} does not exist yet: scripts/ncu-table.sh writes it on a GPU")
        return 77
    table = read_table(path)
    failures = []
    for lesson in sorted({lesson for lesson, _ in table}):
        for launch, (kernel, counts) in enumerate(cpu_counts(build, lesson), start=1):
            measured_kernel, measured = table.get((lesson, launch), ("(none)", {}))
            where = f"lesson {lesson}, launch {launch} ({kernel})"
            if not measured_kernel.startswith(kernel.split("<")[0]):
                failures.append(f"{where}: ncu measured {measured_kernel} as this launch")
                continue
            for name, metric in EXACT.items():
                if metric in measured and counts[name] != measured[metric]:
                    failures.append(f"{where}: {name} {counts[name]:.0f}, ncu {metric} {measured[metric]:.0f}")
            for name, metric in LOAD_EXCESS.items():
                if metric not in measured:
                    continue
                excess = measured[metric] - counts[name]
                if excess < 0 or excess > MAX_LOAD_EXCESS * max(counts[name], 1):
                    failures.append(f"{where}: {name} {counts[name]:.0f}, ncu {metric} {measured[metric]:.0f}")
            print(f"{where}: compared with {path.name}")
    for failure in failures:
        print("DIFFERS:", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
