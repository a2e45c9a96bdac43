"""Draws the book's figures as SVG, each from the rule the lesson's code follows:
the reduction trees of lessons 1-3 and the warps and lanes they keep busy, the
shared-memory banks a warp touches, lesson 4's loads, lesson 5's race, the steps
lesson 6 keeps for each block size, the warp reduction of lesson 7, lesson 8's
grid-stride loop, lesson 9's row in registers, lesson 10's last block, lesson
11's tiles, lesson 12's clusters, lesson 13's ring (which chunk moves at each
step, what a ring and a tree cost, and how slices overlap copies with adds),
and the data movement of every shuffle, for a full warp and for sub-warp
widths. Lessons 6 and 12 read their constants (the block sizes instantiated,
the blocks per cluster) from the course's code. The shuffles are drawn from
what an H100 did: cpu-cuda/tests/data/shuffle_truth.txt, the table the CPU
backend's shuffles are tested against.

conf.py calls write_all() before every build, so the figures never go stale.
Each figure is written once per language: name.svg and name.zh_CN.svg, which
Sphinx picks for a Chinese build (figure_language_filename).
"""
import functools
import math
import os
import re
import tempfile
from pathlib import Path

CELL = 22
LANGUAGES = ("en", "zh_CN")

# Colours: working, idle, and two alternating groups of lanes.
WORK, IDLE, GROUP_A, GROUP_B, READ = "#f7d9c4", "#f4f4f4", "#eef3fb", "#fbf3e6", "#3a6fb0"


def tr(lang, english, chinese):
    return chinese if lang.startswith("zh") else english


def escape(words):
    return str(words).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def svg(width, height, body, title):
    title = escape(title)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
            f'font-family="sans-serif" font-size="11"><title>{title}</title>'
            f'<rect width="100%" height="100%" fill="white"/>{body}</svg>\n')


def text(x, y, words, size=11, colour="black", anchor="start", family=None):
    """family: "monospace" for code, whose spaces are kept as they are."""
    words = escape(words)
    font = f' font-family="{family}" xml:space="preserve"' if family else ""
    return f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" fill="{colour}" text-anchor="{anchor}"{font}>{words}</text>'


def box(x, y, label, fill=GROUP_A, w=CELL - 2, h=CELL - 4, size=11):
    return (f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" fill="{fill}" stroke="#456"/>'
            + text(x + w / 2, y + h / 2 + 4, label, size=size, anchor="middle"))


def arrow(x1, y1, x2, y2, colour="#c33"):
    head = "head" if colour == "#c33" else "headblue"
    return (f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{colour}" stroke-width="1.2" '
            f'marker-end="url(#{head})"/>')


HEAD = ('<defs><marker id="head" markerWidth="6" markerHeight="6" refX="5" refY="3" orient="auto">'
        '<path d="M0,0 L6,3 L0,6 z" fill="#c33"/></marker>'
        '<marker id="headblue" markerWidth="6" markerHeight="6" refX="5" refY="3" orient="auto">'
        f'<path d="M0,0 L6,3 L0,6 z" fill="{READ}"/></marker></defs>')


# ---- shuffles ---------------------------------------------------------------------

SHUFFLE_TRUTH = Path(__file__).resolve().parent.parent / "cpu-cuda" / "tests" / "data" / "shuffle_truth.txt"


@functools.cache
def shuffle_truth():
    """{(op, width, param): the lane each of the 32 lanes read}, as an H100 shuffled (the table the CPU
    backend is tested against; its lines are `OP WIDTH PARAM LANES`, LANES one base-32 digit a lane)."""
    table = {}
    for line in SHUFFLE_TRUTH.read_text().splitlines():
        fields = line.split()
        if len(fields) == 4 and fields[0] in ("up", "down", "xor", "idx"):
            op, width, param, lanes = fields
            table[op, int(width), int(param)] = [int(digit, 32) for digit in lanes]
    return table


def source_lane(op, lane, param, width):
    """The lane a shuffle reads: __shfl_{op}_sync(mask, v, param, width) at `lane`, from the H100's table."""
    try:
        return shuffle_truth()[op, width, param][lane]
    except KeyError:
        raise ValueError(f"{SHUFFLE_TRUTH.name} has no row for {op}, width {width}, param {param}") from None


