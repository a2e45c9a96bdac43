"""Draws the book's figures as SVG: the reduction trees of lessons 1-3, the
shared-memory banks a warp touches in lessons 2 and 3, and the data movement
of every shuffle, for a full warp and for sub-warp widths. The shuffles are
drawn from the rule the hardware follows (PTX ISA, shfl.sync), the same rule
the CPU backend implements and tests/data/shuffle_truth.txt confirms.
conf.py calls write_all() before every build, so the figures never go stale.
"""
from pathlib import Path

CELL = 22


def svg(width, height, body, title):
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'font-family="sans-serif" font-size="11"><title>{title}</title>'
            f'<rect width="100%" height="100%" fill="white"/>{body}</svg>\n')


def box(x, y, text, fill="#eef3fb", w=CELL - 2, h=CELL - 4):
    return (f'<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="{fill}" stroke="#456"/>'
            f'<text x="{x + w / 2}" y="{y + h / 2 + 4}" text-anchor="middle">{text}</text>')


def arrow(x1, y1, x2, y2, colour="#c33"):
    return (f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{colour}" stroke-width="1.2" '
            f'marker-end="url(#head)"/>')


HEAD = ('<defs><marker id="head" markerWidth="6" markerHeight="6" refX="5" refY="3" orient="auto">'
        '<path d="M0,0 L6,3 L0,6 z" fill="#c33"/></marker></defs>')


def source_lane(op, lane, param, width):
    """The lane a shuffle reads (PTX shfl.sync with c = ((32 - width) << 8) | clamp)."""
    segment = (32 - width) & 31
    b = param & 31
    clamp = 0 if op == "up" else 31
    max_lane = (lane & segment) | (clamp & ~segment & 31)
    if op == "up":
        j, ok = lane - b, lane - b >= max_lane
    elif op == "down":
        j, ok = lane + b, lane + b <= max_lane
    elif op == "xor":
        j, ok = lane ^ b, (lane ^ b) <= max_lane
    else:
        j = (lane & segment) | (b & ~segment & 31)
        ok = j <= max_lane
    return j if ok else lane


