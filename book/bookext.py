"""The book's own directives and roles. Every figure they show is read from
the repository when the book is built, so that the text cannot drift from
what was measured or from what the checks print:

  {bench}`3 2^28`              lesson 3's GB/s at 2^28 floats, from results/bench-h100.csv;
  {bench}`3 2^28 us|copy|cub`  its time, its share of the copy's bandwidth, its speed against CUB;
  {bench}`3 2^28 gpu-us|gpu-cub`  the same two measured on the GPU alone (the stream held, gpu_bench's "GPU");
  {bench}`4/3 2^28`            how many times faster lesson 4 is than lesson 3 (keys: 1-10, cub, copy,
                               and for ReduceScale rs-cub, rs-baseline, rs-warp, rs-copy, without a size)
  ```{bench-table}             the lessons' GB/s at every size, with CUB and the copy, device and date;
  :lessons: 2 3                :versus-cub: adds the last lesson's speed against CUB, as a caller sees
  ```                          it and on the GPU alone
  ```{ncu} 3                   lesson 3's rows of the Nsight Compute table (results/ncu-h100.csv), beside
  :compare: 2                  lesson 2's, in the columns of NCU_COLUMNS; a note that it is not measured
  ```                          yet until that file exists, and an error (which fails the -W build) once
                               it exists without a row for the lesson
  ```{ncu-columns}             the columns: their headings, ncu metrics and meaning
  ```
  {ncu-cell}`5 1 time`         one cell of that table: lesson 5's first launch, its time as the table shows
                               it (a column of NCU_COLUMNS, or conflicts-ld)
  ```{allreduce-table} allreduce-h200x2  lesson 13's ring beside ncclAllReduce from results/<name>.csv, with
  ```                                      its device, date and command; until the file exists, a line
                                           saying it has not been measured yet
  ```{mistake} 03-barrier-in-branch   one of book/mistakes/mistakes.toml: the line changed against the
  ```                                 solution, and what the checks print in the book's language
                                      (book/mistakes/<id>.txt, book/mistakes/zh_CN/<id>.txt)
  ```{mistake-class} oob_global_read  what `warpdrill run` says of cpu-cuda/tests/mistakes/<name>.cu, in
  ```                                 the book's language (book/mistakes/classes/[zh_CN/]<name>.txt)
  ```{answer}                  an answer, folded away
  ```

The few words these add (table headings, captions) come in every language
the book is built in; the prose around them is translated in the catalogues.
"""
import csv
import difflib
import functools
import re
import tomllib
from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.errors import ExtensionError
from sphinx.util.docutils import SphinxDirective, SphinxRole

REPO = Path(__file__).resolve().parent.parent
BENCH_CSV = REPO / "results" / "bench-h100.csv"
BENCH_TXT = REPO / "results" / "bench-h100.txt"
RESULTS_README = REPO / "results" / "README.md"
NCU_CSV = REPO / "results" / "ncu-h100.csv"
METRIC_TABLE = REPO / "runner" / "profile" / "metrics.toml"
MISTAKES = REPO / "book" / "mistakes"

