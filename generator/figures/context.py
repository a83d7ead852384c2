"""Context plane: 2-D states as points labelled with their weights, their
convex hull, and the context point inside it."""

from __future__ import annotations

from matplotlib.patches import Polygon

from . import palette as P
from ._canvas import Figure, finish, reused, style


def fig_context(problem, solution, spec=None, fmt: str = "svg") -> Figure:
    spec = spec or next(f for f in solution.figures if f.kind == "context")
    d = spec.data
    xs = [p[0] for p in d["states"]]
    ys = [p[1] for p in d["states"]]
    with style():
        fig, ax = reused("context", 3.8, 3.2, (0.13, 0.12, 0.82, 0.76), axis=True)
        if len(d["hull"]) >= 3:
            ax.add_patch(Polygon(d["hull"], closed=True, facecolor=P.SKY, alpha=0.25, edgecolor=P.BLUE, lw=1))
        elif len(d["hull"]) == 2:
            ax.plot(*zip(*d["hull"]), color=P.BLUE, lw=1)
        ax.scatter(xs, ys, s=[30 + 220 * w for w in d["weights"]], color=P.BLUE, zorder=3)
        for (x, y), name, shown in zip(d["states"], d["labels"], d["weights_shown"]):
            ax.annotate(f"{name} (α = {shown})", (x, y), xytext=(5, 5), textcoords="offset points",
                        fontsize=8, color=P.INK)
        cx, cy = d["context"]
        ax.scatter([cx], [cy], marker="X", s=90, color=P.VERMILLION, edgecolor=P.INK, zorder=4)
        ax.annotate(f"c = ({d['context_shown'][0]}, {d['context_shown'][1]})", (cx, cy), xytext=(6, -12),
                    textcoords="offset points", fontsize=8, color=P.VERMILLION, fontweight="bold")
        pad = 0.15 * max(max(xs) - min(xs), max(ys) - min(ys), 1)
        ax.set_xlim(min(xs) - pad, max(xs) + 3 * pad)
        ax.set_ylim(min(ys) - pad, max(ys) + pad)
        # whole-number ticks: states are drawn on a small integer grid
        ax.set_xticks(range(int(min(xs)), int(max(xs)) + 1))
        ax.set_yticks(range(int(min(ys)), int(max(ys)) + 1))
        ax.grid(color=P.GRID, lw=0.5)
        for side in ("top", "right"):
            ax.spines[side].set_visible(False)
        fig.text(0.02, 0.97, d.get("title", "the context inside the hull of the states"), ha="left", va="top",
                 color=P.INK)
        return finish("context", fig, alt_text(d), fmt)


def alt_text(d: dict) -> str:
    pts = "; ".join(f"{n} at ({p[0]:g}, {p[1]:g}) with weight {w}"
                    for n, p, w in zip(d["labels"], d["states"], d["weights_shown"]))
    return (f"Plane of the encoder states: {pts}. The context point c = ({d['context_shown'][0]}, "
            f"{d['context_shown'][1]}) lies inside their convex hull.")