def shuffle_figure(lang, op, param, width, caption, lanes=32):
    top, gap = 36, 70
    body = [HEAD, text(4, 14, caption, 12)]
    for lane in range(lanes):
        x = 10 + lane * CELL
        group_fill = GROUP_A if (lane // width) % 2 == 0 else GROUP_B
        src = source_lane(op, lane, param, width)
        body.append(box(x, top, lane, group_fill))
        body.append(box(x, top + gap, f"v{src}", group_fill))
        if src != lane:
            body.append(arrow(10 + src * CELL + CELL / 2 - 1, top + CELL - 4, x + CELL / 2 - 1, top + gap - 2))
    body.append(text(4, top + gap + CELL + 14, tr(
        lang, f"top: each lane, holding v = its value; bottom: what each lane receives; colours: groups of width {width}",
        f"上：各 lane 及其值 v；下：各 lane 收到的值；颜色：宽度为 {width} 的分组")))
    return svg(20 + lanes * CELL, top + gap + CELL + 24, "".join(body), caption)


def rotate_figure(lang, shift, width):
    """The wrap-around shift: __shfl_sync with source lane (lane + shift) % width."""
    top, gap, lanes = 36, 70, 32
    caption = (f"__shfl_sync(mask, v, (lane + {shift}) % {width}, {width}): " +
               tr(lang, f"values rotate around each group of {width}", f"值在每组 {width} 个 lane 内循环移动"))
    body = [HEAD, text(4, 14, caption, 12)]
    for lane in range(lanes):
        x = 10 + lane * CELL
        fill = GROUP_A if (lane // width) % 2 == 0 else GROUP_B
        src = source_lane("idx", lane, (lane + shift) % width, width)
        body.append(box(x, top, lane, fill))
        body.append(box(x, top + gap, f"v{src}", fill))
        body.append(arrow(10 + src * CELL + CELL / 2 - 1, top + CELL - 4, x + CELL / 2 - 1, top + gap - 2))
    return svg(20 + lanes * CELL, top + gap + CELL + 10, "".join(body), caption)


def warp_reduce_figure(lang):
    """Lesson 7: five __shfl_down_sync steps; the lanes whose sums still matter, and where they read."""
    top, row_gap, lanes = 40, 48, 32
    offsets = [16, 8, 4, 2, 1]
    title = tr(lang, "value += __shfl_down_sync(mask, value, offset) for offset 16, 8, 4, 2, 1: "
                     "after five steps lane 0 holds the warp's sum",
               "offset 依次为 16、8、4、2、1 的 value += __shfl_down_sync(mask, value, offset)：五步之后 lane 0 持有整个 warp 的和")
    body = [HEAD, text(4, 14, title, 12)]
    live = lanes  # lanes whose value still feeds lane 0's sum
    for row, offset in enumerate(offsets + [0]):
        y = top + row * row_gap
        for lane in range(lanes):
            fill = WORK if lane < live else IDLE
            body.append(box(10 + lane * CELL, y, lane, fill))
        if offset:
            for lane in range(offset):
                src = source_lane("down", lane, offset, 32)
                body.append(arrow(10 + src * CELL + CELL / 2, y + CELL - 4, 10 + lane * CELL + CELL / 2, y + row_gap - 2))
            body.append(text(20 + lanes * CELL, y + 12, f"offset {offset}"))
            live = offset
    bottom = top + len(offsets) * row_gap + CELL + 10
    body.append(text(4, bottom, tr(lang, "Orange: lanes whose value still counts towards lane 0; arrows: what lanes "
                                         "0 .. offset-1 add.",
                                   "橙色：其值仍会汇入 lane 0 的 lane；箭头：lane 0 到 offset-1 加上的值。")))
    body.append(text(4, bottom + 16, tr(lang, "The other lanes add too, in the same instruction, but nobody reads their sums.",
                                        "其余 lane 也在同一条指令中做加法，但没有人再读它们的结果。")))
    return svg(90 + lanes * CELL, bottom + 28, "".join(body), title)


# ---- the trees of lessons 1-3 ----------------------------------------------------------

def tree_steps(kind, n):
    """The tree's steps for a block of n threads: (stride, [(tid, dst, src), ...]), as each lesson's
    kernel chooses the threads that add: lesson 1 `tid % (2 * stride) == 0` adds partial[tid + stride]
    into partial[tid]; lesson 2 thread tid adds at index 2 * stride * tid; lesson 3 `tid < stride`."""
    steps = []
    stride = 1 if kind != "sequential" else n // 2
    while (stride < n) if kind != "sequential" else (stride > 0):
        active = []
        for tid in range(n):
            if kind == "divergent" and tid % (2 * stride) == 0:
                active.append((tid, tid, tid + stride))
            elif kind == "strided" and 2 * stride * tid < n:
                active.append((tid, 2 * stride * tid, 2 * stride * tid + stride))
            elif kind == "sequential" and tid < stride:
                active.append((tid, tid, tid + stride))
        steps.append((stride, active))
        stride = stride * 2 if kind != "sequential" else stride // 2
    return steps


def tree_title(lang, kind):
    return {
        "divergent": tr(lang, "Lesson 1: stride 1, 2, 4, 8; thread tid works if tid % (2*stride) == 0",
                        "第 1 课：stride 为 1、2、4、8；tid % (2*stride) == 0 的线程工作"),
        "strided": tr(lang, "Lesson 2: thread tid works on index 2*stride*tid: the first threads work",
                      "第 2 课：线程 tid 处理下标 2*stride*tid：工作的是前面的线程"),
        "sequential": tr(lang, "Lesson 3: stride 8, 4, 2, 1; thread tid < stride adds partial[tid + stride]",
                         "第 3 课：stride 为 8、4、2、1；tid < stride 的线程加上 partial[tid + stride]"),
    }[kind]


def tree_figure(lang, kind, n=16):
    steps = tree_steps(kind, n)
    width = CELL * 1.6
    height = 40 + (len(steps) + 1) * 56
    body = [HEAD, text(4, 14, tree_title(lang, kind), 12)]
    y = 26
    for i in range(n):
        body.append(box(10 + i * width, y, i, GROUP_A, w=width - 4))
    for stride, active in steps:
        y += 56
        working = {dst for _, dst, _ in active}
        for i in range(n):
            body.append(box(10 + i * width, y, i, WORK if i in working else IDLE, w=width - 4))
        for tid, dst, src in active:
            body.append(arrow(10 + src * width + CELL * 0.8, y - 56 + CELL - 4, 10 + dst * width + CELL * 0.8, y - 2))
            body.append(text(10 + dst * width + 2, y + CELL + 6, f"t{tid}", 9, "#833"))
        body.append(text(14 + n * width, y + 12, f"stride {stride}"))
    return svg(90 + n * width, height + 10, "".join(body), tree_title(lang, kind))


def warp_activity_figure(lang, kind, block=256, warp=32):
    """The lanes of each warp that take part in each step of a 256-thread block's tree. nvcc predicates
    the step (CUDA 13.0, sm_90 SASS): every warp issues its instructions, for all 32 lanes, whether
    any lane works or none."""
    steps = tree_steps(kind, block)
    warps = block // warp
    cell_w, cell_h, left, top = 46, 20, 84, 46
    title = {
        "divergent": tr(lang, "Lesson 1, a block of 256 threads: active lanes of each warp, step by step",
                        "第 1 课，256 线程的线程块：每一步中各 warp 的活跃 lane 数"),
        "strided": tr(lang, "Lesson 2, a block of 256 threads: active lanes of each warp, step by step",
                      "第 2 课，256 线程的线程块：每一步中各 warp 的活跃 lane 数"),
        "sequential": tr(lang, "Lesson 3, a block of 256 threads: active lanes of each warp, step by step",
                         "第 3 课，256 线程的线程块：每一步中各 warp 的活跃 lane 数"),
    }[kind]
    body = [text(4, 14, title, 12), text(4, top - 8, tr(lang, "warp", "warp"), 10)]
    for w in range(warps):
        body.append(text(left + w * cell_w + cell_w / 2, top - 8, w, 10, anchor="middle"))
    body.append(text(left + warps * cell_w + 8, top - 8, tr(lang, "warps with work", "有工作的 warp 数"), 10))
    with_work_total, lanes_total = 0, 0
    for row, (stride, active) in enumerate(steps):
        y = top + row * (cell_h + 2)
        body.append(text(4, y + 14, f"stride {stride}", 10))
        per_warp = [0] * warps
        for tid, _, _ in active:
            per_warp[tid // warp] += 1
        for w, count in enumerate(per_warp):
            shade = IDLE if count == 0 else (WORK if count == warp else "#fbe9dc")
            body.append(box(left + w * cell_w, y, count if count else "-", shade, w=cell_w - 2, h=cell_h, size=10))
        with_work = sum(1 for count in per_warp if count)
        with_work_total += with_work
        lanes_total += sum(per_warp)
        body.append(text(left + warps * cell_w + 30, y + 14, with_work, 10))
    y = top + len(steps) * (cell_h + 2) + 16
    issued_total = len(steps) * warps  # predicated: every warp issues every step
    body.append(text(4, y, tr(
        lang, f"In all: {lanes_total} additions, in {with_work_total} of the {issued_total} warp steps the "
              f"block issues: {lanes_total / (issued_total * warp):.0%} of the issued lanes do work.",
        f"合计：{lanes_total} 次加法，分布在线程块发射的 {issued_total} 个 warp 步骤中的 {with_work_total} 个里："
        f"发射出去的 lane 中有 {lanes_total / (issued_total * warp):.0%} 在做有用的工作。"), 11))
    body.append(text(4, y + 16, tr(lang, "Dark: all 32 lanes work; light: some; grey: none, yet the warp issues the "
                                         "step, its lanes predicated off.",
                                   "深色：32 个 lane 全部工作；浅色：部分工作；灰色：没有 lane 工作，但该 warp 仍发射这一步，"
                                   "它的 lane 被谓词关闭。"), 10))
    return svg(left + warps * cell_w + 130, y + 26, "".join(body), title)


# ---- shared-memory banks ------------------------------------------------------------------

def wavefronts(words):
    """One wavefront per distinct word in the busiest of the 32 banks (one word to many lanes is free)."""
    per_bank = {}
    for word in set(words):
        per_bank.setdefault(word % 32, set()).add(word)
    return max((len(words_in_bank) for words_in_bank in per_bank.values()), default=0)


def bank_figure(lang):
    """Which of the 32 banks the first 8 threads of a warp touch at stride 2, lesson 2 vs lesson 3."""
    body = [text(4, 14, tr(lang, "Shared-memory banks read by threads 0-7 of a warp at stride 2 (bank = word index % 32)",
                           "stride 为 2 时，一个 warp 的线程 0-7 读取的共享内存 bank（bank = 字下标 % 32）"), 12)]
    for row, (label, index) in enumerate([(tr(lang, "lesson 2: index = 2*stride*tid = 4*tid", "第 2 课：下标 = 2*stride*tid = 4*tid"),
                                           lambda t: 4 * t),
                                          (tr(lang, "lesson 3: index = tid", "第 3 课：下标 = tid"), lambda t: t)]):
        y = 30 + row * 70
        body.append(text(4, y + 10, label))
        for bank in range(32):
            body.append(box(10 + bank * CELL, y + 18, bank, IDLE))
        for t in range(8):
            bank = index(t) % 32
            body.append(box(10 + bank * CELL, y + 18, bank, WORK))
            body.append(text(12 + bank * CELL, y + 52, f"t{t}", 9))
    body.append(text(4, 178, tr(lang, "Lesson 2: a warp's 32 threads read 32 words 4 apart, 4 to each bank they use: "
                                      "4 wavefronts, one after another (a 4-way conflict).",
                                "第 2 课：一个 warp 的 32 个线程读取间隔为 4 的 32 个字，每个被用到的 bank 上有 4 个：4 个 wavefront 依次执行（4 路 bank conflict）。")))
    body.append(text(4, 194, tr(lang, "Lesson 3: the 32 words are consecutive, one in each bank: one wavefront.",
                                "第 3 课：32 个字是连续的，每个 bank 一个：1 个 wavefront。")))
    return svg(20 + 32 * CELL, 206, "".join(body), "bank conflicts")


def bank_steps_figure(lang, block=256, warp=32):
    """Wavefronts per shared-memory read, for the busiest warp of each step: lesson 2 against lesson 3."""
    rows = []
    for kind in ("strided", "sequential"):
        column = {}
        for stride, active in tree_steps(kind, block):
            worst = 0
            for w in range(block // warp):
                reads = [src for tid, _, src in active if tid // warp == w]
                worst = max(worst, wavefronts(reads))
            column[stride] = (worst, max((sum(1 for tid, _, _ in active if tid // warp == w)
                                          for w in range(block // warp)), default=0))
        rows.append(column)
    strides = sorted(rows[0])
    title = tr(lang, "Wavefronts for one warp's read of partial[... + stride], 256 threads (1 = no bank conflict)",
               "一个 warp 读取 partial[... + stride] 所需的 wavefront 数，256 线程（1 = 没有 bank conflict）")
    body = [text(4, 14, title, 12)]
    col_w, left, top = 70, 130, 40
    for c, stride in enumerate(strides):
        body.append(text(left + c * col_w + col_w / 2, top - 6, f"stride {stride}", 10, anchor="middle"))
    for r, (label, column) in enumerate(zip((tr(lang, "lesson 2", "第 2 课"), tr(lang, "lesson 3", "第 3 课")), rows)):
        y = top + r * 34
        body.append(text(4, y + 14, label))
        for c, stride in enumerate(strides):
            ways, lanes = column[stride]
            fill = IDLE if lanes == 0 else (WORK if ways > 1 else GROUP_A)
            body.append(box(left + c * col_w, y, f"{ways}" if lanes else "-", fill, w=col_w - 4, h=20))
            if lanes:
                body.append(text(left + c * col_w + col_w / 2 - 2, y + 30, tr(lang, f"{lanes} lane" + ("s" if lanes > 1 else ""), f"{lanes} 个 lane"), 9,
                                 "#555", "middle"))
    body.append(text(4, top + 80, tr(lang, "Counted by the hardware's rule: one wavefront per distinct word in the busiest bank.",
                                     "按硬件的规则计数：最繁忙的 bank 中每个不同的字需要一个 wavefront。"), 10))
    return svg(left + len(strides) * col_w + 10, top + 92, "".join(body), title)


# ---- lesson 4's loads, lesson 5's race ------------------------------------------------------

def load_figure(lang, threads=4, blocks=2):
    """Which thread and block read each element: lesson 3 (one element per thread) against lesson 4
    (two, blockDim.x apart: i = blockIdx.x * (2 * blockDim.x) + tid, and i + blockDim.x)."""
    n = 2 * threads * blocks
    colours = ["#f7d9c4", "#d9e8f7", "#dcefd9", "#efe0f5"]
    title = tr(lang, "Who reads which element: blocks of 4 threads over 16 elements",
               "谁读哪个元素：每个线程块 4 个线程，共 16 个元素")
    body = [text(4, 14, title, 12)]
    cell = 38
    for row, (label, owner) in enumerate([
            (tr(lang, "lesson 3: i = blockIdx.x * blockDim.x + tid: 4 blocks", "第 3 课：i = blockIdx.x * blockDim.x + tid：4 个线程块"),
             lambda i: (i // threads, i % threads)),
            (tr(lang, "lesson 4: i and i + blockDim.x, i = blockIdx.x * (2 * blockDim.x) + tid: 2 blocks",
                "第 4 课：i 与 i + blockDim.x，i = blockIdx.x * (2 * blockDim.x) + tid：2 个线程块"),
             lambda i: (i // (2 * threads), i % threads))]):
        y = 34 + row * 64
        body.append(text(4, y, label))
        for i in range(n):
            block, tid = owner(i)
            body.append(box(10 + i * cell, y + 8, f"b{block} t{tid}", colours[block % len(colours)], w=cell - 3, h=22, size=10))
            body.append(text(10 + i * cell + cell / 2 - 2, y + 44, i, 9, "#555", "middle"))
    return svg(20 + n * cell, 34 + 2 * 64 + 8, "".join(body), title)


def last_warp_race_figure(lang, offset=16):
    """Lesson 5 at offset 16: lanes 0-15 read partial[16..31] while lanes 16-31 write them."""
    lanes, top, gap = 32, 44, 74
    title = tr(lang, f"The last warp, offset {offset}: lane k reads partial[k + {offset}]; lane k writes partial[k]",
               f"最后一个 warp，offset 为 {offset}：lane k 读取 partial[k + {offset}]；lane k 写入 partial[k]")
    body = [HEAD, text(4, 14, title, 12), text(4, top - 6, "partial[]", 10)]
    for word in range(lanes + offset):
        raced = offset <= word < lanes
        body.append(box(10 + word * CELL * 0.75, top, word, WORK if raced else IDLE, w=CELL * 0.75 - 2, size=8))
    body.append(text(4, top + gap + 28, tr(lang, "lanes", "lane"), 10))
    for lane in range(lanes):
        x = 10 + lane * CELL * 0.75
        body.append(box(x, top + gap, lane, GROUP_A, w=CELL * 0.75 - 2, size=8))
        if lane < offset:  # the reads that matter for lane 0's sum
            src = lane + offset
            body.append(arrow(10 + src * CELL * 0.75 + 9, top + CELL - 4, x + 9, top + gap - 2, READ))
        body.append(arrow(x + 5, top + gap - 2, x + 5, top + CELL - 2))
    body.append(text(4, top + gap + 44, tr(
        lang, f"Orange words: read by lane k - {offset} (blue) and written by lane k (red) in the same step.",
        f"橙色的字：在同一步中被 lane k - {offset} 读取（蓝色），又被 lane k 写入（红色）。"), 10))
    body.append(text(4, top + gap + 60, tr(
        lang, "Which happens first is up to the scheduler, unless a __syncwarp() lies between the read and the write.",
        "谁先发生由调度器决定，除非读和写之间有一个 __syncwarp()。"), 10))
    return svg(20 + (lanes + offset) * CELL * 0.75 + 10, top + gap + 70, "".join(body), title)


# ---- lesson 6: the tree unrolled for each block size -----------------------------------------

REPO = Path(__file__).resolve().parent.parent


def code_constants(path, pattern):
    """The integers `pattern` (a regular expression with one group) finds in a file of the course, so that
    a figure follows the code it draws; a figure whose code changed shape fails the build."""
    found = [int(value) for value in re.findall(pattern, (REPO / path).read_text())]
    if not found:
        raise ValueError(f"figures.py: {path} no longer matches {pattern!r}")
    return found


def unrolled_steps(block_size):
    """Lesson 6's steps for kBlockSize = block_size, as the compiler unrolls them: the tree's loop
    `for (stride = kBlockSize / 2; stride > 32; stride /= 2)`, each step `if (tid < stride)` and a
    barrier, then last_warp_sum's `for (offset = 32; offset > 0; offset /= 2)` in the first warp."""
    strides, stride = [], block_size // 2
    while stride > 32:
        strides.append(stride)
        stride //= 2
    offsets, offset = [], 32
    while offset > 0:
        offsets.append(offset)
        offset //= 2
    return strides, offsets


def unrolled_figure(lang, shown=256):
    """Lesson 6: for each instantiation the launch code makes (its `switch`), the steps its code keeps."""
    sizes = code_constants("lessons/06-complete-unroll/check/launch.cu", r"case (\d+): return launch_unrolled")
    all_strides = sorted({s for size in sizes for s in unrolled_steps(size)[0]}, reverse=True)
    offsets = unrolled_steps(sizes[0])[1]
    cell_w, cell_h, left, top, gap = 58, 20, 112, 58, 12
    warp_x = left + len(all_strides) * cell_w + gap
    right = warp_x + len(offsets) * cell_w + 10
    title = tr(lang, "Lesson 6: the steps each reduce_complete_unroll<kBlockSize> keeps once the compiler has "
                     "unrolled its loops",
               "第 6 课：编译器展开循环之后，每个 reduce_complete_unroll<kBlockSize> 保留的步骤")
    body = [text(4, 14, title, 12),
            text(left, top - 24, tr(lang, "the tree, whole block", "树，整个线程块"), 10),
            text(warp_x, top - 24, tr(lang, "last_warp_sum, first warp", "last_warp_sum，第一个 warp"), 10),
            text(right + 30, top - 24, tr(lang, "barriers", "屏障数"), 10, anchor="middle")]
    for c, stride in enumerate(all_strides):
        body.append(text(left + c * cell_w + cell_w / 2 - 1, top - 6, f"stride {stride}", 9, "#555", "middle"))
    for c, offset in enumerate(offsets):
        body.append(text(warp_x + c * cell_w + cell_w / 2 - 1, top - 6, f"offset {offset}", 9, "#555", "middle"))
    for row, size in enumerate(sizes):
        y = top + row * (cell_h + 4)
        strides, warp_steps = unrolled_steps(size)
        body.append(text(4, y + 14, f"kBlockSize = {size}", 10))
        for c, stride in enumerate(all_strides):
            kept = stride in strides
            body.append(box(left + c * cell_w, y, f"tid < {stride}" if kept else "–", WORK if kept else IDLE,
                            w=cell_w - 3, h=cell_h, size=9))
        for c, offset in enumerate(offsets):
            kept = offset in warp_steps
            body.append(box(warp_x + c * cell_w, y, "tid < 32" if kept else "–", GROUP_A if kept else IDLE,
                            w=cell_w - 3, h=cell_h, size=9))
        # One barrier after the loads, one after each step of the tree.
        body.append(text(right + 30, y + 14, 1 + len(strides), 10, anchor="middle"))
        if size == shown:
            body.append(f'<rect x="2" y="{y - 2:.1f}" width="{right + 52:.1f}" height="{cell_h + 4}" fill="none" '
                        f'stroke="#c33" stroke-width="2"/>')
    y = top + len(sizes) * (cell_h + 4) + 14
    notes = [tr(lang, "Orange: if (tid < stride) partial[tid] += partial[tid + stride]; then __syncthreads(). "
                      "Blue: warp 0 adds partial[tid + offset], with __syncwarp().",
                "橙色：if (tid < stride) partial[tid] += partial[tid + stride]；然后 __syncthreads()。"
                "蓝色：warp 0 加上 partial[tid + offset]，用 __syncwarp()。"),
             tr(lang, "Grey: steps that the loop's constant bounds leave out of that instantiation; "
                      "its code has no instruction for them.",
                "灰色：循环的常量边界让这个实例化省去的步骤，它的代码里没有这些步骤的指令。"),
             tr(lang, "Barriers: the __syncthreads() a block passes, one after the loads and one per orange step.",
                "屏障数：一个线程块经过的 __syncthreads() 次数，加载之后一次，每个橙色步骤一次。")]
    for k, note in enumerate(notes):
        body.append(text(4, y + 16 * k, note, 10))
    y += 16 * (len(notes) - 1)
    strides, warp_steps = unrolled_steps(shown)
    lines = [tr(lang, f"// kBlockSize = {shown}, unrolled: no loop counter, no comparison with the bound, "
                      "no branch back",
                f"// kBlockSize = {shown}，展开之后：没有循环计数器，没有与边界的比较，没有回跳")]
    for stride in strides:
        lines += [f"if (tid < {stride}) partial[tid] += partial[tid + {stride}];", "__syncthreads();"]
    lines.append("if (tid < 32) last_warp_sum(partial, tid);  // offset " +
                 ", ".join(str(offset) for offset in warp_steps) +
                 tr(lang, ": constants too", "：同样是常量"))
    for k, line in enumerate(lines):
        body.append(text(4, y + 20 + 14 * k, line, 10, "#233", family="monospace"))
    height = y + 20 + 14 * len(lines)
    return svg(right + 60, height, "".join(body), title)


# ---- lessons 8-10: the grid ------------------------------------------------------------------

def grid_stride_figure(lang, blocks=2, block=4, pack=4, n=83):
    """Lesson 8's loops for a tiny grid: pack p goes to thread p % T in step p // T (T threads in the
    grid), then the n % 4 leftover floats one by one, again by thread index."""
    threads = blocks * block
    packs = n // pack
    colours = ["#f7d9c4", "#d9e8f7", "#dcefd9", "#efe0f5", "#f5f0c8", "#d6f0ef", "#f2d6de", "#e2e2e2"]
    per_row = 32
    cell = 24
    title = tr(lang, f"A grid of {blocks} blocks of {block} threads ({threads} threads) sums {n} floats: "
                     f"t: the thread that reads the float; s: the step of the loop",
               f"{blocks} 个线程块、每块 {block} 个线程（共 {threads} 个线程）对 {n} 个 float 求和：t 为读取该 float 的线程，s 为循环的第几步")
    body = [text(4, 14, title, 12)]
    for i in range(n):
        p = i // pack
        owner = p % threads if p < packs else (i - packs * pack) % threads
        step = p // threads if p < packs else 0
        x = 10 + (i % per_row) * cell
        y = 30 + (i // per_row) * 50
        body.append(box(x, y, f"t{owner}", colours[owner], w=cell - 2, h=20, size=9))
        label = f"s{step}" if p < packs else tr(lang, "tail", "尾")
        if i % pack == 0 or p >= packs:
            body.append(text(x + 1, y + 30, label, 8, "#555"))
        if i % per_row == 0:
            body.append(text(x, y - 3, i, 8, "#555"))
    y = 30 + ((n - 1) // per_row + 1) * 50
    body.append(text(4, y, tr(lang, f"Each step the {threads} threads read {threads} neighbouring 16-byte packs; "
                                    f"the last {n % pack} floats (n % 4) are read one by one.",
                              f"每一步 {threads} 个线程读取 {threads} 个相邻的 16 字节 pack；最后 {n % pack} 个 float（n % 4）逐个读取。"), 10))
    return svg(20 + per_row * cell, y + 12, "".join(body), title)


def row_layout_figure(lang, cols=256, pack=4, warp=32):
    """Lesson 9: which lane holds each column of a row: pack k of lane l is columns (k * 32 + l) * 4 ..."""
    packs_per_lane = cols // (warp * pack)
    cell = 3.2
    title = tr(lang, f"One warp holds a row of {cols} floats: lane l keeps columns (k * 32 + l) * 4 ... + 3, k = 0 .. {packs_per_lane - 1}",
               f"一个 warp 持有一行 {cols} 个 float：lane l 保存第 (k * 32 + l) * 4 到 +3 列，k = 0 .. {packs_per_lane - 1}")
    body = [text(4, 14, title, 12)]
    for first_col in range(0, cols, pack):  # one 16-byte pack: 4 columns of one lane
        lane = (first_col // pack) % warp
        k = first_col // (warp * pack)
        shade = 40 + (lane * 190) // warp
        fill = f"rgb({255 - shade // 3},{230 - shade // 2},{200 - shade // 2})" if k % 2 == 0 else \
            f"rgb({200 - shade // 2},{225 - shade // 3},{255 - shade // 4})"
        body.append(f'<rect x="{10 + first_col * cell:.1f}" y="30" width="{pack * cell:.1f}" height="26" '
                    f'fill="{fill}" stroke="white" stroke-width="0.6"/>')
    for k in range(packs_per_lane):
        x0 = 10 + k * warp * pack * cell
        for lane in (0, 1, 2, warp - 2):
            x = x0 + lane * pack * cell
            body.append(text(x + 1, 70, f"l{lane}", 8))
        body.append(text(x0, 86, f"k = {k}: {tr(lang, 'one 512-byte read by the warp', 'warp 一次读取连续 512 字节')}", 10))
    return svg(20 + cols * cell, 98, "".join(body), title)


def last_block_figure(lang, grid=20, threads=8):
    """Lesson 10's last block: thread t adds partials t, t + blockDim.x, ... (here 8 threads, 20 blocks)."""
    colours = ["#f7d9c4", "#d9e8f7", "#dcefd9", "#efe0f5", "#f5f0c8", "#d6f0ef", "#f2d6de", "#e2e2e2"]
    cell = 34
    title = tr(lang, f"The last block sums {grid} partials with {threads} threads: thread t takes partials t, t + {threads}, ...",
               f"最后一个线程块用 {threads} 个线程对 {grid} 个部分和求和：线程 t 取部分和 t、t + {threads}……")
    body = [text(4, 14, title, 12), text(4, 30, "partials[]", 10)]
    for b in range(grid):
        body.append(box(10 + b * cell, 36, f"t{b % threads}", colours[b % threads], w=cell - 3, h=20, size=10))
        body.append(text(10 + b * cell + cell / 2 - 2, 68, b, 9, "#555", "middle"))
    body.append(text(4, 88, tr(lang, "The same threads add the same partials in the same order on every run, "
                                     "whichever block finished last: the same bits every time.",
                               "无论哪个线程块最后完成，每次运行都是同样的线程以同样的顺序加同样的部分和：每次结果的每一位都相同。"), 10))
    return svg(20 + grid * cell, 98, "".join(body), title)


# ---- lessons 11 and 12: groups and clusters ---------------------------------------------------

def tiles_figure(lang, sizes=(16, 8, 4), shown=8, lanes=32):
    """Lesson 11: a warp split by cg::tiled_partition<k> (thread_rank() = lane % k, meta_group_rank() =
    lane / k), and tile_sum's butterfly in tiles of `shown`: tile.shfl_xor(value, lane_mask) for lane_mask
    shown / 2 .. 1 is __shfl_xor_sync with width = shown, so no lane reads outside its tile."""
    top, row_h, step_gap = 36, 44, 52
    title = tr(lang, "Lesson 11: tiles of a warp, and tile_sum's butterfly inside tiles of "
                     f"{shown} lanes (tile.shfl_xor: the width is the tile's)",
               f"第 11 课：warp 划分成的 tile，以及 {shown} 个 lane 的 tile 内 tile_sum 的蝶形交换"
               "（tile.shfl_xor：宽度就是 tile 的大小）")
    body = [HEAD, text(4, 14, title, 12),
            text(4, top, tr(lang, "In each box the lane's thread_rank() in its tile; above each tile its "
                                  "meta_group_rank(); lanes 0 .. 31 of the warp from left to right.",
                            "格中为该 lane 在所在 tile 中的 thread_rank()；每个 tile 上方为它的 meta_group_rank()；"
                            "从左到右是 warp 的 lane 0 .. 31。"), 10)]
    y = top + 8
    for k in sizes:
        for lane in range(lanes):
            fill = GROUP_A if (lane // k) % 2 == 0 else GROUP_B
            body.append(box(10 + lane * CELL, y + 14, lane % k, fill, size=10))
            if lane % k == 0:
                body.append(text(10 + (lane + k / 2) * CELL - 1, y + 10, lane // k, 9, "#555", "middle"))
        body.append(text(20 + lanes * CELL, y + 28, f"tiled_partition<{k}>", 10))
        y += row_h - 6
    y += 16
    body.append(text(4, y, tr(lang, f"tile_sum in tiles of {shown}: value += tile.shfl_xor(value, lane_mask); "
                                    "in each box, how many lanes' values it holds",
                              f"{shown} 个 lane 的 tile 中的 tile_sum：value += tile.shfl_xor(value, lane_mask)；"
                              "格中为它已含有几个 lane 的值"), 10))
    y += 8
    held = [{lane} for lane in range(lanes)]
    lane_mask = shown // 2
    masks = []
    while lane_mask > 0:
        masks.append(lane_mask)
        lane_mask //= 2
    for row, lane_mask in enumerate([None] + masks):
        if lane_mask is not None:
            before = [set(h) for h in held]
            for lane in range(lanes):
                partner = source_lane("xor", lane, lane_mask, shown)
                held[lane] = before[lane] | before[partner]
                body.append(arrow(10 + partner * CELL + CELL / 2 - 1, y + CELL - 4,
                                  10 + lane * CELL + CELL / 2 - 1, y + step_gap - 2))
            body.append(text(20 + lanes * CELL, y + step_gap + 12, f"lane_mask {lane_mask}", 10))
            y += step_gap
        for lane in range(lanes):
            whole = len(held[lane]) == shown
            fill = WORK if whole else (GROUP_A if (lane // shown) % 2 == 0 else GROUP_B)
            body.append(box(10 + lane * CELL, y, len(held[lane]), fill, size=10))
    y += CELL + 12
    body.append(text(4, y, tr(lang, f"After log2({shown}) = {len(masks)} steps every lane holds its tile's sum "
                                    "(orange); the arrows never leave a tile, because the shuffle's width is the "
                                    "tile's size.",
                              f"log2({shown}) = {len(masks)} 步之后每个 lane 都持有自己 tile 的和（橙色）；"
                              "箭头从不越出 tile，因为 shuffle 的宽度就是 tile 的大小。"), 10))
    return svg(150 + lanes * CELL, y + 12, "".join(body), title)


def cluster_figure(lang, clusters=4):
    """Lesson 12: blocks in clusters of kClusterBlocks (the solution's constant, which the launch gives as
    clusterDim.x): block b is rank b % size of cluster b / size; lane r of rank 0's first warp reads rank
    r's block_total through map_shared_rank, cg::reduce adds them, lane 0 writes cluster_sums[b / size];
    after grid.sync() block 0 adds cluster_sums in order."""
    size = code_constants("solutions/12-thread-block-clusters/reduce.cuh",
                          r"constexpr unsigned kClusterBlocks = (\d+);")[0]
    blocks = clusters * size
    block_w, lane_w, pad = 46, 22, 14
    panel = size * block_w + pad
    title = tr(lang, f"Lesson 12: a grid of {blocks} blocks in clusters of {size}; rank 0 of each cluster reads "
                     "the others' sums in their shared memory",
               f"第 12 课：{blocks} 个线程块组成的网格，每 {size} 个一个线程块簇；每个簇的 rank 0 "
               "从其他线程块的共享内存里读取它们的和")
    body = [HEAD, text(4, 14, title, 12)]
    top = 30
    sums_y = top + 148
    for c in range(clusters):
        x0 = 10 + c * panel
        fill = GROUP_A if c % 2 == 0 else GROUP_B
        body.append(f'<rect x="{x0 - 4:.1f}" y="{top:.1f}" width="{size * block_w + 4:.1f}" height="122" '
                    f'fill="{fill}" stroke="#9ab" stroke-dasharray="4 2"/>')
        body.append(text(x0, top + 13, tr(lang, f"cluster {c}", f"线程块簇 {c}"), 10))
        lanes_x = x0  # rank 0's first warp
        for r in range(size):
            b = c * size + r
            bx = x0 + r * block_w
            body.append(box(bx, top + 20, f"b{b}", "white", w=block_w - 6, h=18, size=10))
            body.append(text(bx + (block_w - 6) / 2, top + 50, f"rank {r}", 9, "#555", "middle"))
            body.append(box(bx, top + 56, tr(lang, f"sum {b}", f"和 {b}"), WORK, w=block_w - 6, h=18, size=9))
            # Lane r of rank 0's warp 0 loads rank r's block_total: a load from another SM's shared memory.
            body.append(arrow(bx + (block_w - 6) / 2, top + 75, lanes_x + r * lane_w + lane_w / 2 - 1, top + 96,
                              READ))
            body.append(box(lanes_x + r * lane_w, top + 98, r, "white", w=lane_w - 2, h=16, size=9))
        # cg::reduce leaves the cluster's sum in every lane; lane 0 writes it.
        body.append(arrow(lanes_x + lane_w / 2 - 1, top + 115, 10 + c * (lane_w + 2) + lane_w / 2 + 150, sums_y + 14))
    body.append(text(10 + clusters * panel, top + 70, tr(lang, "block_total, __shared__", "block_total，__shared__"),
                     9, "#555"))
    body.append(text(10 + clusters * panel, top + 110, tr(lang, "rank 0, warp 0: lane r reads rank r",
                                                          "rank 0 的 warp 0：lane r 读取 rank r"), 9, "#555"))
    body.append(text(10 + clusters * panel, top + 122, "(map_shared_rank)", 9, "#555"))
    body.append(text(10 + clusters * panel, top + 140, tr(lang, "red: cg::reduce; lane 0 writes",
                                                          "红色：cg::reduce；lane 0 写入"), 9, "#555"))
    body.append(text(4, sums_y + 29, "cluster_sums[]", 10))
    for slot in range(blocks):
        written = slot < clusters
        body.append(box(150 + slot * (lane_w + 2), sums_y + 16, slot if written else "–", WORK if written else IDLE,
                        w=lane_w, h=18, size=9))
    out_x, out_y = 150 + clusters * (lane_w + 2) / 2 - 20, sums_y + 58
    for slot in range(clusters):
        body.append(arrow(150 + slot * (lane_w + 2) + lane_w / 2, sums_y + 35, out_x + 20, out_y - 2))
    body.append(box(out_x, out_y, "*out", WORK, w=40, h=18, size=10))
    body.append(text(out_x + 48, out_y + 13, tr(lang, "block 0, after grid.sync()", "线程块 0，grid.sync() 之后"),
                     9, "#555"))
    sums_y += 48
    notes = [tr(lang, f"One slot per block, one value per cluster: cluster c writes cluster_sums[c] "
                      f"(blockIdx.x / {size}). After grid.sync() block 0 adds slots 0 .. {clusters - 1} in order.",
                f"每个线程块一个槽位，每个簇只写一个值：簇 c 写 cluster_sums[c]（blockIdx.x / {size}）。"
                f"grid.sync() 之后线程块 0 按顺序加槽位 0 .. {clusters - 1}。"),
             tr(lang, "Blue arrows: loads through map_shared_rank, between the two cluster.sync() barriers; all but "
                      "rank 0's own read another block's shared memory (distributed shared memory).",
                "蓝色箭头：经 map_shared_rank 的加载，位于两次 cluster.sync() 之间；除了 rank 0 读自己的之外，"
                "都读取另一个线程块的共享内存（分布式共享内存）。")]
    for k, note in enumerate(notes):
        body.append(text(4, sums_y + 56 + 16 * k, note, 10))
    return svg(max(10 + clusters * panel + 170, 170 + blocks * (lane_w + 2)), sums_y + 68 + 16 * (len(notes) - 1),
               "".join(body), title)


# ---- lesson 13: the ring ---------------------------------------------------------------------

def ring_states(gpus):
    """The shares each GPU's chunk holds after each step of lesson 13's ring: [(name, states, moved)],
    states[g][c] a set of GPUs, moved the (gpu, chunk) cells written in that step."""
    state = [[{g} for _ in range(gpus)] for g in range(gpus)]
    steps = [("start", [[set(cell) for cell in row] for row in state], set())]
    for phase in ("reduce-scatter", "all-gather"):
        for step in range(gpus - 1):
            before = [[set(cell) for cell in row] for row in state]
            moved = set()
            for g in range(gpus):
                to = (g + 1) % gpus
                c = (g - step) % gpus if phase == "reduce-scatter" else (g + 1 - step) % gpus
                state[to][c] = before[to][c] | before[g][c] if phase == "reduce-scatter" else set(before[g][c])
                moved.add((to, c))
            steps.append((f"{phase} {step}", [[set(cell) for cell in row] for row in state], moved))
    return steps


def ring_figure(lang, gpus=4):
    """Lesson 13: what each GPU holds of each chunk after every step; the cells a step wrote are outlined."""
    shades = ["#ffffff", "#eef3fb", "#cfe0f5", "#9fc1ea", "#f7d9c4"]
    cell, panel = CELL, CELL * gpus + 26
    title = tr(lang, f"A ring of {gpus} GPUs: how many GPUs' shares each chunk holds, step by step "
                     "(outlined: written in that step)",
               f"{gpus} 块 GPU 组成的环：每一步之后，各块（chunk）含有几块 GPU 的份额（加框：这一步写入的）")
    body = [text(4, 14, title, 12)]
    steps = ring_states(gpus)
    for p, (name, states, moved) in enumerate(steps):
        x0 = 46 + p * panel
        phase, _, step = name.rpartition(" ")
        label = {"start": tr(lang, "start", "开始"),
                 "reduce-scatter": f"reduce-scatter {step}", "all-gather": f"all-gather {step}"}[phase or name]
        body.append(text(x0, 34, label, 9))
        for c in range(gpus):
            body.append(text(x0 + c * cell + cell / 2 - 1, 48, f"c{c}", 9, "#555", "middle"))
        for g in range(gpus):
            if p == 0:
                body.append(text(4, 66 + g * cell, f"GPU {g}", 10))
            for c in range(gpus):
                count = len(states[g][c])
                fill = shades[4] if count == gpus else shades[min(count, 3)]
                body.append(box(x0 + c * cell, 54 + g * cell, count, fill))
                if (g, c) in moved:
                    body.append(f'<rect x="{x0 + c * cell - 1:.1f}" y="{53 + g * cell:.1f}" width="{cell:.1f}" '
                                f'height="{cell - 2:.1f}" fill="none" stroke="#c33" stroke-width="2"/>')
    body.append(text(4, 76 + gpus * cell, tr(
        lang, f"After the reduce-scatter GPU g holds the whole sum ({gpus}) of chunk g + 1; after the all-gather "
              "every GPU holds every chunk's. Each step every GPU sends one chunk.",
        f"reduce-scatter 之后 GPU g 持有块 g + 1 的完整和（{gpus}）；all-gather 之后每块 GPU 都持有每个块的完整和。"
        "每一步每块 GPU 发送一个块。"), 10))
    return svg(50 + len(steps) * panel, 88 + gpus * cell, "".join(body), title)


def allreduce_cost_figure(lang, max_gpus=16):
    """What an all-reduce of M bytes costs each GPU, by algorithm: bytes it sends (the bandwidth term) and
    steps one after another (the latency term), for 2 to max_gpus GPUs."""
    lines = [
        (tr(lang, "ring: 2(G - 1)/G M, 2(G - 1) steps", "环：2(G - 1)/G M，2(G - 1) 步"), "#1f77b4",
         lambda g: 2 * (g - 1) / g, lambda g: 2 * (g - 1)),
        (tr(lang, "double binary tree: 2 M, 2 log2 G steps", "双二叉树：2 M，2 log2 G 步"), "#2ca02c",
         lambda g: 2.0, lambda g: 2 * math.ceil(math.log2(g))),
        (tr(lang, "all to one GPU and back: (G - 1) M, cut off at 4, 2 steps",
            "全部发给一块 GPU 再发回：(G - 1) M（超过 4 的部分未画出），2 步"), "#d62728", lambda g: g - 1, lambda g: 2),
    ]
    title = tr(lang, "An all-reduce of M bytes over G GPUs: bytes the busiest GPU sends, and steps in a row",
               "G 块 GPU 上 M 字节的 all-reduce：最忙的 GPU 发送的字节数，以及先后相继的步数")
    width, height, left, top, plot_w, plot_h = 330, 190, 40, 44, 250, 120
    body = [text(4, 14, title, 12)]
    for panel, (name, pick, top_value) in enumerate(((tr(lang, "bytes sent, in units of M", "发送的字节数（以 M 为单位）"), 2, 4),
                                                     (tr(lang, "steps one after another", "先后相继的步数"), 3, 30))):
        x0 = left + panel * width
        x = lambda g: x0 + (g - 2) / (max_gpus - 2) * plot_w
        y = lambda v: top + plot_h - min(v, top_value) / top_value * plot_h
        body.append(text(x0, top - 8, name, 10))
        body.append(f'<rect x="{x0}" y="{top}" width="{plot_w}" height="{plot_h}" fill="none" stroke="#ccc"/>')
        for g in (2, 4, 8, 16):
            body.append(text(x(g), top + plot_h + 14, g, 9, "#555", "middle"))
        for v in (0, top_value / 2, top_value):
            body.append(text(x0 - 4, y(v) + 3, f"{v:g}", 9, "#555", "end"))
        body.append(text(x0 + plot_w / 2, top + plot_h + 28, tr(lang, "GPUs (G)", "GPU 数（G）"), 9, "#555", "middle"))
        for k, line in enumerate(lines):
            points = " ".join(f"{x(g):.1f},{y(line[pick](g)):.1f}" for g in range(2, max_gpus + 1))
            body.append(f'<polyline fill="none" stroke="{line[1]}" stroke-width="2" points="{points}"/>')
    for k, line in enumerate(lines):
        body.append(text(left, height + 18 + 14 * k, line[0], 10, line[1]))
    return svg(left + 2 * width, height + 56, "".join(body), title)


def slice_schedule(slices, copy=4.0, add=1.0):
    """Lesson 13 on 2 GPUs, one GPU's view: its copy stream brings in the reduce-scatter's slices one after
    another, its add stream adds each once it has arrived, and the all-gather's copy of a slice waits for
    the other GPU's add of it (as long as this one's). Returns [(stream, start, end, label)]."""
    c, a = copy / slices, add / slices
    bars, copy_free, add_free, added = [], 0.0, 0.0, []
    for k in range(slices):
        bars.append(("copy", copy_free, copy_free + c, "rs"))
        copy_free += c
        start = max(add_free, copy_free)
        bars.append(("add", start, start + a, "add"))
        add_free = start + a
        added.append(add_free)
    for k in range(slices):
        start = max(copy_free, added[k])
        bars.append(("copy", start, start + c, "ag"))
        copy_free = start + c
    return bars


def slices_figure(lang):
    """Lesson 13: one slice against four, on one GPU of two: the add overlaps the next slice's copy."""
    scale, row, x0 = 56, 18, 120
    colours = {"rs": "#9fc1ea", "ag": "#dcefd9", "add": "#f7d9c4"}
    title = tr(lang, "One GPU of two: a chunk sent whole, and in 4 slices (copy 4 units, add 1)",
               "两块 GPU 中的一块：整块发送，与分成 4 个切片发送（复制 4 个单位时间，加法 1 个）")
    body = [text(4, 14, title, 12)]
    for panel, slices in enumerate((1, 4)):
        y0 = 34 + panel * 3 * row
        body.append(text(4, y0 + 12, tr(lang, f"{slices} slice{'s' if slices > 1 else ''}", f"{slices} 个切片"), 10))
        bars = slice_schedule(slices)
        for lane, stream in enumerate(("copy", "add")):
            body.append(text(x0 - 6, y0 + lane * row + 12, tr(lang, f"{stream} stream", "复制流" if stream == "copy" else "加法流"),
                             9, "#555", "end"))
            for bar_stream, start, end, label in bars:
                if bar_stream == stream:
                    body.append(f'<rect x="{x0 + start * scale:.1f}" y="{y0 + lane * row:.1f}" '
                                f'width="{(end - start) * scale - 1:.1f}" height="{row - 4}" fill="{colours[label]}" '
                                f'stroke="#456"/>')
        finish = max(end for _, _, end, _ in bars)
        body.append(text(x0 + finish * scale + 4, y0 + 12, tr(lang, f"{finish:g} units", f"{finish:g} 个单位时间"), 9))
    legend = [("rs", tr(lang, "reduce-scatter copy", "reduce-scatter 复制")), ("add", tr(lang, "add", "加法")),
              ("ag", tr(lang, "all-gather copy", "all-gather 复制"))]
    for k, (key, name) in enumerate(legend):
        body.append(box(x0 + k * 160, 34 + 6 * row, "", colours[key], w=14, h=12) + text(x0 + k * 160 + 18, 34 + 6 * row + 10, name, 10))
    return svg(x0 + 10 * scale + 40, 56 + 6 * row, "".join(body), title)


# ---- all of them -----------------------------------------------------------------------------

def figures(lang):
    return {
        "tree-divergent.svg": tree_figure(lang, "divergent"),
        "tree-strided.svg": tree_figure(lang, "strided"),
        "tree-sequential.svg": tree_figure(lang, "sequential"),
        "warps-divergent.svg": warp_activity_figure(lang, "divergent"),
        "warps-strided.svg": warp_activity_figure(lang, "strided"),
        "warps-sequential.svg": warp_activity_figure(lang, "sequential"),
        "banks.svg": bank_figure(lang),
        "bank-steps.svg": bank_steps_figure(lang),
        "load-two.svg": load_figure(lang),
        "last-warp-race.svg": last_warp_race_figure(lang),
        "unrolled-steps.svg": unrolled_figure(lang),
        "warp-reduce.svg": warp_reduce_figure(lang),
        "grid-stride.svg": grid_stride_figure(lang),
        "row-in-registers.svg": row_layout_figure(lang),
        "last-block.svg": last_block_figure(lang),
        "tiles.svg": tiles_figure(lang),
        "cluster-sums.svg": cluster_figure(lang),
        "ring-steps.svg": ring_figure(lang),
        "allreduce-cost.svg": allreduce_cost_figure(lang),
        "ring-slices.svg": slices_figure(lang),
        "shfl-broadcast-32.svg": shuffle_figure(lang, "idx", 3, 32, "__shfl_sync(mask, v, 3): " + tr(
            lang, "every lane reads lane 3", "每个 lane 都读取 lane 3")),
        "shfl-broadcast-8.svg": shuffle_figure(lang, "idx", 3, 8, "__shfl_sync(mask, v, 3, 8): " + tr(
            lang, "lane 3 of each group of 8", "每组 8 个 lane 中的 lane 3")),
        "shfl-up-8.svg": shuffle_figure(lang, "up", 2, 8, "__shfl_up_sync(mask, v, 2, 8): " + tr(
            lang, "the first 2 lanes of a group keep their value", "每组的前 2 个 lane 保留自己的值")),
        "shfl-down-8.svg": shuffle_figure(lang, "down", 2, 8, "__shfl_down_sync(mask, v, 2, 8): " + tr(
            lang, "the last 2 lanes of a group keep their value", "每组的最后 2 个 lane 保留自己的值")),
        "shfl-rotate-8.svg": rotate_figure(lang, 3, 8),
        "shfl-xor-1.svg": shuffle_figure(lang, "xor", 1, 32, "__shfl_xor_sync(mask, v, 1): " + tr(
            lang, "neighbours swap", "相邻 lane 互换")),
        "shfl-xor-16-width-8.svg": shuffle_figure(lang, "xor", 16, 8, "__shfl_xor_sync(mask, v, 16, 8): " + tr(
            lang, "partner in a later group: own value; in an earlier group: that lane",
            "伙伴在后面的组：保留自己的值；在前面的组：读取那个 lane")),
    }


def write_if_changed(path, content):
    """Atomic, and only on change: the English and Chinese builds may run at the same time."""
    if path.exists() and path.read_text() == content:
        return
    with tempfile.NamedTemporaryFile("w", dir=path.parent, delete=False, suffix=".tmp") as temporary:
        temporary.write(content)
    os.replace(temporary.name, path)


def write_all(out_dir):
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    for lang in LANGUAGES:
        suffix = "" if lang == "en" else f".{lang}"
        for name, content in figures(lang).items():
            write_if_changed(out / name.replace(".svg", f"{suffix}.svg"), content)


if __name__ == "__main__":
    import sys
    write_all(sys.argv[1] if len(sys.argv) > 1 else "_generated")