WORDS = {
    "en": {
        "answer": "Answer",
        "floats": "floats",
        "lesson": "lesson {}",
        "times": "{} vs {}",
        "times_gpu": "{} vs {}, GPU alone",
        "measured": ("Measured on an {device} on {date} by `{command}` ({file}): median of {runs} runs after "
                     "{warmups} warm-ups, inputs rotated over {rotated} so that the L2 cache does not hold "
                     "them. GB/s counts the bytes read; the copy's counts read and write."),
        "measured_rs": ("Measured on an {device} on {date} ({file}); GB/s counts the bytes read and written."),
        "measured_gpu": (" Times are as a caller sees one call, the host's time to submit its launches included; "
                         "GPU alone: the call queued behind a kernel that holds the stream until the host has "
                         "queued all of it (nvbench's method), so that only the GPU's time is measured."),
        "kernel": "kernel", "time": "time", "of_copy": "of the copy", "copy": "copy (read + write)",
        "ncu": ("Nsight Compute on an {device} on {date}: `{command}` ({file}), one row per launch; the "
                "introduction explains the columns."),
        "ncu_unknown": " – : not measured, this ncu does not know `{metrics}`.",
        "ncu_missing": ("Nsight Compute's rows for this lesson appear here once `scripts/ncu-table.sh` has "
                        "measured every lesson's solution on a GPU ({file}); it has not been run yet."),
        "lesson_column": "lesson", "launch": "launch", "column": "column", "metric": "Nsight Compute metric", "meaning": "what it counts",
        "ncu_columns": {
            "time": ("time (µs)", "the launch's duration on the GPU, from its first instruction to its last "
                     "write; the time a launch takes to start is not in it"),
            "dram": ("DRAM % of peak", "the memory's traffic during the launch, as a share of the most it can "
                     "sustain"),
            "occupancy": ("occupancy %", "achieved occupancy: the warps resident on an SM, on average while it "
                          "was busy, as a share of the most it can hold (64 on an H100)"),
            "lanes": ("threads per warp instruction", "how many of a warp's 32 lanes are active, on average, "
                      "when it executes an instruction. A lane whose instruction is predicated off counts as "
                      "active, so an if that nvcc compiles to predicated instructions does not lower it "
                      "(lesson 1's chapter); lanes that have exited, or that sit out a divergent branch, do"),
            "divergent": ("divergent branches", "branch targets at which the active lanes of a warp went "
                          "different ways; a predicated instruction is not a branch and does not count"),
            "sectors": ("sectors per load request", "the 32-byte sectors an average warp's global load "
                        "touches: 4 for 32 floats in a row, 16 for 32 packs of four"),
            "shared": ("shared ld / st", "warp instructions that load from and store to shared memory, "
                       "counted where at least one lane executes them: one predicated off in every lane does "
                       "not count"),
            "conflicts": ("bank conflicts ld / st", "shared-memory wavefronts beyond the fewest the access "
                          "needs, for loads and for stores (lesson 2's chapter explains wavefronts, and the few "
                          "load wavefronts the H100 counts here even where no two lanes share a bank)"),
            "instructions": ("warp instructions", "warp instructions executed, of every kind, predicated off "
                             "or not"),
        },
        "wrote": "The change, against the solution (`{file}`; - the solution's line, + the mistake):",
        "prints": "What `warpdrill check {lesson}` prints (line numbers as in the solution's file):",
        "floats_gpu": "floats a GPU", "ring": "ring", "ratio": "ring / NCCL busbw",
        "allreduce": ("Measured on {device} on {date} by `{command}` ({file}): median of 30 runs after 5 "
                      "warm-ups, timed with CUDA events; algbw = 4 M bytes / time, busbw = algbw × 2(G - 1)/G "
                      "(nccl-tests' definitions). GB/s."),
        "allreduce_goal": "At 2^26 floats a GPU and above, the ring reaches {low:.0f}% to {high:.0f}% of NCCL's bus bandwidth.",
        "not_measured": ("Not measured yet: `scripts/allreduce-bench.sh`, run on a machine with two GPUs, writes "
                         "{file}, and this table shows it."),
    },
    "zh": {
        "answer": "答案",
        "floats": "float 个数",
        "lesson": "第 {} 课",
        "times": "{}相对{}的加速比",
        "times_gpu": "{}相对{}的加速比（仅 GPU 时间）",
        "measured": ("测量于 {device}，{date}，命令 `{command}`（{file}）：预热 {warmups} 次后取 {runs} 次的中位数，"
                     "输入在 {rotated} 的范围内轮换，使 L2 缓存装不下它们。GB/s 只计读取的字节；复制（copy）计读和写。"),
        "measured_rs": "测量于 {device}，{date}（{file}）；GB/s 计读取和写入的字节。",
        "measured_gpu": ("时间是调用者看到的一次调用的时间，包括主机提交各次启动的时间；“仅 GPU 时间”：调用排在一个占住流的 kernel "
                         "之后，直到主机把它全部排入队列才放行（nvbench 的方法），因此只测到 GPU 自己的时间。"),
        "kernel": "kernel", "time": "时间", "of_copy": "占复制带宽", "copy": "复制（读 + 写）",
        "ncu": "Nsight Compute，{device}，{date}：`{command}`（{file}），每次启动一行；各列的含义见引言。",
        "ncu_unknown": " – ：未测量，这个版本的 ncu 不认识 `{metrics}`。",
        "ncu_missing": ("本课的 Nsight Compute 数据行会在 `scripts/ncu-table.sh` 在 GPU 上测量过每一课的参考答案"
                        "之后出现在这里（{file}）；目前还没有运行过。"),
        "lesson_column": "课", "launch": "启动", "column": "列", "metric": "Nsight Compute 指标", "meaning": "含义",
        "ncu_columns": {
            "time": ("时间 (µs)", "这次启动在 GPU 上的持续时间，从第一条指令到最后一次写入；不包括启动本身开始所需的时间"),
            "dram": ("DRAM 占峰值 %", "启动期间内存的流量占它所能持续的最大流量的比例"),
            "occupancy": ("占用率 %", "实际占用率（achieved occupancy）：SM 忙碌期间平均驻留的 warp 数占其上限的比例"
                          "（H100 上为 64 个）"),
            "lanes": ("每条 warp 指令的线程数", "一个 warp 执行一条指令时，平均有其 32 个 lane 中的多少个处于活跃状态。"
                      "指令被谓词关闭（predicated off）的 lane 也算活跃，所以 nvcc 编译成谓词化指令的 if 不会让它降低"
                      "（见第 1 课一章）；已经退出的 lane，以及因发散分支而闲置的 lane，才会让它降低"),
            "divergent": ("发散分支", "一个 warp 的活跃 lane 走向不同方向的分支目标数；谓词化的指令不是分支，不计入"),
            "sectors": ("每个加载请求的 sector 数", "一个 warp 的全局加载平均涉及的 32 字节 sector 数：连续 32 个 float "
                        "为 4，32 个四元素 pack 为 16"),
            "shared": ("共享内存 ld / st", "从共享内存加载、向共享内存存储的 warp 指令数，只计至少有一个 lane 执行的指令："
                       "所有 lane 都被谓词关闭的指令不计入"),
            "conflicts": ("bank conflict ld / st", "共享内存访问超出所需最少 wavefront 的部分，分加载和存储"
                          "（第 2 课一章解释了 wavefront，以及为什么即使没有两个 lane 落在同一个 bank，"
                          "H100 上这里也会计入少量加载 wavefront）"),
            "instructions": ("warp 指令数", "执行的各类 warp 指令总数，被谓词关闭的也计入"),
        },
        "wrote": "改动（相对于参考答案 `{file}`；- 为答案中的行，+ 为错误写法）：",
        "prints": "`warpdrill check {lesson}` 打印的内容（行号按参考答案文件）：",
        "floats_gpu": "每块 GPU 的 float 个数", "ring": "环", "ratio": "环 / NCCL 的 busbw",
        "allreduce": ("测量于 {device}，{date}，命令 `{command}`（{file}）：预热 5 次后取 30 次的中位数，用 CUDA 事件计时；"
                      "algbw = 4 M 字节 / 时间，busbw = algbw × 2(G - 1)/G（nccl-tests 的定义）。单位 GB/s。"),
        "allreduce_goal": "每块 GPU 2^26 个 float 及以上时，环达到 NCCL 总线带宽的 {low:.0f}% 到 {high:.0f}%。",
        "not_measured": "尚未测量：在有两块 GPU 的机器上运行 `scripts/allreduce-bench.sh` 会写出 {file}，本表随后显示它。",
    },
}


