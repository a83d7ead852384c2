"""Entropy bars against the maximum ln Tx (a dashed reference line)."""

from __future__ import annotations

from . import palette as P
from ._canvas import Figure, finish, reused, style


def fig_entropy(problem, solution, spec=None, fmt: str = "svg") -> Figure:
    spec = spec or next(f for f in solution.figures if f.kind == "entropy")
    d = spec.data
    n = len(d["values"])
    with style():
        fig, ax = reused("entropy", 5.0, 0.9 + 0.45 * n, (0.36, 0.12, 0.60, 0.62), axis=False)
        top = d["max"] * 1.42  # room for the value labels beyond the maximum
        ax.set_xlim(0, top)
        ax.set_ylim(n - 0.5, -0.6)
        for i, (lab, v, s) in enumerate(zip(d["labels"], d["values"], d["shown"])):
            low = i == d.get("highlight")
            ax.barh(i, v, height=0.55, color=P.VERMILLION if low else P.SKY, edgecolor=P.INK,
                    hatch=P.WINNER_HATCH if low else None, lw=0.8)
            ax.text(-0.02 * top, i, lab, ha="right", va="center", color=P.INK)
            # right of the bar, and right of the dashed maximum when the bar nearly reaches it
            x = v if v < 0.8 * d["max"] else max(v, d["max"])
            ax.text(x + 0.02 * top, i, f"{s} nats", ha="left", va="center", fontsize=8, color=P.INK)
        ax.axvline(d["max"], color=P.INK, ls="--", lw=1)
        ax.text(d["max"], -0.55, f"ln {d['tx']} = {d['max_shown']}", ha="center", va="bottom", fontsize=8,
                color=P.INK)
        ax.axvline(0, color=P.INK, lw=0.8)
        fig.text(0.02, 0.97, d.get("title", "attention entropy against its maximum ln Tx"), ha="left",
                 va="top", color=P.INK)
        return finish("entropy", fig, alt_text(d), fmt)


def alt_text(d: dict) -> str:
    parts = "; ".join(f"{lab}: {s} nats" for lab, s in zip(d["labels"], d["shown"]))
    return f"Horizontal bars of attention entropy — {parts} — against the maximum ln {d['tx']} = {d['max_shown']} nats."
