"""The book's own directives and roles. Every figure they show is read from
the repository when the book is built, so that the text cannot drift from
what was measured or from what the checks print:

  {bench}`3 2^28`              lesson 3's GB/s at 2^28 floats, from results/bench-h100.csv;
  {bench}`3 2^28 us|copy|cub`  its time, its share of the copy's bandwidth, its speed against CUB;
  {bench}`4/3 2^28`            how many times faster lesson 4 is than lesson 3 (keys: 1-10, cub, copy,
                               and for ReduceScale rs-cub, rs-baseline, rs-warp, rs-copy, without a size)
  ```{bench-table}             the lessons' GB/s at every size, with CUB and the copy, device and date
  :lessons: 2 3
  ```
  ```{ncu} 3                   lesson 3's row of the Nsight Compute table (results/ncu-h100.csv), beside
  :compare: 2                  lesson 2's; nothing at all until that file exists, and an error (which
  ```                          fails the -W build) once it exists without a row for the lesson
  ```{allreduce-table} allreduce-h200x2  lesson 13's ring beside ncclAllReduce from results/<name>.csv, with
  ```                                      its device, date and command; until the file exists, a line
                                           saying it has not been measured yet
  ```{mistake} 03-barrier-in-branch   one of book/mistakes/mistakes.toml: the line changed against the
  ```                                 solution, and what the checks print (book/mistakes/<id>.txt)
  ```{answer}                  an answer, folded away
  ```

The few words these add (table headings, captions) come in every language
the book is built in; the prose around them is translated in the catalogues.
"""
import csv
import difflib
import re
import tomllib
from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective, SphinxRole

logger = logging.getLogger(__name__)

REPO = Path(__file__).resolve().parent.parent
BENCH_CSV = REPO / "results" / "bench-h100.csv"
BENCH_TXT = REPO / "results" / "bench-h100.txt"
RESULTS_README = REPO / "results" / "README.md"
NCU_CSV = REPO / "results" / "ncu-h100.csv"
MISTAKES = REPO / "book" / "mistakes"