def words(env):
    language = env.config.language or "en"
    return WORDS["zh" if language.startswith("zh") else "en"]


def caption_paragraph(text):
    """A caption with `code` in it, as inline nodes (captions are generated, not translated)."""
    paragraph = nodes.paragraph(translatable=False)  # written in each language here, not in the catalogues
    for i, part in enumerate(text.split("`")):
        paragraph += nodes.literal(part, part) if i % 2 else nodes.Text(part)
    return paragraph


# ---- the benchmark -----------------------------------------------------------------

def kernel_key(kernel, idea):
    """The key a role names a row by: "3", "cub", "copy"; for ReduceScale "rs-..."."""
    if idea.startswith("ReduceScale"):
        if kernel.startswith("block per row"):
            return "rs-cub"
        if "baseline" in kernel:
            return "rs-baseline"
        if "warp per row" in kernel:
            return "rs-warp"
        if kernel == "copy":  # a copy of the same matrix, for scale
            return "rs-copy"
        return "rs-other"
    match = re.fullmatch(r"lesson (\d+)", kernel)
    return match.group(1) if match else kernel


class Bench:
    """results/bench-h100.csv, keyed by (kernel key, floats); ReduceScale rows by (key, "rs")."""

    def __init__(self):
        self.rows = {}
        with BENCH_CSV.open() as file:
            for row in csv.DictReader(file):
                if row["correct"] != "yes":
                    continue
                key = kernel_key(row["kernel"], row["idea"])
                size = "rs" if key.startswith("rs-") else int(row["floats"])
                self.rows[key, size] = {"us": float(row["time_us"]), "gpu-us": float(row["gpu_us"]),
                                        "gbps": float(row["gbps"])}
        self.header = BENCH_TXT.read_text().splitlines()[0]
        self.readme_cell = self._readme_cell()

    @staticmethod
    def _readme_cell():
        """results/README.md's device-and-date cell and command for bench-h100.txt."""
        for line in RESULTS_README.read_text().splitlines():
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            if len(cells) == 3 and "bench-h100.txt" in cells[0]:
                command = re.match(r"`([^`]+)`", cells[2])
                return cells[1], command.group(1) if command else cells[2]
        raise ValueError(f"{RESULTS_README} has no row for bench-h100.txt")

    def row(self, key, size):
        if (key, size) not in self.rows:
            raise KeyError(f"{BENCH_CSV.relative_to(REPO)} has no row for '{key}' at {size}")
        return self.rows[key, size]

    def of_copy(self, key, size):
        copy_key = "rs-copy" if size == "rs" else "copy"
        return self.row(key, size)["gbps"] / self.row(copy_key, size)["gbps"]

    def versus_cub(self, key, size, time="us"):
        """CUB's time over the kernel's: "us" as a caller sees it, "gpu-us" on the GPU alone."""
        return self.row("cub", size)[time] / self.row(key, size)[time]

    def sizes(self, keys):
        common = None
        for key in keys:
            found = {size for k, size in self.rows if k == key and size != "rs"}
            common = found if common is None else common & found
        return sorted(common or [])

    def device_and_date(self):
        """("NVIDIA H100 80GB HBM3 (132 SMs, L2 50 MB; driver ..., CUDA ...)", "2026-11-23", command)."""
        device_cell, command = self.readme_cell
        date = re.search(r"\d{4}-\d{2}-\d{2}", device_cell).group(0)
        name, _, software = device_cell[:device_cell.index(date)].strip(", ").partition(", ")
        hardware = self.header.split(";")[0].split(", ", 1)[1]  # "Device: <name>, 132 SMs, L2 50 MB"
        return f"{name} ({hardware}; {software})", date, command

    def method(self):
        runs = re.search(r"median of (\d+) runs after (\d+) warm-ups, inputs rotated over ([\d.]+ [KMG]B)",
                         self.header)
        return {"runs": runs.group(1), "warmups": runs.group(2), "rotated": runs.group(3)}


