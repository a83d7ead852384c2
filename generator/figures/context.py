"""Context plane: 2-D states as points labelled with their weights, their
convex hull, and the context point inside it."""

from __future__ import annotations

import math

from . import palette as P
from ._canvas import Axes, Canvas, Figure

# matplotlib's filled "X" marker, in units of half its size
_CROSS = ((-0.5, 1), (0, 0.5), (0.5, 1), (1, 0.5), (0.5, 0), (1, -0.5), (0.5, -1), (0, -0.5), (-0.5, -1),
          (-1, -0.5), (-0.5, 0), (-1, 0.5))


def fig_context(problem, solution, spec=None, fmt: str = "svg") -> Figure:
    spec = spec or next(f for f in solution.figures if f.kind == "context")
    d = spec.data
    xs = [p[0] for p in d["states"]]
    ys = [p[1] for p in d["states"]]
    pad = 0.15 * max(max(xs) - min(xs), max(ys) - min(ys), 1)
    xlim, ylim = (min(xs) - pad, max(xs) + 3 * pad), (min(ys) - pad, max(ys) + pad)
    canvas = Canvas("context", 3.8, 3.2)
    ax = Axes(canvas, (0.13, 0.12, 0.82, 0.76), xlim, ylim)
    clip = canvas.clip(ax)
    # the plane drawn by hand: a light whole-number grid (states sit on a small
    # integer grid), whole-number labels and a left and bottom frame
    xticks = range(int(min(xs)), int(max(xs)) + 1)
    yticks = range(int(min(ys)), int(max(ys)) + 1)
    canvas.group(clip)
    for x in xticks:
        canvas.line([(ax.x(x), ax.bottom), (ax.x(x), ax.top)], P.GRID, 0.5)
    for y in yticks:
        canvas.line([(ax.left, ax.y(y)), (ax.right, ax.y(y))], P.GRID, 0.5)
    hull = [(ax.x(x), ax.y(y)) for x, y in d["hull"]]
    if len(hull) >= 3:
        canvas.polygon(hull, P.SKY, P.BLUE, 1, opacity=0.25)
    elif len(hull) == 2:
        canvas.line(hull, P.BLUE, 1, cap="square")
    canvas.end_group()
    canvas.line([(ax.left, ax.top), (ax.left, ax.bottom), (ax.right, ax.bottom)], "#000000", 0.8, cap="square")
    canvas.group(clip)
    for x, y, w in zip(xs, ys, d["weights"]):
        canvas.circle(ax.x(x), ax.y(y), math.sqrt(30 + 220 * w) / 2, P.BLUE, P.BLUE)
    canvas.end_group()
    for x in xticks:
        canvas.text(ax.x(x), ax.bottom + 3.5, f"{x:d}".replace("-", "\u2212"), va="top")
    for y in yticks:
        canvas.text(ax.left - 3.5, ax.y(y), f"{y:d}".replace("-", "\u2212"), ha="right")
    for (x, y), name, shown in zip(d["states"], d["labels"], d["weights_shown"]):
        canvas.text(ax.x(x) + 5, ax.y(y) - 5, f"{name} (α = {shown})", 8, ha="left", va="baseline")
    cx, cy = ax.x(d["context"][0]), ax.y(d["context"][1])
    half = math.sqrt(90) / 2
    canvas.group(clip)
    canvas.polygon([(cx + half * u, cy - half * v) for u, v in _CROSS], P.VERMILLION, P.INK, 1)
    canvas.end_group()
    canvas.text(cx + 6, cy + 12, f"c = ({d['context_shown'][0]}, {d['context_shown'][1]})", 8, ha="left",
                va="baseline", fill=P.VERMILLION, bold=True)
    canvas.text(0.02 * canvas.width, 0.03 * canvas.height, d.get("title", "the context inside the hull of the states"),
                ha="left", va="top")
    return canvas.finish(alt_text(d), fmt)


def alt_text(d: dict) -> str:
    pts = "; ".join(f"{n} at ({p[0]:g}, {p[1]:g}) with weight {w}"
                    for n, p, w in zip(d["labels"], d["states"], d["weights_shown"]))
    return (f"Plane of the encoder states: {pts}. The context point c = ({d['context_shown'][0]}, "
            f"{d['context_shown'][1]}) lies inside their convex hull.")
