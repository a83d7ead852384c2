"""Alignment heatmap: rows are output words, columns input words, the weight
printed in every cell, the aligned cells outlined and an arrow at the darkest."""

from __future__ import annotations

import numpy as np
from matplotlib.patches import Rectangle

from . import palette as P
from ._canvas import Figure, finish, reused, style


def fig_heatmap(problem, solution, spec=None, fmt: str = "svg") -> Figure:
    spec = spec or next(f for f in solution.figures if f.kind == "heatmap")
    d = spec.data
    values = np.asarray(d["values"], dtype=float)
    ny, nx = values.shape
    with style():
        fig, ax = reused("heatmap", 1.6 + 0.95 * nx, 1.0 + 0.55 * ny, (0.30, 0.06, 0.66, 0.70), axis=False)
        ax.imshow(values, cmap=P.HEATMAP, vmin=0, vmax=1, aspect="auto", interpolation="nearest")
        ax.set_xlim(-0.5, nx - 0.5)
        ax.set_ylim(ny - 0.5, -0.5)
        for r in range(ny):
            ax.text(-0.6, r, d["rows"][r], ha="right", va="center", color=P.INK)
            for c in range(nx):
                v = values[r, c]
                ax.text(c, r, d["shown"][r][c], ha="center", va="center", fontsize=8,
                        color="white" if v > 0.55 else P.INK)
        for c in range(nx):
            ax.text(c, -0.62, d["cols"][c], ha="center", va="bottom", color=P.INK,
                    rotation=30 if nx > 3 else 0)
        for r, c in d["marked"]:
            ax.add_patch(Rectangle((c - 0.5, r - 0.5), 1, 1, fill=False, edgecolor=P.VERMILLION, lw=2.2))
        r, c = d["darkest"]
        ax.annotate("", xy=(c + 0.35, r - 0.3), xytext=(c + 0.49, r - 0.49),
                    arrowprops={"arrowstyle": "-|>", "color": P.VERMILLION, "lw": 1.6})
        fig.text(0.02, 0.97, d.get("title", "attention weights: rows = output, columns = input"),
                 ha="left", va="top", color=P.INK)
        return finish("heatmap", fig, alt_text(d), fmt)


def alt_text(d: dict) -> str:
    rows = "; ".join(
        f"“{w}” row: " + ", ".join(f"{c} {s}" for c, s in zip(d["cols"], d["shown"][r]))
        for r, w in enumerate(d["rows"]))
    marked = ", ".join(f"“{d['rows'][r]}”→“{d['cols'][c]}”" for r, c in d["marked"])
    return (f"Heatmap of attention weights, rows are output words and columns input words. {rows}. "
            f"Outlined (aligned) cells: {marked}.")