_bench = None


def bench(env):
    global _bench
    if _bench is None:
        try:
            _bench = Bench()
        except (OSError, ValueError, AttributeError, IndexError) as error:
            raise ExtensionError(f"the benchmark's results in results/ could not be read: {error}") from error
    for path in (BENCH_CSV, BENCH_TXT, RESULTS_README):
        env.note_dependency(str(path))
    return _bench


def power_of_two(size):
    exponent = size.bit_length() - 1
    return f"2^{exponent}" if 1 << exponent == size else str(size)


def parse_size(text):
    match = re.fullmatch(r"2\^(\d+)", text)
    return 1 << int(match.group(1)) if match else int(text)


class BenchRole(SphinxRole):
    def run(self):
        parts = self.text.split()
        keys, rest = parts[0], parts[1:]
        try:
            data = bench(self.env)
            if keys.split("/")[0].startswith("rs-"):
                size, field = "rs", (rest[0] if rest else "gbps")
            else:
                size, field = parse_size(rest[0]), (rest[1] if len(rest) > 1 else "gbps")
            if "/" in keys:
                faster, slower = keys.split("/")
                text = f"{data.row(slower, size)['us'] / data.row(faster, size)['us']:.2f}×"
            elif field == "gbps":
                text = f"{data.row(keys, size)['gbps']:.0f} GB/s"
            elif field in ("us", "gpu-us"):
                text = f"{data.row(keys, size)[field]:.1f} µs"
            elif field == "copy":
                text = f"{100 * data.of_copy(keys, size):.0f}%"
            elif field == "cub":
                text = f"{data.versus_cub(keys, size):.2f}×"
            elif field == "gpu-cub":
                text = f"{data.versus_cub(keys, size, 'gpu-us'):.2f}×"
            else:
                raise KeyError(f"unknown field '{field}' (gbps, us, gpu-us, copy, cub, gpu-cub)")
        except (KeyError, ValueError, IndexError) as error:
            message = self.inliner.reporter.error(f"{{bench}}`{self.text}`: {error}", line=self.lineno)
            return [self.inliner.problematic(self.rawtext, self.rawtext, message)], [message]
        return [nodes.Text(text)], []


