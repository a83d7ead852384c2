"""Sharpening: each weight against the dial (β, or the gap Δ), the asked
values marked, and the limits drawn as dashed lines."""

from __future__ import annotations

import math

from . import palette as P
from ._canvas import Axes, Canvas, Figure, escape, minus, num, text_box

AXIS = "#000000"  # axes, ticks and their labels: black, as matplotlib draws them
# marker outlines around their centre (size 5 pt, y down), matplotlib's shapes
_R = 2.5
_MARKERS = {
    "s": ((-_R, -_R), (_R, -_R), (_R, _R), (-_R, _R)),
    "^": ((0, -_R), (-_R, _R), (_R, _R)),
    "v": ((0, _R), (-_R, -_R), (_R, -_R)),
    "D": ((0, -5 * math.sqrt(0.5)), (5 * math.sqrt(0.5), 0), (0, 5 * math.sqrt(0.5)), (-5 * math.sqrt(0.5), 0)),
    "P": tuple((x * _R / 3, y * _R / 3) for x, y in ((-1, -3), (1, -3), (1, -1), (3, -1), (3, 1), (1, 1), (1, 3),
                                                       (-1, 3), (-1, 1), (-3, 1), (-3, -1), (-1, -1))),
}
# matplotlib's dash patterns, in units of the line width
_DASHES = {"--": (3.7, 1.6), ":": (1, 1.65), "-.": (6.4, 1.6, 1, 1.6)}
_YTICKS = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0)


def _dash(style, width: float) -> str | None:
    if style == "-":
        return None
    pattern = style[1] if isinstance(style, tuple) else _DASHES[style]
    return " ".join(num(v * width) for v in pattern)


def fig_sharpening(problem, solution, spec=None, fmt: str = "svg") -> Figure:
    spec = spec or next(f for f in solution.figures if f.kind == "sharpening")
    d = spec.data
    log = bool(d.get("log"))
    canvas = Canvas("sharpening", 4.8, 2.9)
    # the x range of the data with a 5% margin each side (on the log scale when logarithmic)
    xs = list(d["grid"]) + list(d["marks"])
    scale = math.log10 if log else float
    low, high = scale(min(xs)), scale(max(xs))
    low, high = low - 0.05 * (high - low), high + 0.05 * (high - low)
    xlim = (10 ** low, 10 ** high) if log else (low, high)
    ax = Axes(canvas, (0.12, 0.17, 0.62, 0.72), xlim, (-0.03, 1.03), xlog=log)
    # ticks below the lines: the asked values on x, tenths on y
    for x, label in zip(d["marks"], d["mark_labels"]):
        canvas.line([(ax.x(x), ax.bottom), (ax.x(x), ax.bottom + 3.5)], AXIS, 0.8)
        canvas.text(ax.x(x), ax.bottom + 7, minus(label), va="top", fill=AXIS)
    canvas.text(ax.fx(0.5), ax.bottom + 7 + sum(text_box("0", 9)[1:]) + 4, d["xlabel"], va="top", fill=AXIS)
    for y in _YTICKS:
        canvas.line([(ax.left - 3.5, ax.y(y)), (ax.left, ax.y(y))], AXIS, 0.8)
        ascent = text_box(f"{y:.1f}", 9)[1]
        canvas.text(ax.left - 7, ax.y(y) + ascent / 2, f"{y:.1f}", ha="right", va="baseline", fill=AXIS)
    widest, _, descent = text_box("0.0", 9)
    canvas.parts.append(_vertical(ax.left - 7 - widest - 4 - descent, ax.fy(0.5), "weight"))
    canvas.group(canvas.clip(ax))
    for i, curve in enumerate(d["curves"]):
        colour, style, marker = P.LINES[i % len(P.LINES)]
        canvas.line([(ax.x(x), ax.y(y)) for x, y in zip(d["grid"], curve)], colour, 1.6,
                    dash=_dash(style, 1.6), cap="square" if style == "-" else "butt")
        for x, y in zip(d["marks"], d["marked"][i]):
            if marker == "o":
                canvas.circle(ax.x(x), ax.y(y), _R, colour, colour)
            else:
                canvas.polygon([(ax.x(x) + u, ax.y(y) + v) for u, v in _MARKERS[marker]], colour, colour)
    for y in sorted(set(d["limit_high"])):
        canvas.line([(ax.left, ax.y(y)), (ax.right, ax.y(y))], P.GRID, 0.8, dash=_dash("--", 0.8))
    canvas.end_group()
    canvas.line([(ax.left, ax.top), (ax.left, ax.bottom), (ax.right, ax.bottom)], AXIS, 0.8, cap="square",
                join="miter")
    # the top weight printed above each asked value
    top = max(range(len(d["marked"])), key=lambda i: d["marked"][i][-1])
    title = d.get("title", "weights as the dial turns")
    width, ascent, descent = text_box(title, 9)
    tx, ty = 0.02 * canvas.width, 0.03 * canvas.height
    taken = [(tx, ty, tx + width, ty + ascent + descent)]
    for x, y, shown in sorted(zip(d["marks"], d["marked"][top], d["marked_shown"])):
        baseline = _label_baseline(ax.x(x), ax.y(y), shown[top], taken)
        canvas.text(ax.x(x), baseline, shown[top], 7.5, va="baseline")
    # the legend, right of the axes: a 16 pt sample of each line, rows 12 pt apart, centred
    n = len(d["curves"])
    ascent, descent = text_box("α", 8)[1:]
    first = ax.fy(0.5) - (n * (ascent + descent) + (n - 1) * 4) / 2 + ascent
    left = ax.fx(1.02) + 7.2
    for i, label in enumerate(d["labels"]):
        colour, style, _ = P.LINES[i % len(P.LINES)]
        baseline = first + 12 * i
        canvas.line([(left, baseline - 2.8), (left + 16, baseline - 2.8)], colour, 1.6, dash=_dash(style, 1.6),
                    cap="square" if style == "-" else "butt")
        canvas.text(left + 22.4, baseline, label, 8, ha="left", va="baseline", fill=AXIS)
    canvas.text(tx, ty, title, ha="left", va="top")
    return canvas.finish(alt_text(d), fmt)


