"""Sharpening: each weight against the dial (β, or the gap Δ), the asked
values marked, and the limits drawn as dashed lines."""

from __future__ import annotations

from . import palette as P
from ._canvas import Figure
from ._mpl import finish, new_figure, style


def fig_sharpening(problem, solution, spec=None, fmt: str = "svg") -> Figure:
    spec = spec or next(f for f in solution.figures if f.kind == "sharpening")
    d = spec.data
    with style():
        fig = new_figure(4.8, 2.9)
        ax = fig.add_axes((0.12, 0.17, 0.62, 0.72))
        for i, curve in enumerate(d["curves"]):
            colour, ls, marker = P.LINES[i % len(P.LINES)]
            ax.plot(d["grid"], curve, color=colour, ls=ls, lw=1.6, label=d["labels"][i])
            ax.plot(d["marks"], d["marked"][i], ls="none", marker=marker, color=colour, ms=5)
        for y in sorted(set(d["limit_high"])):
            ax.axhline(y, color=P.GRID, lw=0.8, ls="--")
        if d.get("log"):
            ax.set_xscale("log")
            ax.minorticks_off()
        # the asked values on the axis, and the top weight printed at each of them
        ax.set_xticks(d["marks"], d["mark_labels"])
        top = max(range(len(d["marked"])), key=lambda i: d["marked"][i][-1])
        for x, y, shown in zip(d["marks"], d["marked"][top], d["marked_shown"]):
            ax.annotate(shown[top], (x, y), xytext=(0, 6), textcoords="offset points", ha="center",
                        fontsize=7.5, color=P.INK)
        ax.set_ylim(-0.03, 1.03)
        ax.set_xlabel(d["xlabel"])
        ax.set_ylabel("weight")
        for side in ("top", "right"):
            ax.spines[side].set_visible(False)
        ax.legend(loc="center left", bbox_to_anchor=(1.02, 0.5), frameon=False, fontsize=8)
        fig.text(0.02, 0.97, d.get("title", "weights as the dial turns"), ha="left", va="top", color=P.INK)
        return finish("sharpening", fig, alt_text(d), fmt)


def alt_text(d: dict) -> str:
    marks = "; ".join(f"{d['xname']} = {m}: (" + ", ".join(r) + ")" for m, r in zip(d["mark_labels"], d["marked_shown"]))
    return (f"Line chart of each weight against {d['xname']}. At the marked values — {marks}. "
            f"Limits: as {d['xname']} grows, ({', '.join(d['limit_high_shown'])}); "
            f"toward the other end, ({', '.join(d['limit_low_shown'])}).")