def table(headings, rows, classes=()):
    """A docutils table of cells: text, or nodes to put in the cell as they are."""
    group = nodes.tgroup(cols=len(headings))
    for _ in headings:
        group += nodes.colspec(colwidth=1)
    for section, lines in ((nodes.thead(), [headings]), (nodes.tbody(), rows)):
        for line in lines:
            row = nodes.row()
            for cell in line:
                entry = nodes.entry()
                entry += cell if isinstance(cell, nodes.Node) else nodes.paragraph(text=str(cell))
                row += entry
            section += row
        group += section
    return nodes.table("", group, classes=list(classes))


class BenchTable(SphinxDirective):
    option_spec = {"lessons": directives.unchanged_required, "versus-cub": directives.flag}

    def run(self):
        data = bench(self.env)
        w = words(self.env)
        lessons = self.options["lessons"].split()
        keys = lessons + ["cub", "copy"]
        versus_cub = "versus-cub" in self.options
        try:
            sizes = data.sizes(lessons)
            if not sizes:
                raise KeyError(f"no size at which every one of lessons {' '.join(lessons)} was measured")
            rows = []
            for size in sizes:
                row = [power_of_two(size)]
                for key in keys:
                    row.append(f"{data.row(key, size)['gbps']:.0f}" +
                               ("" if key == "copy" else f" ({100 * data.of_copy(key, size):.0f}%)"))
                if len(lessons) > 1:
                    row.append(f"{data.row(lessons[0], size)['us'] / data.row(lessons[-1], size)['us']:.2f}×")
                if versus_cub:
                    row += [f"{data.versus_cub(lessons[-1], size, time):.2f}×" for time in ("us", "gpu-us")]
                rows.append(row)
        except KeyError as error:
            return [self.state.document.reporter.error(f"bench-table: {error}", line=self.lineno)]
        headings = [w["floats"]] + [w["lesson"].format(k) + ", GB/s" for k in lessons] + [
            "cub::DeviceReduce::Sum", w["copy"]]
        if len(lessons) > 1:
            headings.append(w["times"].format(w["lesson"].format(lessons[-1]), w["lesson"].format(lessons[0])))
        if versus_cub:
            last = w["lesson"].format(lessons[-1])
            headings += [w["times"].format(last, "CUB"), w["times_gpu"].format(last, "CUB")]
        device, date, command = data.device_and_date()
        caption = w["measured"].format(device=device, date=date, command=command,
                                       file="results/bench-h100.txt", **data.method())
        if versus_cub:
            caption += w["measured_gpu"]
        return [table(headings, rows), caption_paragraph(caption)]


class BenchReduceScale(SphinxDirective):
    def run(self):
        data = bench(self.env)
        w = words(self.env)
        names = {"rs-cub": "block per row, cub::BlockReduce", "rs-baseline": "lesson 9 baseline, block per row",
                 "rs-warp": "lesson 9, warp per row, float4", "rs-copy": "copy"}
        try:
            rows = [[name, f"{data.row(key, 'rs')['us']:.1f} µs", f"{data.row(key, 'rs')['gbps']:.0f}",
                     f"{100 * data.of_copy(key, 'rs'):.0f}%"] for key, name in names.items()]
        except KeyError as error:
            return [self.state.document.reporter.error(f"bench-reduce-scale: {error}", line=self.lineno)]
        device, date, _ = data.device_and_date()
        caption = w["measured_rs"].format(device=device, date=date, file="results/bench-h100.txt")
        return [table([w["kernel"], w["time"], "GB/s", w["of_copy"]], rows), caption_paragraph(caption)]


# ---- Nsight Compute --------------------------------------------------------------------

def ncu_metrics():
    """{a metric's key: ncu's name for it} of the profile's metric table (runner/profile/metrics.toml)."""
    metrics = tomllib.loads(METRIC_TABLE.read_text())["metric"]
    return {metric["key"]: metric["ncu"] for metric in metrics if "ncu" in metric}


NCU_METRICS = ncu_metrics()


class NcuColumn:
    """A column the chapters show: made from one or more metrics of runner/profile/metrics.toml, named
    by their keys (the table's columns are ncu's names for them, as scripts/ncu-table.sh writes them),
    shown by `show` from their values."""

    def __init__(self, key, metric_keys, show, joined_by=" / "):
        self.key, self.show, self.joined_by = key, show, joined_by
        self.metrics = tuple(NCU_METRICS[metric_key] for metric_key in metric_keys)

    def cell(self, row):
        """The cell's text; "–" where the table has no value for one of its metrics."""
        try:
            return self.show(*(float(row[metric]) for metric in self.metrics))
        except (KeyError, ValueError, ZeroDivisionError):
            return "–"