def shuffle_figure(op, param, width, lanes=32, caption=""):
    top, gap = 36, 70
    body = [HEAD, f'<text x="4" y="14" font-size="12">{caption}</text>']
    for lane in range(lanes):
        x = 10 + lane * CELL
        group_fill = "#eef3fb" if (lane // width) % 2 == 0 else "#fbf3e6"
        body.append(box(x, top, lane, group_fill))
        body.append(box(x, top + gap, f"v{source_lane(op, lane, param, width)}", group_fill))
        src = source_lane(op, lane, param, width)
        if src != lane:
            body.append(arrow(10 + src * CELL + CELL / 2 - 1, top + CELL - 4, x + CELL / 2 - 1, top + gap - 2))
    body.append(f'<text x="4" y="{top + gap + CELL + 14}">top: lane and the value it holds (v = value of lane); '
                f'bottom: what each lane receives; colours: groups of width {width}</text>')
    return svg(20 + lanes * CELL, top + gap + CELL + 24, "".join(body), caption)


def tree_figure(kind, n=16):
    rows = []
    values = [f"x{i}" for i in range(n)]
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
    height = 40 + (len(steps) + 1) * 56
    body = [HEAD]
    titles = {"divergent": "Lesson 1: stride 1, 2, 4, 8; thread tid works if tid % (2*stride) == 0",
              "strided": "Lesson 2: thread tid works on index 2*stride*tid: the first threads work",
              "sequential": "Lesson 3: stride 8, 4, 2, 1; thread tid < stride adds partial[tid + stride]"}
    body.append(f'<text x="4" y="14" font-size="12">{titles[kind]}</text>')
    y = 26
    for i in range(n):
        body.append(box(10 + i * CELL * 1.6, y, i, "#eef3fb", w=CELL * 1.6 - 4))
    for stride, active in steps:
        y += 56
        working = {dst for _, dst, _ in active}
        for i in range(n):
            body.append(box(10 + i * CELL * 1.6, y, i, "#f7d9c4" if i in working else "#f4f4f4", w=CELL * 1.6 - 4))
        for tid, dst, src in active:
            body.append(arrow(10 + src * CELL * 1.6 + CELL * 0.8, y - 56 + CELL - 4, 10 + dst * CELL * 1.6 + CELL * 0.8, y - 2))
            body.append(f'<text x="{10 + dst * CELL * 1.6 + 2}" y="{y + CELL + 6}" font-size="9" fill="#833">t{tid}</text>')
        body.append(f'<text x="{14 + n * CELL * 1.6}" y="{y + 12}">stride {stride}</text>')
    return svg(90 + n * CELL * 1.6, height + 10, "".join(body), titles[kind])


def bank_figure():
    """Which of the 32 banks the first 8 threads of a warp touch, lesson 2 (index 2*stride*tid) vs 3 (tid)."""
    body = [f'<text x="4" y="14" font-size="12">Shared-memory banks read by threads 0-7 of a warp at stride 2 '
            f'(bank = index % 32)</text>']
    for row, (label, index) in enumerate([("lesson 2: index = 2*stride*tid = 4*tid", lambda t: 4 * t),
                                          ("lesson 3: index = tid", lambda t: t)]):
        y = 30 + row * 70
        body.append(f'<text x="4" y="{y + 10}">{label}</text>')
        for bank in range(32):
            body.append(box(10 + bank * CELL, y + 18, bank, "#f4f4f4"))
        for t in range(8):
            bank = index(t) % 32
            body.append(box(10 + bank * CELL, y + 18, bank, "#f7d9c4"))
            body.append(f'<text x="{12 + bank * CELL}" y="{y + 52}" font-size="9">t{t}</text>')
    body.append('<text x="4" y="178">At stride 2 in lesson 2 a warp\'s 32 threads read 32 words 4 apart: 4 threads '
                'share each bank they use, and their accesses are served one after another (a 4-way conflict). '
                'In lesson 3 the 32 words are consecutive: one per bank, one access.</text>')
    return svg(20 + 32 * CELL, 190, "".join(body), "bank conflicts")


def write_all(out_dir):
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    figures = {
        "tree-divergent.svg": tree_figure("divergent"),
        "tree-strided.svg": tree_figure("strided"),
        "tree-sequential.svg": tree_figure("sequential"),
        "banks.svg": bank_figure(),
        "shfl-broadcast-32.svg": shuffle_figure("idx", 3, 32, caption="__shfl_sync(mask, v, 3): every lane reads lane 3"),
        "shfl-broadcast-8.svg": shuffle_figure("idx", 3, 8, caption="__shfl_sync(mask, v, 3, 8): lane 3 of each group of 8"),
        "shfl-up-8.svg": shuffle_figure("up", 2, 8, caption="__shfl_up_sync(mask, v, 2, 8): the first 2 lanes of a group keep their value"),
        "shfl-down-8.svg": shuffle_figure("down", 2, 8, caption="__shfl_down_sync(mask, v, 2, 8): the last 2 lanes of a group keep their value"),
        "shfl-rotate-8.svg": rotate_figure(3, 8),
        "shfl-xor-1.svg": shuffle_figure("xor", 1, 32, caption="__shfl_xor_sync(mask, v, 1): neighbours swap"),
        "shfl-xor-16-width-8.svg": shuffle_figure("xor", 16, 8, caption="__shfl_xor_sync(mask, v, 16, 8): partner in a later group: own value; in an earlier group: that lane"),
    }
    for name, text in figures.items():
        (out / name).write_text(text)


def rotate_figure(shift, width):
    """The wrap-around shift: __shfl_sync with source lane (lane + shift) % width."""
    top, gap, lanes = 36, 70, 32
    body = [HEAD, f'<text x="4" y="14" font-size="12">__shfl_sync(mask, v, (lane + {shift}) % {width}, {width}): '
                  f'values rotate around each group of {width}</text>']
    for lane in range(lanes):
        x = 10 + lane * CELL
        fill = "#eef3fb" if (lane // width) % 2 == 0 else "#fbf3e6"
        src = source_lane("idx", lane, (lane + shift) % width, width)
        body.append(box(x, top, lane, fill))
        body.append(box(x, top + gap, f"v{src}", fill))
        body.append(arrow(10 + src * CELL + CELL / 2 - 1, top + CELL - 4, x + CELL / 2 - 1, top + gap - 2))
    return svg(20 + lanes * CELL, top + gap + CELL + 10, "".join(body), "rotate")


if __name__ == "__main__":
    import sys
    write_all(sys.argv[1] if len(sys.argv) > 1 else "_generated")
