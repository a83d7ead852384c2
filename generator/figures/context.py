"""Context plane: 2-D states as points labelled with their weights, their
convex hull, and the context point inside it."""

from __future__ import annotations

from matplotlib.collections import LineCollection
from matplotlib.patches import Polygon
from matplotlib.transforms import offset_copy

from . import palette as P
from ._canvas import Figure
from ._mpl import Pool, style

def _setup(pool: Pool) -> None:
    """The plane drawn by hand: a light integer grid, whole-number labels and a
    left and bottom frame (matplotlib's tick machinery costs more than the rest)."""
    ax, fig = pool.ax, pool.fig
    pool.grid = ax.add_collection(LineCollection([], colors=P.GRID, linewidths=0.5, zorder=0.5))
    pool.frame = ax.plot([0, 0, 1], [1, 0, 0], transform=ax.transAxes, color="black", lw=0.8, zorder=2.5,
                         clip_on=False)[0]
    pool.hull = ax.add_patch(Polygon([(0, 0)] * 3, closed=True, facecolor=P.SKY, alpha=0.25, edgecolor=P.BLUE,
                                     lw=1, zorder=1))
    pool.segment = ax.plot([], [], color=P.BLUE, lw=1, zorder=2)[0]
    pool.points = ax.scatter([], [], color=P.BLUE, zorder=3)
    pool.context = ax.scatter([], [], marker="X", s=90, color=P.VERMILLION, edgecolor=P.INK, zorder=4)
    pool.below = offset_copy(ax.get_xaxis_transform(), fig=fig, y=-3.5, units="points")
    pool.left = offset_copy(ax.get_yaxis_transform(), fig=fig, x=-3.5, units="points")
    pool.label_at = offset_copy(ax.transData, fig=fig, x=5, y=5, units="points")
    pool.context_at = offset_copy(ax.transData, fig=fig, x=6, y=-12, units="points")
    pool.title = fig.text(0.02, 0.97, "", ha="left", va="top", color=P.INK)


def fig_context(problem, solution, spec=None, fmt: str = "svg") -> Figure:
    spec = spec or next(f for f in solution.figures if f.kind == "context")
    d = spec.data
    xs = [p[0] for p in d["states"]]
    ys = [p[1] for p in d["states"]]
    pad = 0.15 * max(max(xs) - min(xs), max(ys) - min(ys), 1)
    xlim, ylim = (min(xs) - pad, max(xs) + 3 * pad), (min(ys) - pad, max(ys) + pad)
    with style():
        pool = Pool.of("context", 3.8, 3.2, (0.13, 0.12, 0.82, 0.76), _setup)
        pool.start(3.8, 3.2, xlim, ylim)
        # whole-number grid and labels: states are drawn on a small integer grid
        xticks = range(int(min(xs)), int(max(xs)) + 1)
        yticks = range(int(min(ys)), int(max(ys)) + 1)
        pool.grid.set_segments([[(x, ylim[0]), (x, ylim[1])] for x in xticks]
                               + [[(xlim[0], y), (xlim[1], y)] for y in yticks])
        for x in xticks:
            pool.text("xtick", 3.5, x, 0, f"{x:d}".replace("-", "\u2212"), va="top", transform=pool.below)
        for y in yticks:
            pool.text("ytick", 3.6, 0, y, f"{y:d}".replace("-", "\u2212"), ha="right", transform=pool.left)
        pool.hull.set_visible(len(d["hull"]) >= 3)
        pool.segment.set_visible(len(d["hull"]) == 2)
        if len(d["hull"]) >= 3:
            pool.hull.set_xy(d["hull"])
        elif len(d["hull"]) == 2:
            pool.segment.set_data(*zip(*d["hull"]))
        pool.points.set_offsets(list(zip(xs, ys)))
        pool.points.set_sizes([30 + 220 * w for w in d["weights"]])
        for (x, y), name, shown in zip(d["states"], d["labels"], d["weights_shown"]):
            pool.text("label", 3.7, x, y, f"{name} (α = {shown})", ha="left", va="baseline", fontsize=8,
                      transform=pool.label_at)
        cx, cy = d["context"]
        pool.context.set_offsets([(cx, cy)])
        pool.text("c", 4.1, cx, cy, f"c = ({d['context_shown'][0]}, {d['context_shown'][1]})", ha="left",
                  va="baseline", fontsize=8, color=P.VERMILLION, fontweight="bold", transform=pool.context_at)
        pool.title.set_text(d.get("title", "the context inside the hull of the states"))
        return pool.done("context", alt_text(d), fmt)


def alt_text(d: dict) -> str:
    pts = "; ".join(f"{n} at ({p[0]:g}, {p[1]:g}) with weight {w}"
                    for n, p, w in zip(d["labels"], d["states"], d["weights_shown"]))
    return (f"Plane of the encoder states: {pts}. The context point c = ({d['context_shown'][0]}, "
            f"{d['context_shown'][1]}) lies inside their convex hull.")