def count(value):
    return f"{value:,.0f}"


def loads_and_stores(loads, stores):
    return f"{count(loads)} / {count(stores)}"


NCU_COLUMNS = [
    NcuColumn("time", ("kernel_duration",), lambda ns: f"{ns / 1000:.1f}"),  # ncu's base unit: ns
    NcuColumn("dram", ("dram_throughput",), lambda pct: f"{pct:.0f}"),
    NcuColumn("occupancy", ("occupancy",), lambda pct: f"{pct:.0f}"),
    NcuColumn("lanes", ("threads_per_instruction",), lambda lanes: f"{lanes:.1f}"),
    NcuColumn("divergent", ("divergent_branch_targets",), count),
    NcuColumn("sectors", ("global_load_sectors", "global_load_requests"),
              lambda sectors, requests: f"{sectors / requests:.1f}", joined_by=" ÷ "),
    NcuColumn("shared", ("shared_load_instructions", "shared_store_instructions"), loads_and_stores),
    NcuColumn("conflicts", ("shared_load_bank_conflicts", "shared_store_bank_conflicts"), loads_and_stores),
    NcuColumn("instructions", ("instructions",), count),
]


@functools.cache
def read_ncu_table():
    """results/ncu-h100.csv: a commented CSV table (below) with a row per launch: `lesson,launch,kernel`,
    then a column per metric. The first column names the lesson ("3", "lesson 3", "03-sequential-addressing").
    Read once a build: every {ncu} table and {ncu-cell} of the book quotes it."""
    return read_commented_csv(NCU_CSV)


def rows_of_lesson(headings, rows, lesson):
    """The table's rows of lesson `lesson`, one per launch."""
    return [row for row in rows if lesson_of(row[headings[0]]) == lesson]


def read_commented_csv(path):
    """'#' lines "# key: value" (device, date, command), then a CSV table with a header row:
    (meta, headings, rows as dicts by heading)."""
    meta, lines = {}, []
    for line in path.read_text().splitlines():
        if line.startswith("#"):
            key, _, value = line.lstrip("# ").partition(":")
            meta[key.strip().lower()] = value.strip()
        elif line.strip():
            lines.append(line)
    headings, *rows = csv.reader(lines)
    return meta, headings, [dict(zip(headings, row)) for row in rows]


def lesson_of(cell):
    match = re.search(r"\d+", cell)
    return int(match.group(0)) if match else None


class NcuRow(SphinxDirective):
    required_arguments = 1
    option_spec = {"compare": directives.positive_int}

    def run(self):
        w = words(self.env)
        file = NCU_CSV.relative_to(REPO)
        # A dependency that does not exist counts as changed: until the table appears, the chapter is
        # read again on every build, so that it shows the table as soon as there is one.
        self.env.note_dependency(str(NCU_CSV))
        self.env.note_dependency(str(METRIC_TABLE))
        if not NCU_CSV.exists():
            return [caption_paragraph(w["ncu_missing"].format(file=file))]
        try:
            meta, headings, rows = read_ncu_table()
        except (OSError, ValueError) as error:
            raise ExtensionError(f"{file} could not be read: {error}") from error
        quoted = [metric for column in NCU_COLUMNS for metric in column.metrics]
        if not set(quoted) & set(headings):
            return [self.state.document.reporter.error(
                f"ncu: {file} has none of the metrics the book quotes ({', '.join(quoted)})", line=self.lineno)]
        wanted = [self.options["compare"]] if "compare" in self.options else []
        wanted.append(int(self.arguments[0]))
        chosen = []
        for lesson in wanted:
            found = rows_of_lesson(headings, rows, lesson)
            if not found:
                return [self.state.document.reporter.error(f"ncu: {file} has no row for lesson {lesson}",
                                                           line=self.lineno)]
            chosen += [[str(lesson), row.get("launch", ""), row.get("kernel", "")] +
                       [column.cell(row) for column in NCU_COLUMNS] for row in found]
        columns = w["ncu_columns"]
        cells = [w["lesson_column"], w["launch"], w["kernel"]] + [columns[c.key][0] for c in NCU_COLUMNS]
        caption = w["ncu"].format(device=meta.get("device", "?"), date=meta.get("date", "?"),
                                  command=meta.get("command", "?"), file=file)
        unknown = meta.get("metrics this ncu does not know")
        if unknown:
            caption += w["ncu_unknown"].format(metrics=unknown)
        container = nodes.container(classes=["ncu-table"])
        container += table(cells, chosen, classes=["ncu"])
        return [container, caption_paragraph(caption)]


