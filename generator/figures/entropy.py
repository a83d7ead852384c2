"""Entropy bars against the maximum ln Tx (a dashed reference line)."""

from __future__ import annotations

from . import palette as P
from ._canvas import Figure
from ._mpl import Pool, style


def _setup(pool: Pool) -> None:
    pool.limit = pool.ax.axvline(0, color=P.INK, ls="--", lw=1, zorder=2)
    pool.ax.axvline(0, color=P.INK, lw=0.8, zorder=2.1)
    pool.title = pool.fig.text(0.02, 0.97, "", ha="left", va="top", color=P.INK)


def fig_entropy(problem, solution, spec=None, fmt: str = "svg") -> Figure:
    spec = spec or next(f for f in solution.figures if f.kind == "entropy")
    d = spec.data
    n = len(d["values"])
    top = d["max"] * 1.42  # room for the value labels beyond the maximum
    with style():
        pool = Pool.of("entropy", 5.0, 1.8, (0.36, 0.12, 0.60, 0.62), _setup)
        pool.start(5.0, 0.9 + 0.45 * n, (0, top), (n - 0.5, -0.6))
        for i, (lab, v, s) in enumerate(zip(d["labels"], d["values"], d["shown"])):
            low = i == d.get("highlight")
            pool.rect("bar", 1, 0, i - 0.275, v, 0.55, facecolor=P.VERMILLION if low else P.SKY, edgecolor=P.INK,
                      hatch=P.WINNER_HATCH if low else None, linewidth=0.8)
            pool.text("label", 3, -0.02 * top, i, lab, ha="right")
            # right of the bar, and right of the dashed maximum when the bar nearly reaches it
            x = v if v < 0.8 * d["max"] else max(v, d["max"])
            pool.text("value", 3.1, x + 0.02 * top, i, f"{s} nats", ha="left", fontsize=8)
        pool.limit.set_xdata([d["max"], d["max"]])
        pool.text("max", 3.2, d["max"], -0.55, f"ln {d['tx']} = {d['max_shown']}", va="bottom", fontsize=8)
        pool.title.set_text(d.get("title", "attention entropy against its maximum ln Tx"))
        return pool.done("entropy", alt_text(d), fmt)


def alt_text(d: dict) -> str:
    parts = "; ".join(f"{lab}: {s} nats" for lab, s in zip(d["labels"], d["shown"]))
    return f"Horizontal bars of attention entropy — {parts} — against the maximum ln {d['tx']} = {d['max_shown']} nats."
