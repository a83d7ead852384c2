"""Weight bars: one bar per input position, the value printed on each, the
winner highlighted (colour, hatch and outline), and the amplification
exp(gap) marked where it is the point of the problem."""

from __future__ import annotations

from . import palette as P
from ._canvas import Figure, Pool, style


def _setup(pool: Pool) -> None:
    pool.ax.axhline(0, color=P.INK, lw=0.8, zorder=2)
    pool.title = pool.ax.text(0.0, 1.16, "", transform=pool.ax.transAxes, ha="left", va="top", fontsize=9,
                              color=P.INK, zorder=3.5)
    # The ratio label with its arrow, leaving from the label's side that faces the
    # winner: no clipping of the arrow at the label (bezier splitting, 3 ms a figure).
    pool.arrows = {side: pool.ax.annotate(
        "", xy=(0, 0), xytext=(0, 0), fontsize=8.5, color=P.VERMILLION, ha="center", zorder=3.6 + side,
        arrowprops={"arrowstyle": "-|>", "color": P.VERMILLION, "lw": 1.2, "relpos": (side, 0.5),
                    "patchA": None, "shrinkA": 0, "shrinkB": 0}) for side in (0, 1)}


def fig_bars(problem, solution, spec=None, fmt: str = "svg") -> Figure:
    """Bars of the weights in `spec.data` (labels, values, shown, winner, ratio)."""
    spec = spec or next(f for f in solution.figures if f.kind == "bars")
    d = spec.data
    n = len(d["values"])
    with style():
        pool = Pool.of("bars", 4.6, 2.7, (0.03, 0.14, 0.94, 0.74), _setup)
        pool.start(4.6, 2.7, (-0.6, max(n, 3) - 0.4), (-0.02, 1.18))
        small = 7 if n > 6 else 8.5
        for i, (v, shown, label) in enumerate(zip(d["values"], d["shown"], d["labels"])):
            win = i == d.get("winner")
            pool.rect("bar", 1, i - 0.36, 0, 0.72, v, facecolor=P.VERMILLION if win else P.SKY,
                      edgecolor=P.INK if win else P.BLUE, linewidth=1.4 if win else 0.6,
                      hatch=P.WINNER_HATCH if win else None)
            pool.text("value", 3, i, v + 0.015, shown, va="bottom", fontsize=small,
                      fontweight="bold" if win else "normal")
            pool.text("label", 3.1, i, -0.04, label, va="top", fontsize=small)
        pool.title.set_text(d.get("title", "attention weights"))
        ratio = d.get("ratio")
        side = int(ratio["over"] < d["winner"]) if ratio else None  # 1: the winner is to the right
        for s, arrow in pool.arrows.items():
            arrow.set_visible(s == side)
        if ratio:
            k, j = d["winner"], ratio["over"]
            top, low = d["values"][k], d["values"][j]
            arrow = pool.arrows[side]
            arrow.xy = (k, top * 0.5)
            arrow.set_position((j, min(low + 0.22, 1.05)))
            label = f"× {ratio['shown']} = exp({ratio['gap']})"
            arrow.set_text(label + " " if side else " " + label)  # a space between the label and its arrow
        return pool.done("bars", alt_text(d), fmt)


def alt_text(d: dict) -> str:
    parts = [f"{lab}: {val}" for lab, val in zip(d["labels"], d["shown"])]
    text = f"Bar chart of {d.get('title', 'attention weights')}, one bar per position — " + "; ".join(parts) + "."
    if d.get("winner") is not None:
        text += f" The highlighted bar is {d['labels'][d['winner']]}."
    if d.get("ratio"):
        text += f" It is {d['ratio']['shown']} times the bar of {d['labels'][d['ratio']['over']]}, exactly exp({d['ratio']['gap']})."
    return text