class NcuCellRole(SphinxRole):
    """{ncu-cell}`5 1 time`: lesson 5's first launch, one column of its {ncu} row as the table shows it
    (the keys of NCU_COLUMNS), or `conflicts-ld` for its shared-load bank conflicts alone, so that a
    chapter's prose quotes the table beside it and cannot drift from it. "–" until the table exists."""

    extra = {"conflicts-ld": NcuColumn("conflicts-ld", ("shared_load_bank_conflicts",), count)}

    def run(self):
        self.env.note_dependency(str(NCU_CSV))
        self.env.note_dependency(str(METRIC_TABLE))
        if not NCU_CSV.exists():
            return [nodes.Text("–")], []  # as the {ncu} table beside it says, not measured yet
        try:
            lesson, launch, key = self.text.split()
            columns = {column.key: column for column in NCU_COLUMNS} | self.extra
            if key not in columns:
                raise KeyError(f"unknown column '{key}' ({', '.join(columns)})")
            _, headings, rows = read_ncu_table()
            found = [row for row in rows_of_lesson(headings, rows, int(lesson)) if row.get("launch") == launch]
            if not found:
                raise KeyError(f"{NCU_CSV.relative_to(REPO)} has no row for lesson {lesson}, launch {launch}")
            text = columns[key].cell(found[0])
        except (OSError, KeyError, ValueError) as error:
            message = self.inliner.reporter.error(f"{{ncu-cell}}`{self.text}`: {error}", line=self.lineno)
            return [self.inliner.problematic(self.rawtext, self.rawtext, message)], [message]
        return [nodes.Text(text)], []


class NcuColumns(SphinxDirective):
    """The legend of the {ncu} tables, from NCU_COLUMNS."""

    def run(self):
        self.env.note_dependency(str(METRIC_TABLE))
        w = words(self.env)
        rows = []
        for column in NCU_COLUMNS:
            heading, meaning = w["ncu_columns"][column.key]
            metrics = nodes.paragraph(translatable=False)
            for i, metric in enumerate(column.metrics):
                if i:
                    metrics += nodes.Text(column.joined_by)
                metrics += nodes.literal(metric, metric)
            rows.append([heading, metrics, meaning])
        return [table([w["column"], w["metric"], w["meaning"]], rows)]


# ---- lesson 13: the ring beside NCCL ----------------------------------------------------

class AllReduceTable(SphinxDirective):
    required_arguments = 1

    def run(self):
        w = words(self.env)
        path = REPO / "results" / f"{self.arguments[0]}.csv"
        shown = f"results/{path.name}"
        self.env.note_dependency(str(path))
        if not path.exists():
            return [caption_paragraph(w["not_measured"].format(file=shown))]
        meta, _, rows = read_commented_csv(path)
        by_size = {}
        for row in rows:
            by_size.setdefault(int(row["floats"]), {})[row["kernel"]] = row
        table_rows, ratios = [], []
        for size, found in sorted(by_size.items()):
            ring, nccl = found.get("lesson 13"), found.get("ncclAllReduce")
            if not ring or not nccl:
                return [self.state.document.reporter.error(
                    f"allreduce-table: {shown} lacks the ring or NCCL at {size} floats", line=self.lineno)]
            ratio = float(ring["gbps"]) / float(nccl["gbps"])
            if size >= 1 << 26:
                ratios.append(100 * ratio)
            table_rows.append([power_of_two(size)] + [f"{float(r[key]):.1f}" for r in (ring, nccl)
                                                      for key in ("time_us", "algbw_gbps", "gbps")]
                              + [f"{100 * ratio:.0f}%"])
        headings = [w["floats_gpu"]] + [f"{name}, {field}" for name in (w["ring"], "NCCL")
                                        for field in ("µs", "algbw", "busbw")] + [w["ratio"]]
        caption = w["allreduce"].format(device=meta.get("device", "?"), date=meta.get("date", "?"),
                                        command=meta.get("command", "?"), file=shown)
        shown_nodes = [table(headings, table_rows), caption_paragraph(caption)]
        if ratios:
            shown_nodes.append(caption_paragraph(w["allreduce_goal"].format(low=min(ratios), high=max(ratios))))
        return shown_nodes