def _label_baseline(x: float, y: float, s: str, taken: list) -> float:
    """Where a marker's weight goes: 6 pt above it, or where that would
    cover a label already placed (asked values close together, as β = 5, 10
    and 20 on a log scale), a line higher, still centred over its marker;
    failing that, below it.  The label's box joins `taken`."""
    width, ascent, descent = text_box(s, 7.5)
    line = ascent + descent + 1
    tries = [y - 6 - k * line for k in range(3)] + [y + 6 + ascent]

    def box(baseline):
        return (x - width / 2, baseline - ascent, x + width / 2, baseline + descent)

    def free(b):
        return b[1] >= 0 and not any(b[0] < t[2] and t[0] < b[2] and b[1] < t[3] and t[1] < b[3] for t in taken)

    baseline = next((b for b in tries if free(box(b))), tries[0])
    taken.append(box(baseline))
    return baseline


def _vertical(x: float, y: float, s: str) -> str:
    """A label reading upward, centred on (x, y) along its baseline."""
    return (f'<text x="{num(x)}" y="{num(y)}" transform="rotate(-90 {num(x)} {num(y)})" font-size="9" '
            f'fill="{AXIS}" text-anchor="middle">{escape(s)}</text>')


def alt_text(d: dict) -> str:
    marks = "; ".join(f"{d['xname']} = {m}: (" + ", ".join(r) + ")" for m, r in zip(d["mark_labels"], d["marked_shown"]))
    return (f"Line chart of each weight against {d['xname']}. At the marked values — {marks}. "
            f"Limits: as {d['xname']} grows, ({', '.join(d['limit_high_shown'])}); "
            f"toward the other end, ({', '.join(d['limit_low_shown'])}).")
