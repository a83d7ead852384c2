"""Alignment heatmap: rows are output words, columns input words, the weight
printed in every cell, the aligned cells outlined and an arrow at the darkest."""

from __future__ import annotations

from matplotlib import colormaps

from . import palette as P
from ._canvas import Figure
from ._mpl import Pool, style


def _setup(pool: Pool) -> None:
    pool.arrow = pool.ax.annotate("", xy=(0, 0), xytext=(0, 0), zorder=6, arrowprops={
        "arrowstyle": "-|>", "color": P.VERMILLION, "lw": 1.6, "shrinkA": 0, "shrinkB": 0})
    pool.title = pool.fig.text(0.02, 0.97, "", ha="left", va="top", color=P.INK)


def fig_heatmap(problem, solution, spec=None, fmt: str = "svg") -> Figure:
    spec = spec or next(f for f in solution.figures if f.kind == "heatmap")
    d = spec.data
    values = d["values"]
    ny, nx = len(values), len(values[0])
    cmap = colormaps[P.HEATMAP]
    with style():
        pool = Pool.of("heatmap", 4, 3, (0.30, 0.06, 0.66, 0.70), _setup)
        pool.start(1.6 + 0.95 * nx, 1.0 + 0.55 * ny, (-0.5, nx - 0.5), (ny - 0.5, -0.5))
        for r in range(ny):
            pool.text("row", 3, -0.6, r, d["rows"][r], ha="right")
            for c in range(nx):
                v = values[r][c]
                # one vector cell per weight: sharp in print, no embedded bitmap
                pool.rect("cell", 1, c - 0.5, r - 0.5, 1, 1, facecolor=cmap(v))
                pool.text("value", 3.1, c, r, d["shown"][r][c], fontsize=8, color="white" if v > 0.55 else P.INK)
        for c in range(nx):
            pool.text("col", 3.2, c, -0.62, d["cols"][c], va="bottom", rotation=30 if nx > 3 else 0)
        for r, c in d["marked"]:
            pool.rect("marked", 2, c - 0.5, r - 0.5, 1, 1, edgecolor=P.VERMILLION, linewidth=2.2)
        r, c = d["darkest"]
        pool.arrow.xy = (c + 0.35, r - 0.3)
        pool.arrow.set_position((c + 0.49, r - 0.49))
        pool.title.set_text(d.get("title", "attention weights: rows = output, columns = input"))
        return pool.done("heatmap", alt_text(d), fmt)


def alt_text(d: dict) -> str:
    rows = "; ".join(
        f"“{w}” row: " + ", ".join(f"{c} {s}" for c, s in zip(d["cols"], d["shown"][r]))
        for r, w in enumerate(d["rows"]))
    marked = ", ".join(f"“{d['rows'][r]}”→“{d['cols'][c]}”" for r, c in d["marked"])
    return (f"Heatmap of attention weights, rows are output words and columns input words. {rows}. "
            f"Outlined (aligned) cells: {marked}.")