# ---- mistakes ---------------------------------------------------------------------------

def load_mistakes():
    with (MISTAKES / "mistakes.toml").open("rb") as file:
        return {m["id"]: m for m in tomllib.load(file)["mistake"]}


class Mistake(SphinxDirective):
    required_arguments = 1

    def run(self):
        mistake_id = self.arguments[0]
        reporter = self.state.document.reporter
        self.env.note_dependency(str(MISTAKES / "mistakes.toml"))
        mistake = load_mistakes().get(mistake_id)
        message_file = MISTAKES / f"{mistake_id}.txt"
        # What the checks print in the book's language, where the book keeps that copy.
        translated = MISTAKES / (self.env.config.language or "en") / f"{mistake_id}.txt"
        if translated.exists():
            message_file = translated
        solutions = sorted((REPO / "solutions").glob(f"{mistake_id[:2]}-*"))
        if mistake is None or not message_file.exists() or len(solutions) != 1:
            return [reporter.error(f"mistake {mistake_id}: not in book/mistakes/mistakes.toml, "
                                   f"or no book/mistakes/{mistake_id}.txt", line=self.lineno)]
        solution = solutions[0] / mistake["file"]
        self.env.note_dependency(str(message_file))
        self.env.note_dependency(str(solution))
        if solution.read_text().count(mistake["replace"]) != 1:
            return [reporter.error(f"mistake {mistake_id}: its text is no longer in "
                                   f"{solution.relative_to(REPO)} exactly once", line=self.lineno)]
        change = [line for line in difflib.unified_diff(mistake["replace"].splitlines(),
                                                        mistake["with"].splitlines(), lineterm="", n=2)
                  if not line.startswith(("---", "+++", "@@"))]
        change_text = "\n".join(change)
        w = words(self.env)
        lesson = int(mistake_id[:2])
        code = nodes.literal_block(change_text, change_text, language="diff")
        printed_text = message_file.read_text()
        printed = nodes.literal_block(printed_text, printed_text, language="text")
        printed["classes"].append("checks-output")
        container = nodes.container(classes=["mistake"])
        container += [caption_paragraph(w["wrote"].format(file=f"{solution.relative_to(REPO)}")), code,
                      caption_paragraph(w["prints"].format(lesson=lesson)), printed]
        return [container]


class MistakeClass(SphinxDirective):
    """What `warpdrill run` says of cpu-cuda/tests/mistakes/NAME.cu, in the book's language:
    book/mistakes/classes/[LANGUAGE/]NAME.txt (tests/runner/mistake_classes.sh keeps the copies)."""
    required_arguments = 1

    def run(self):
        name = self.arguments[0]
        report = MISTAKES / "classes" / f"{name}.txt"
        translated = MISTAKES / "classes" / (self.env.config.language or "en") / f"{name}.txt"
        if translated.exists():
            report = translated
        if not report.exists():
            return [self.state.document.reporter.error(f"mistake class {name}: no {report.relative_to(REPO)}",
                                                       line=self.lineno)]
        self.env.note_dependency(str(report))
        text = report.read_text()
        return [nodes.literal_block(text, text, language="text")]


# ---- answers, folded away --------------------------------------------------------------

class details(nodes.General, nodes.Element):
    pass


def visit_details_html(translator, node):
    translator.body.append(f'<details class="answer"><summary>{node["summary"]}</summary>\n')


def depart_details_html(translator, node):
    translator.body.append("</details>\n")


def visit_plain(translator, node):
    pass


class Answer(SphinxDirective):
    has_content = True

    def run(self):
        node = details(summary=words(self.env)["answer"])
        self.state.nested_parse(self.content, self.content_offset, node)
        return [node]


def setup(app):
    app.add_role("bench", BenchRole())
    app.add_directive("bench-table", BenchTable)
    app.add_directive("bench-reduce-scale", BenchReduceScale)
    app.add_directive("ncu", NcuRow)
    app.add_directive("ncu-columns", NcuColumns)
    app.add_role("ncu-cell", NcuCellRole())
    app.add_directive("allreduce-table", AllReduceTable)
    app.add_directive("mistake", Mistake)
    app.add_directive("mistake-class", MistakeClass)
    app.add_directive("answer", Answer)
    plain = (visit_plain, visit_plain)
    app.add_node(details, html=(visit_details_html, depart_details_html), latex=plain, text=plain, man=plain,
                 texinfo=plain)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