WORDS = {
    "en": {
        "answer": "Answer",
        "floats": "floats",
        "lesson": "lesson {}",
        "times": "{} vs {}",
        "measured": ("Measured on an {device} on {date} by `{command}` ({file}): median of {runs} runs after "
                     "{warmups} warm-ups, inputs rotated over {rotated} so that the L2 cache does not hold "
                     "them. GB/s counts the bytes read; the copy's counts read and write."),
        "measured_rs": ("Measured on an {device} on {date} ({file}); GB/s counts the bytes read and written."),
        "kernel": "kernel", "time": "time", "of_copy": "of the copy", "copy": "copy (read + write)",
        "ncu": "Nsight Compute on an {device} on {date}: `{command}` ({file}).",
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
        "measured": ("测量于 {device}，{date}，命令 `{command}`（{file}）：预热 {warmups} 次后取 {runs} 次的中位数，"
                     "输入在 {rotated} 的范围内轮换，使 L2 缓存装不下它们。GB/s 只计读取的字节；复制（copy）计读和写。"),
        "measured_rs": "测量于 {device}，{date}（{file}）；GB/s 计读取和写入的字节。",
        "kernel": "kernel", "time": "时间", "of_copy": "占复制带宽", "copy": "复制（读 + 写）",
        "ncu": "Nsight Compute，{device}，{date}：`{command}`（{file}）。",
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


def parse_markdown_inline(directive, text):
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
        return "rs-other"
    match = re.fullmatch(r"lesson (\d+)", kernel)
    return match.group(1) if match else kernel


class Bench:
    """results/bench-h100.csv, keyed by (kernel key, floats); ReduceScale rows by (key, "rs")."""

    def __init__(self):
        self.rows = {}
        reduce_scale_floats = None
        with BENCH_CSV.open() as file:
            for fields in list(csv.reader(file))[1:]:
                # kernel may hold commas unquoted ("lesson 9, warp per row, float4"): the other
                # five fields are counted from the end.
                kernel = ",".join(fields[:-5]).strip()
                idea, floats, time_us, gbps, correct = fields[-5:]
                if correct != "yes":
                    continue
                key = kernel_key(kernel, idea)
                size = "rs" if key.startswith("rs-") else int(floats)
                self.rows[key, size] = {"us": float(time_us), "gbps": float(gbps)}
                if key.startswith("rs-"):
                    reduce_scale_floats = int(floats)
        # The copy beside ReduceScale is a copy of the same matrix.
        if ("copy", reduce_scale_floats) in self.rows:
            self.rows["rs-copy", "rs"] = self.rows.pop(("copy", reduce_scale_floats))
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

    def versus_cub(self, key, size):
        return self.row("cub", size)["us"] / self.row(key, size)["us"]

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
        _bench = Bench()
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
            elif field == "us":
                text = f"{data.row(keys, size)['us']:.1f} µs"
            elif field == "copy":
                text = f"{100 * data.of_copy(keys, size):.0f}%"
            elif field == "cub":
                text = f"{data.versus_cub(keys, size):.2f}×"
            else:
                raise KeyError(f"unknown field '{field}' (gbps, us, copy, cub)")
        except (KeyError, ValueError, IndexError) as error:
            message = self.inliner.reporter.error(f"{{bench}}`{self.text}`: {error}", line=self.lineno)
            return [self.inliner.problematic(self.rawtext, self.rawtext, message)], [message]
        return [nodes.Text(text)], []


def table(headings, rows):
    """A docutils table of text cells."""
    group = nodes.tgroup(cols=len(headings))
    for _ in headings:
        group += nodes.colspec(colwidth=1)
    for section, lines in ((nodes.thead(), [headings]), (nodes.tbody(), rows)):
        for line in lines:
            row = nodes.row()
            for cell in line:
                entry = nodes.entry()
                entry += nodes.paragraph(text=str(cell))
                row += entry
            section += row
        group += section
    return nodes.table("", group)


class BenchTable(SphinxDirective):
    option_spec = {"lessons": directives.unchanged_required}

    def run(self):
        data = bench(self.env)
        w = words(self.env)
        lessons = self.options["lessons"].split()
        keys = lessons + ["cub", "copy"]
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
                rows.append(row)
        except KeyError as error:
            return [self.state.document.reporter.error(f"bench-table: {error}", line=self.lineno)]
        headings = [w["floats"]] + [w["lesson"].format(k) + ", GB/s" for k in lessons] + [
            "cub::DeviceReduce::Sum", w["copy"]]
        if len(lessons) > 1:
            headings.append(w["times"].format(w["lesson"].format(lessons[-1]), w["lesson"].format(lessons[0])))
        device, date, command = data.device_and_date()
        caption = w["measured"].format(device=device, date=date, command=command,
                                       file="results/bench-h100.txt", **data.method())
        return [table(headings, rows), parse_markdown_inline(self, caption)]


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
        return [table([w["kernel"], w["time"], "GB/s", w["of_copy"]], rows), parse_markdown_inline(self, caption)]


def read_commented_csv(path):
    """'# key: value' lines (device, date, command), then a CSV table: (meta, header, rows)."""
    meta, lines = {}, []
    for line in path.read_text().splitlines():
        if line.startswith("#"):
            key, _, value = line.lstrip("# ").partition(":")
            meta[key.strip().lower()] = value.strip()
        elif line.strip():
            lines.append(line)
    rows = list(csv.reader(lines))
    return meta, rows[0], rows[1:]


# ---- Nsight Compute --------------------------------------------------------------------

def read_ncu_table():
    """results/ncu-h100.csv: '#' lines "# key: value" (device, date, command), then a CSV table whose
    first column names the lesson ("3", "lesson 3", "03-sequential-addressing")."""
    return read_commented_csv(NCU_CSV)


def lesson_of(cell):
    match = re.search(r"\d+", cell)
    return int(match.group(0)) if match else None


class NcuRow(SphinxDirective):
    required_arguments = 1
    option_spec = {"compare": directives.positive_int}

    def run(self):
        if not NCU_CSV.exists():
            return []  # not measured yet: the chapter says nothing of it
        self.env.note_dependency(str(NCU_CSV))
        meta, headings, rows = read_ncu_table()
        wanted = [self.options["compare"]] if "compare" in self.options else []
        wanted.append(int(self.arguments[0]))
        chosen = []
        for lesson in wanted:
            found = [row for row in rows if lesson_of(row[0]) == lesson]
            if not found:
                return [self.state.document.reporter.error(
                    f"ncu: {NCU_CSV.relative_to(REPO)} has no row for lesson {lesson}", line=self.lineno)]
            chosen += found
        caption = words(self.env)["ncu"].format(device=meta.get("device", "?"), date=meta.get("date", "?"),
                                                command=meta.get("command", "?"), file="results/ncu-h100.csv")
        return [table(headings, chosen), parse_markdown_inline(self, caption)]


# ---- lesson 13: the ring beside NCCL ----------------------------------------------------

class AllReduceTable(SphinxDirective):
    required_arguments = 1

    def run(self):
        w = words(self.env)
        path = REPO / "results" / f"{self.arguments[0]}.csv"
        shown = f"results/{path.name}"
        self.env.note_dependency(str(path))
        if not path.exists():
            return [parse_markdown_inline(self, w["not_measured"].format(file=shown))]
        meta, header, rows = read_commented_csv(path)
        column = {name: k for k, name in enumerate(header)}
        by_size = {}
        for row in rows:
            by_size.setdefault(int(row[column["floats"]]), {})[row[column["kernel"]]] = row
        table_rows, ratios = [], []
        for size, found in sorted(by_size.items()):
            ring, nccl = found.get("lesson 13"), found.get("ncclAllReduce")
            if not ring or not nccl:
                return [self.state.document.reporter.error(
                    f"allreduce-table: {shown} lacks the ring or NCCL at {size} floats", line=self.lineno)]
            ratio = float(ring[column["gbps"]]) / float(nccl[column["gbps"]])
            if size >= 1 << 26:
                ratios.append(100 * ratio)
            table_rows.append([power_of_two(size)] + [f"{float(r[column[key]]):.{digits}f}"
                                                      for r in (ring, nccl)
                                                      for key, digits in (("time_us", 1), ("algbw_gbps", 1), ("gbps", 1))]
                              + [f"{100 * ratio:.0f}%"])
        headings = [w["floats_gpu"]] + [f"{name}, {field}" for name in (w["ring"], "NCCL")
                                        for field in ("µs", "algbw", "busbw")] + [w["ratio"]]
        caption = w["allreduce"].format(device=meta.get("device", "?"), date=meta.get("date", "?"),
                                        command=meta.get("command", "?"), file=shown)
        nodes_out = [table(headings, table_rows), parse_markdown_inline(self, caption)]
        if ratios:
            nodes_out.append(parse_markdown_inline(self, w["allreduce_goal"].format(low=min(ratios), high=max(ratios))))
        return nodes_out


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
        container += [parse_markdown_inline(self, w["wrote"].format(file=f"{solution.relative_to(REPO)}")), code,
                      parse_markdown_inline(self, w["prints"].format(lesson=lesson)), printed]
        return [container]


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
    app.add_directive("allreduce-table", AllReduceTable)
    app.add_directive("mistake", Mistake)
    app.add_directive("answer", Answer)
    plain = (visit_plain, visit_plain)
    app.add_node(details, html=(visit_details_html, depart_details_html), latex=plain, text=plain, man=plain,
                 texinfo=plain)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
